package normalize

import (
	"image"
	"image/color"
)

// Ink converts img to an ink image: one byte per pixel, 255 = full ink, 0 = background, in
// img's bounds, with the input's grey levels. Colour is reduced to luminance (ITU-R 601, as
// image/color's Gray model; a JPEG's Y channel directly). Polarity says whether light or dark
// pixels are ink (InkAuto: dark ink when the image's border is mostly light). An image with
// transparency takes its alpha as the ink's coverage, so a stroke on a transparent ground is ink
// whatever its colour.
func Ink(img image.Image, p Polarity) *image.Gray {
	out, transparent := luminance(img)
	if !transparent && (p == InkDark || p == InkAuto && lightBorder(out)) {
		for k, v := range out.Pix {
			out.Pix[k] = 255 - v
		}
	}
	return out
}

// luminance returns img as grey levels (its alpha instead, when any pixel is not opaque, and
// then true). Grey, YCbCr (JPEG), RGBA and NRGBA images are read from their pixel arrays; other
// types go through image/color.
func luminance(img image.Image) (*image.Gray, bool) {
	b := img.Bounds()
	out := image.NewGray(b)
	w := b.Dx()
	switch m := img.(type) {
	case *image.Gray:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			copy(out.Pix[out.PixOffset(b.Min.X, y):][:w], m.Pix[m.PixOffset(b.Min.X, y):])
		}
		return out, false
	case *image.YCbCr:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			copy(out.Pix[out.PixOffset(b.Min.X, y):][:w], m.Y[m.YOffset(b.Min.X, y):])
		}
		return out, false
	case *image.NRGBA:
		if rgbaLuminance(out, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y)) {
			return out, false
		}
	case *image.RGBA:
		if rgbaLuminance(out, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y)) {
			return out, false
		}
	}
	alpha := image.NewGray(b)
	transparent := false
	i := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if c.A != 255 {
				transparent = true
			}
			alpha.Pix[i] = c.A
			out.Pix[i] = color.GrayModel.Convert(color.NRGBA{c.R, c.G, c.B, 255}).(color.Gray).Y
			i++
		}
	}
	if transparent {
		return alpha, true
	}
	return out, false
}

// rgbaLuminance fills out with the luminance of an opaque 8-bit RGBA pixel array (image/color's
// Gray model: (19595·R + 38470·G + 7471·B + 2¹⁵) >> 24 on 16-bit values; RGBA and NRGBA agree
// on opaque pixels), starting at offset
// off; false, leaving out partly written, when a pixel is not opaque.
func rgbaLuminance(out *image.Gray, pix []byte, stride, off int) bool {
	w, h := out.Rect.Dx(), out.Rect.Dy()
	for y := range h {
		row := pix[off+y*stride:][:4*w]
		o := out.Pix[y*out.Stride:][:w]
		for x := range w {
			p := row[4*x : 4*x+4]
			if p[3] != 255 {
				return false
			}
			r, g, b := uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101
			o[x] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 24)
		}
	}
	return true
}

// lightBorder reports whether the mean of g's outermost pixels is above mid-grey.
func lightBorder(g *image.Gray) bool {
	b := g.Rect
	var sum, n int
	add := func(x, y int) { sum += int(g.GrayAt(x, y).Y); n++ }
	for x := b.Min.X; x < b.Max.X; x++ {
		add(x, b.Min.Y)
		add(x, b.Max.Y-1)
	}
	for y := b.Min.Y + 1; y < b.Max.Y-1; y++ {
		add(b.Min.X, y)
		add(b.Max.X-1, y)
	}
	return n > 0 && sum > 128*n
}

// BoundingBox returns the smallest rectangle holding every pixel of g with ink (value > 0),
// in g's coordinates; false when there is none.
func BoundingBox(g *image.Gray) (image.Rectangle, bool) {
	b := g.Rect
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := g.Pix[g.PixOffset(b.Min.X, y):][:b.Dx()]
		for k, v := range row {
			if v != 0 {
				x := b.Min.X + k
				minX, maxX = min(minX, x), max(maxX, x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
	}
	if maxX < minX {
		return image.Rectangle{}, false
	}
	return image.Rect(minX, minY, maxX+1, maxY+1), true
}

// CenterOfMass returns the ink-weighted mean position of g's pixels in index coordinates (row,
// col: pixel (x, y) sits at (y, x), in g's coordinates); false when g has no ink. MNIST places
// this point at (14.0, 14.0).
func CenterOfMass(g *image.Gray) (row, col float64, ok bool) {
	b := g.Rect
	var sum, sy, sx float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := g.Pix[g.PixOffset(b.Min.X, y):][:b.Dx()]
		for k, v := range row {
			if v != 0 {
				w := float64(v)
				sum += w
				sy += w * float64(y)
				sx += w * float64(b.Min.X+k)
			}
		}
	}
	if sum == 0 {
		return 0, 0, false
	}
	return sy / sum, sx / sum, true
}
