package plot

import (
	"image"
	"image/color"
	"image/draw"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// goRegular is the parsed Go Regular font (golang.org/x/image/font/gofont: Latin, Greek and
// Cyrillic), parsed once.
var goRegular = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(goregular.TTF) })

// text draws strings in one face. Not safe for concurrent use (a font.Face is not).
type text struct {
	face           font.Face
	ascent, height int
}

// newText returns a face of the Go font at size pixels (72 dpi), or of the basic 7×13 bitmap
// font when the Go font cannot be loaded.
func newText(size float64) *text {
	var face font.Face
	if f, err := goRegular(); err == nil {
		face, err = opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			face = nil
		}
	}
	if face == nil {
		face = basicfont.Face7x13
	}
	m := face.Metrics()
	return &text{face: face, ascent: m.Ascent.Ceil(), height: m.Height.Ceil()}
}

// has reports whether the face has a glyph for every character of s (a class name in a script
// the font lacks is shown by number instead).
func (t *text) has(s string) bool {
	for _, r := range s {
		if _, ok := t.face.GlyphAdvance(r); !ok {
			return false
		}
	}
	return true
}

// width returns s's advance in pixels.
func (t *text) width(s string) int {
	return font.MeasureString(t.face, s).Ceil()
}

// draw writes s with its top-left corner at (x, y).
func (t *text) draw(dst draw.Image, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: t.face, Dot: fixed.P(x, y+t.ascent)}
	d.DrawString(s)
}

// drawUp writes s rotated a quarter turn counter-clockwise (read from bottom to top), with the
// bottom-left corner of its box at (x, y): the box is t.height wide and width(s) tall.
func (t *text) drawUp(dst *image.RGBA, x, y int, s string, c color.RGBA) {
	w := t.width(s)
	if w == 0 {
		return
	}
	tmp := image.NewRGBA(image.Rect(0, 0, w, t.height))
	t.draw(tmp, 0, 0, s, c)
	for ty := range t.height {
		for tx := range w {
			p := tmp.Pix[ty*tmp.Stride+tx*4:]
			if p[3] == 0 {
				continue
			}
			blend(dst, x+ty, y-1-tx, p[0], p[1], p[2], p[3])
		}
	}
}

// blend draws a premultiplied pixel (r, g, b, a) over dst at (x, y), when inside.
func blend(dst *image.RGBA, x, y int, r, g, b, a uint8) {
	if !(image.Point{x, y}.In(dst.Rect)) {
		return
	}
	p := dst.Pix[dst.PixOffset(x, y):]
	k := 255 - uint32(a)
	p[0] = uint8(uint32(r) + uint32(p[0])*k/255)
	p[1] = uint8(uint32(g) + uint32(p[1])*k/255)
	p[2] = uint8(uint32(b) + uint32(p[2])*k/255)
	p[3] = uint8(uint32(a) + uint32(p[3])*k/255)
}
