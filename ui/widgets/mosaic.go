package widgets

import (
	"image"
	"image/color"
)

// TileSource is what the tile grid shows: Len positions in order, each a sample of Size
// (display orientation), the cursor's position, and for each position its pixels, how its
// frame is marked and its corner badge. The grid reads only the positions in sight, so its cost
// per frame depends on the window, not on the number of samples.
type TileSource interface {
	// Len is the number of positions.
	Len() int
	// Size is one sample's height and width in pixels, upright.
	Size() (height, width int)
	// Cursor is the cursor's position, -1 for none.
	Cursor() int
	// Tile returns position p's sample: its pixels upright, row-major height×width (written
	// into buf, which holds height·width bytes, or the source's own pixels, which the grid
	// only reads), and its marks; false when it cannot be read now (the source changed since
	// it was handed over: the tile is left blank until the next one).
	Tile(p int, buf []byte) (px []byte, m TileMark, ok bool)
	// Badge returns position p's corner badge; false for none.
	Badge(p int) (Badge, bool)
}

// TileMark is how a tile's frame is marked (the cursor's is marked by position).
type TileMark struct {
	Selected, Deleted, Edited, Added bool
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
	buf []byte // one sample upright, for a source that must copy it (EMNIST's transposed storage)
}

// cell returns the size of one cell in source pixels.
func cellSize(src TileSource) (w, h int) {
	dh, dw := src.Size()
	return dw + 2, dh + 2
}

// draw renders rows [row0, row0+rows) of a grid of cols columns showing src's positions, and
// returns the image (reusing the previous buffer when it is large enough).
func (m *mosaic) draw(src TileSource, cols, row0, rows int, pal palette) *image.RGBA {
	cw, ch := cellSize(src)
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
			if p >= src.Len() {
				return m.img
			}
			m.tile(src, p, c*cw, r*ch, pal)
		}
	}
	return m.img
}

// tile draws position p's sample with its frame at (x0, y0).
func (m *mosaic) tile(src TileSource, p, x0, y0 int, pal palette) {
	dh, dw := src.Size()
	if cap(m.buf) < dh*dw {
		m.buf = make([]byte, dh*dw)
	}
	px, st, ok := src.Tile(p, m.buf[:dh*dw])
	if !ok {
		// The source changed since it was handed over; the grid is handed the new one and
		// redraws. Until then the tile is left blank.
		fill(m.img, image.Rect(x0, y0, x0+dw+2, y0+dh+2), pal.gap)
		return
	}
	frame := pal.frame
	switch {
	case p == src.Cursor():
		frame = pal.cursor
	case st.Selected:
		frame = pal.selected
	case st.Deleted:
		frame = pal.deleted
	case st.Edited:
		frame = pal.edited
	case st.Added:
		frame = pal.added
	}
	fill(m.img, image.Rect(x0, y0, x0+dw+2, y0+dh+2), frame)
	for y := range dh {
		row := m.img.Pix[m.img.PixOffset(x0+1, y0+1+y):]
		for x := range dw {
			g := px[y*dw+x]
			o := 4 * x
			if st.Deleted {
				row[o], row[o+1], row[o+2] = DeletedTint(g)
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

// DeletedTint is the colour of a deleted sample's pixel of grey level g: dimmed and tinted red.
func DeletedTint(g uint8) (r, gr, b uint8) { return 70 + g/4, g / 5, g / 5 }
