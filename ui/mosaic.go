package ui

import (
	"image"
	"image/color"

	"idxlabel/sample"
	"idxlabel/store"
)

// samples is what the mosaic reads from a dataset (store.Dataset satisfies it). Reads go
// through SampleAt with the generation the view reflects, so a change the view has not applied
// yet (a save renumbering the samples on another goroutine) is never mixed with its positions.
type samples interface {
	SampleAt(gen uint64, i int) (store.State, []byte, bool)
	Size() (height, width int)
	Transposed() bool
}

// palette holds the mosaic's colours.
type palette struct {
	gap, frame, selected, cursor, edited, added, deleted color.RGBA
}

// mosaic draws a band of grid rows at one source pixel per sample pixel: each sample in a cell
// of (H+2)×(W+2) pixels, its pixels as grey levels (MNIST's white ink on black) inside a
// 1-pixel frame that marks the cursor, the selection, edited and appended samples; deleted
// samples are dimmed and tinted red. The GPU scales the band to the tile size with crisp pixels
// (canvas.ImageScalePixels), so drawing costs one pass over the visible samples' pixels.
type mosaic struct {
	img *image.RGBA
	buf []byte // one transposed sample in display order (EMNIST)
}

// cell returns the size of one cell in source pixels.
func cellSize(ds samples) (w, h int) {
	dh, dw := ds.Size()
	return dw + 2, dh + 2
}

// draw renders rows [row0, row0+rows) of a grid of cols columns showing v's positions, and
// returns the image (reusing the previous buffer when it is large enough).
func (m *mosaic) draw(ds samples, v *view, cols, row0, rows int, pal palette) *image.RGBA {
	cw, ch := cellSize(ds)
	w, h := cols*cw, rows*ch
	if m.img == nil || cap(m.img.Pix) < 4*w*h {
		m.img = image.NewRGBA(image.Rect(0, 0, w, h))
	} else {
		m.img = &image.RGBA{Pix: m.img.Pix[:4*w*h], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	}
	fill(m.img, m.img.Rect, pal.gap)
	for r := range rows {
		for c := range cols {
			p := (row0+r)*cols + c
			if p >= v.Len() {
				return m.img
			}
			m.tile(ds, v, p, c*cw, r*ch, pal)
		}
	}
	return m.img
}

// tile draws position p's sample with its frame at (x0, y0).
func (m *mosaic) tile(ds samples, v *view, p, x0, y0 int, pal palette) {
	i := v.at(p)
	st, px, ok := ds.SampleAt(v.gen, i)
	dh, dw := ds.Size()
	if !ok {
		// The dataset changed since the view was made; the view catches up on the UI thread
		// (controller.drain) and redraws. Until then the tile is left blank.
		fill(m.img, image.Rect(x0, y0, x0+dw+2, y0+dh+2), pal.gap)
		return
	}
	frame := pal.frame
	switch {
	case p == v.cursor:
		frame = pal.cursor
	case v.isSelected(i):
		frame = pal.selected
	case st.Deleted:
		frame = pal.deleted
	case st.Edited:
		frame = pal.edited
	case st.Added:
		frame = pal.added
	}
	fill(m.img, image.Rect(x0, y0, x0+dw+2, y0+dh+2), frame)
	px = sample.Upright(px, dh, dw, ds.Transposed(), m.buf)
	if ds.Transposed() {
		m.buf = px
	}
	for y := range dh {
		row := m.img.Pix[m.img.PixOffset(x0+1, y0+1+y):]
		for x := range dw {
			g := px[y*dw+x]
			o := 4 * x
			if st.Deleted {
				row[o], row[o+1], row[o+2] = deletedTint(g)
			} else {
				row[o], row[o+1], row[o+2] = g, g, g
			}
			row[o+3] = 255
		}
	}
}

// fill paints r with c.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	if r.Empty() {
		return
	}
	first := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):][:4*r.Dx()]
	for k := 0; k < len(first); k += 4 {
		first[k], first[k+1], first[k+2], first[k+3] = c.R, c.G, c.B, c.A
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(r.Min.X, y):], first)
	}
}

// deletedTint is the colour of a deleted sample's pixel of grey level g: dimmed and tinted red.
func deletedTint(g uint8) (r, gr, b uint8) { return 70 + g/4, g / 5, g / 5 }
