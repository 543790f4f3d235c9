package report

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Colours of the drawings.
var (
	sheetGround = color.RGBA{0x2b, 0x2b, 0x2b, 0xff}
	sheetText   = color.RGBA{0xff, 0xdc, 0x78, 0xff}
	sheetNote   = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	barColour   = color.RGBA{0x3a, 0x6e, 0xa5, 0xff}
	chartText   = color.RGBA{0x20, 0x20, 0x20, 0xff}
)

// The contact sheet's geometry: each sample is drawn at tileSide pixels (or its natural size,
// when larger) with two 13-pixel lines of text below it.
const (
	tileSide   = 84
	sheetPad   = 6
	lineHeight = 14
	sheetCols  = 10
)

// tileScale returns the whole-pixel magnification that draws an h×w sample at most tileSide
// pixels on its longer side (at least 1).
func tileScale(h, w int) int { return max(1, tileSide/max(h, w)) }

// contactSheet draws the findings in rows of sheetCols tiles (pairs: half as many, the two
// samples side by side), each with its rank and sample number, the given label → suggestion
// (or the other sample's number and label) and the score.
func contactSheet(list []Finding, h, w int) *image.RGBA {
	s := tileScale(h, w)
	pair := false
	for _, f := range list {
		pair = pair || f.OtherPixels != nil
	}
	tileW, cols := w*s, sheetCols
	if pair {
		tileW, cols = 2*w*s+sheetPad, sheetCols/2
	}
	cellW := max(tileW, 7*16) + 2*sheetPad
	cellH := h*s + 2*lineHeight + 2*sheetPad
	rows := (len(list) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*cellW, rows*cellH))
	draw.Draw(img, img.Rect, image.NewUniform(sheetGround), image.Point{}, draw.Src)
	for n, f := range list {
		x0, y0 := (n%cols)*cellW+sheetPad, (n/cols)*cellH+sheetPad
		drawSample(img, f.Pixels, h, w, s, x0, y0)
		first := fmt.Sprintf("%d. #%d", n+1, f.Index)
		second := labelLine(f)
		if f.OtherPixels != nil {
			drawSample(img, f.OtherPixels, h, w, s, x0+w*s+sheetPad, y0)
			first = fmt.Sprintf("%d. #%d #%d", n+1, f.Index, f.Other)
		}
		text(img, first, x0, y0+h*s+lineHeight-2, sheetText)
		text(img, second+" "+strconv.FormatFloat(f.Score, 'f', 3, 64), x0, y0+h*s+2*lineHeight-2, sheetNote)
	}
	return img
}

// labelLine is a tile's second line: "3→5" (given → suggested), the given label alone, or for a
// pair the two labels ("3=3", or "3/5" when they differ).
func labelLine(f Finding) string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	switch {
	case f.OtherPixels != nil && f.OtherLabel != "":
		if f.Label == f.OtherLabel {
			return dash(f.Label) + "=" + f.OtherLabel
		}
		return dash(f.Label) + "/" + f.OtherLabel
	case f.Suggested != "" && f.Suggested != f.Label:
		return dash(f.Label) + ">" + f.Suggested
	}
	return dash(f.Label)
}

// drawSample draws h×w grey pixels magnified s times at (x0, y0).
func drawSample(img *image.RGBA, px []byte, h, w, s, x0, y0 int) {
	for y := range h {
		for x := range w {
			v := px[y*w+x]
			c := color.RGBA{v, v, v, 0xff}
			for dy := range s {
				off := img.PixOffset(x0+x*s, y0+y*s+dy)
				for dx := range s {
					img.Pix[off+4*dx], img.Pix[off+4*dx+1], img.Pix[off+4*dx+2], img.Pix[off+4*dx+3] = c.R, c.G, c.B, c.A
				}
			}
		}
	}
}

// text draws s with its baseline at (x, y) in the 7×13 bitmap font (ASCII; other characters
// are drawn as boxes).
func text(img draw.Image, s string, x, y int, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// histogram draws a bar chart of the class counts: one bar per class, its count above it and
// the class below (cut to 8 characters).
func histogram(classes []ClassCount) *image.RGBA {
	const barW, gap, plotH, top, bottom, left = 40, 16, 220, 24, 24, 12
	width := left*2 + len(classes)*(barW+gap)
	img := image.NewRGBA(image.Rect(0, 0, width, top+plotH+bottom))
	draw.Draw(img, img.Rect, image.White, image.Point{}, draw.Src)
	most := 1
	for _, c := range classes {
		most = max(most, c.Count)
	}
	for k, c := range classes {
		x := left + k*(barW+gap)
		bh := c.Count * plotH / most
		draw.Draw(img, image.Rect(x, top+plotH-bh, x+barW, top+plotH), image.NewUniform(barColour), image.Point{}, draw.Src)
		count := strconv.Itoa(c.Count)
		text(img, count, x+(barW-7*len(count))/2, top+plotH-bh-4, chartText)
		name := []rune(c.Class)
		if len(name) > 8 {
			name = name[:8]
		}
		text(img, string(name), x+(barW-7*len(name))/2, top+plotH+bottom-8, chartText)
	}
	return img
}
