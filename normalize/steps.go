package normalize

import (
	"image"
	"image/color"
)

// Ink converts img to an ink image: one byte per pixel, 255 = full ink, 0 = background, in
// img's bounds. Colour is reduced to luminance (ITU-R 601, as image/color's Gray model).
// Polarity says whether light or dark pixels are ink (InkAuto: dark ink when the image's border
// is mostly light). An image with transparency takes its alpha as the ink's coverage, so a
// stroke on a transparent ground is ink whatever its colour. threshold 1–255 makes the result
// bilevel (ink ≥ threshold → 255, else 0); 0 keeps grey levels.
func Ink(img image.Image, p Polarity, threshold int) *image.Gray {
	out, transparent := luminance(img)
	if !transparent && (p == InkDark || p == InkAuto && lightBorder(out)) {
		for k, v := range out.Pix {
			out.Pix[k] = 255 - v
		}
	}
	if threshold > 0 {
		for k, v := range out.Pix {
			if int(v) >= threshold {
				out.Pix[k] = 255
			} else {
				out.Pix[k] = 0
			}
		}
	}
	return out
}

// luminance returns img as grey levels (its alpha instead, when any pixel is not opaque, and
// then true). *image.Gray is copied directly; other types go through image/color.
func luminance(img image.Image) (*image.Gray, bool) {
	b := img.Bounds()
	out := image.NewGray(b)
	if g, ok := img.(*image.Gray); ok {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			copy(out.Pix[out.PixOffset(b.Min.X, y):][:b.Dx()], g.Pix[g.PixOffset(b.Min.X, y):])
		}
		return out, false
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
