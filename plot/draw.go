package plot

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
)

// NoColour marks a point without a class colour in Layer.Colour: it is drawn in Style.Faint.
const NoColour = math.MaxUint16

// Marks say what is special about a sample on the map; they combine.
type Marks uint8

// The marks, drawn over the points in this order: Selected first (a halo under the point),
// Cursor last.
const (
	Selected Marks = 1 << iota // in the grid's selection: a halo in Style.Select
	Suspect                    // a likely label error: a ring in Style.Mark
	Edited                     // relabelled, added or restored in this session: a square in Style.Mark
	Outlier                    // not like any class: a cross in Style.Alert
	Cursor                     // the grid's cursor: a wide ring and cross hairs in Style.Mark
)

// Marked is one sample's marks.
type Marked struct {
	Index int
	Marks Marks
}

// Layer is what a frame shows of the points: their colours and the marked samples.
type Layer struct {
	// Colour holds a Palette index per point (by given or by suggested label, as the caller
	// chooses), or NoColour; nil draws every point in Style.Faint.
	Colour  []uint16
	Palette []color.RGBA // class colours (see Palette); an index past its end is drawn Faint
	Marked  []Marked     // drawn over the points, in order; indices outside the map are skipped
}

// Draw renders the map into dst (its whole bounds, which View.W×H should match) as v shows it:
// the background, then every point in the view as a disc of Style.Radius pixels in its colour
// (points overlap in grid order), then the marks. It visits only the grid cells in view:
// O(points in view + marks) time, no allocation beyond a few small kernels.
func (m *Map) Draw(dst *image.RGBA, v View, l Layer, s Style) {
	fill(dst, s.Background)
	if s.Radius <= 0 {
		s.Radius = 1.5
	}
	disc := kernel(s.Radius, -1)
	reach := float32((s.Radius + 1) / v.Scale)
	x0, y0 := v.ToMap(0, 0)
	x1, y1 := v.ToMap(float64(v.W), float64(v.H))
	c0, r0, c1, r1, ok := m.cellRange(x0-reach, y0-reach, x1+reach, y1+reach)
	if ok {
		colours := make([][4]byte, len(l.Palette))
		for k, c := range l.Palette {
			colours[k] = [4]byte{c.R, c.G, c.B, 255}
		}
		faint := [4]byte{s.Faint.R, s.Faint.G, s.Faint.B, 255}
		b := dst.Rect
		// Pixel of map x: (x − CX)·Scale + W/2, plus the image's origin.
		ox := float64(v.W)/2 - v.CX*v.Scale + float64(b.Min.X)
		oy := float64(v.H)/2 - v.CY*v.Scale + float64(b.Min.Y)
		sc := v.Scale
		for gy := r0; gy <= r1; gy++ {
			for gx := c0; gx <= c1; gx++ {
				cell := gy*m.gw + gx
				k0 := int(m.start[cell])
				for k, i := range m.order[k0:m.start[cell+1]] {
					px := floor(float64(m.sorted[2*(k0+k)])*sc + ox)
					py := floor(float64(m.sorted[2*(k0+k)+1])*sc + oy)
					col := faint
					if l.Colour != nil {
						if k := l.Colour[i]; int(k) < len(colours) {
							col = colours[k]
						}
					}
					stamp(dst, px, py, disc, col)
				}
			}
		}
	}
	m.drawMarks(dst, v, l, s)
}

// DrawMarks draws only l's marks over dst as v shows the map (Draw's last step): a window that
// keeps a frame of the points apart redraws the marks over a copy of it when only the cursor or
// the selection moved. O(marks) time, no allocation beyond a few small kernels.
func (m *Map) DrawMarks(dst *image.RGBA, v View, l Layer, s Style) {
	if s.Radius <= 0 {
		s.Radius = 1.5
	}
	m.drawMarks(dst, v, l, s)
}

// drawMarks draws each marked sample's marks (see Marks).
func (m *Map) drawMarks(dst *image.RGBA, v View, l Layer, s Style) {
	r := s.Radius
	disc := kernel(r, -1)
	halo := kernel(r+2.5, -1)
	ring := kernel(r+3, 1)
	wide := kernel(r+6, 2)
	rgb := func(c color.RGBA) [4]byte { return [4]byte{c.R, c.G, c.B, 255} }
	for _, mk := range l.Marked {
		i := mk.Index
		if i < 0 || i >= m.Len() || !finite(m.xy[2*i]) || !finite(m.xy[2*i+1]) {
			continue
		}
		fx, fy := v.ToPixel(m.xy[2*i], m.xy[2*i+1])
		px, py := int(math.Floor(fx))+dst.Rect.Min.X, int(math.Floor(fy))+dst.Rect.Min.Y
		col := rgb(s.Faint)
		if l.Colour != nil && int(l.Colour[i]) < len(l.Palette) {
			col = rgb(l.Palette[l.Colour[i]])
		}
		if mk.Marks&Selected != 0 {
			stamp(dst, px, py, halo, rgb(s.Select))
			stamp(dst, px, py, disc, col)
		}
		if mk.Marks&Suspect != 0 {
			stamp(dst, px, py, ring, rgb(s.Mark))
		}
		if mk.Marks&Edited != 0 {
			d := int(math.Ceil(r)) + 2
			square(dst, px-d, py-d, px+d, py+d, rgb(s.Mark))
		}
		if mk.Marks&Outlier != 0 {
			d := int(math.Ceil(r)) + 3
			for t := -d; t <= d; t++ {
				set(dst, px+t, py+t, rgb(s.Alert))
				set(dst, px+t, py-t, rgb(s.Alert))
			}
		}
		if mk.Marks&Cursor != 0 {
			stamp(dst, px, py, wide, rgb(s.Mark))
			d := int(math.Ceil(r)) + 10
			for t := int(math.Ceil(r)) + 8; t <= d; t++ {
				set(dst, px+t, py, rgb(s.Mark))
				set(dst, px-t, py, rgb(s.Mark))
				set(dst, px, py+t, rgb(s.Mark))
				set(dst, px, py-t, rgb(s.Mark))
			}
		}
	}
}

// offset is one pixel of a kernel, relative to its centre.
type offset struct{ dx, dy int }

// shape is the pixels of a kernel and how far they reach from its centre (in x and y).
type shape struct {
	px    []offset
	reach int
}

// kernel returns the pixels of a disc of radius r (width < 0) or of a ring of that radius and
// width, centred on a pixel.
func kernel(r float64, width float64) shape {
	k := shape{reach: int(math.Ceil(r + max(0, width)))}
	for dy := -k.reach; dy <= k.reach; dy++ {
		for dx := -k.reach; dx <= k.reach; dx++ {
			d := math.Hypot(float64(dx), float64(dy))
			if width < 0 && d <= r || width >= 0 && math.Abs(d-r) <= width/2+0.25 {
				k.px = append(k.px, offset{dx, dy})
			}
		}
	}
	return k
}

// floor is math.Floor for the values a frame meets (well inside the int range), converted.
func floor(f float64) int {
	i := int(f)
	if float64(i) > f {
		i--
	}
	return i
}

// stamp sets the kernel's pixels around (x, y) (image coordinates) to c, clipped to dst.
func stamp(dst *image.RGBA, x, y int, k shape, c [4]byte) {
	b, n := dst.Rect, k.reach
	if x-n >= b.Min.X && x+n < b.Max.X && y-n >= b.Min.Y && y+n < b.Max.Y {
		base := (y-b.Min.Y)*dst.Stride + (x-b.Min.X)*4
		v := binary.LittleEndian.Uint32(c[:])
		for _, o := range k.px {
			binary.LittleEndian.PutUint32(dst.Pix[base+o.dy*dst.Stride+o.dx*4:], v)
		}
		return
	}
	for _, o := range k.px {
		set(dst, x+o.dx, y+o.dy, c)
	}
}

// set sets one pixel (image coordinates) when it is inside dst.
func set(dst *image.RGBA, x, y int, c [4]byte) {
	if !(image.Point{x, y}.In(dst.Rect)) {
		return
	}
	p := dst.Pix[dst.PixOffset(x, y):]
	p[0], p[1], p[2], p[3] = c[0], c[1], c[2], c[3]
}

// square draws the outline of the rectangle [x0, x1]×[y0, y1].
func square(dst *image.RGBA, x0, y0, x1, y1 int, c [4]byte) {
	for x := x0; x <= x1; x++ {
		set(dst, x, y0, c)
		set(dst, x, y1, c)
	}
	for y := y0; y <= y1; y++ {
		set(dst, x0, y, c)
		set(dst, x1, y, c)
	}
}

// fill sets every pixel of dst to c.
func fill(dst *image.RGBA, c color.RGBA) {
	w := dst.Rect.Dx() * 4
	if w == 0 || dst.Rect.Dy() == 0 {
		return
	}
	row := dst.Pix[:w]
	for x := 0; x < w; x += 4 {
		row[x], row[x+1], row[x+2], row[x+3] = c.R, c.G, c.B, c.A
	}
	for y := 1; y < dst.Rect.Dy(); y++ {
		copy(dst.Pix[y*dst.Stride:y*dst.Stride+w], row)
	}
}
