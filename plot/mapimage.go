package plot

import (
	"image"
	"image/color"
	"strconv"
)

// Key is one line of a map's key: a class colour (Marks 0) or a mark's symbol, and its text.
type Key struct {
	Colour color.RGBA
	Marks  Marks
	Text   string
}

// ClassKeys returns the key of the class colours Palette(len(classes)) gives, in order: each
// class by name when name (may be nil) gives one the font can draw, else by number.
func ClassKeys(classes []int, name func(c int) string) []Key {
	t := newText(12)
	pal := Palette(len(classes))
	out := make([]Key, len(classes))
	for k, c := range classes {
		s := strconv.Itoa(c)
		if name != nil {
			if n := name(c); n != "" && t.has(n) {
				s = n
			}
		}
		out[k] = Key{Colour: pal[k], Text: s}
	}
	return out
}

// Image draws the whole map (Fit, 16-pixel margin) into a new w×h image with the keys listed
// down its right side (the map takes what they leave): the picture the report holds.
func (m *Map) Image(w, h int, l Layer, keys []Key, s Style) *image.RGBA {
	t := newText(12)
	kw := 0
	for _, k := range keys {
		kw = max(kw, 28+t.width(k.Text))
	}
	if kw > 0 {
		kw += chartPad
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	mapW := max(1, w-kw)
	sub := img.SubImage(image.Rect(0, 0, mapW, h)).(*image.RGBA)
	m.Draw(sub, m.Fit(mapW, h, 16), l, s)
	rect(img, mapW, 0, w, h, s.Background)
	y := chartPad
	for _, k := range keys {
		cx, cy := mapW+10, y+t.height/2
		if k.Marks == 0 {
			rect(img, cx-5, cy-5, cx+6, cy+6, k.Colour)
		} else {
			one, err := NewMap([]float32{0, 0})
			if err == nil {
				icon := img.SubImage(image.Rect(cx-10, cy-10, cx+11, cy+11)).(*image.RGBA)
				v := View{W: 21, H: 21, Scale: 1}
				one.drawMarks(icon, v, Layer{Marked: []Marked{{0, k.Marks}}}, s)
				stamp(img, cx, cy, kernel(s.Radius, -1), [4]byte{s.Faint.R, s.Faint.G, s.Faint.B, 255})
			}
		}
		t.draw(img, mapW+24, y, k.Text, s.Text)
		y += t.height + 6
	}
	return img
}
