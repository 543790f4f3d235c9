package widgets

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// PixelView shows one sample large, each sample pixel a square, with a grid between pixels once
// they are 6 screen pixels or more; hovering reports the pixel under the mouse.
type PixelView struct {
	widget.BaseWidget
	px      []byte // h×w pixels in display order, nil: nothing
	h, w    int    // displayed size
	side    float32
	onHover func(row, col, value int, in bool)
	raster  *canvas.Raster
}

// NewPixelView builds the view, at least side units square, which tells onHover of the pixel
// under the pointer (its row, column and value; in false when it left the pixels).
func NewPixelView(side float32, onHover func(row, col, value int, in bool)) *PixelView {
	v := &PixelView{onHover: onHover, side: side}
	v.raster = canvas.NewRaster(v.draw)
	v.raster.ScaleMode = canvas.ImageScalePixels
	v.ExtendBaseWidget(v)
	return v
}

// Set shows px (h×w, upright: see sample.Upright); nil shows nothing.
func (v *PixelView) Set(px []byte, h, w int) {
	v.px, v.h, v.w = px, h, w
	v.raster.Refresh()
}

// value returns the displayed pixel (row, col).
func (v *PixelView) value(row, col int) byte { return v.px[row*v.w+col] }

// draw renders the sample at the raster's pixel size: nearest-neighbour squares, centred, with
// grid lines when the squares are large enough.
func (v *PixelView) draw(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if v.px == nil || v.h == 0 || v.w == 0 {
		return img
	}
	cell := min(w/v.w, h/v.h)
	if cell < 1 {
		return img
	}
	x0, y0 := (w-cell*v.w)/2, (h-cell*v.h)/2
	grid := cell >= 6
	line := color.RGBA{60, 60, 70, 255}
	for r := range v.h {
		for c := range v.w {
			g := v.value(r, c)
			col := color.RGBA{g, g, g, 255}
			for y := range cell {
				for x := range cell {
					if grid && (x == 0 || y == 0) {
						img.SetRGBA(x0+c*cell+x, y0+r*cell+y, line)
					} else {
						img.SetRGBA(x0+c*cell+x, y0+r*cell+y, col)
					}
				}
			}
		}
	}
	return img
}

// cellAt returns the displayed pixel under a point of the widget.
func (v *PixelView) cellAt(p fyne.Position) (row, col int, ok bool) {
	if v.px == nil {
		return 0, 0, false
	}
	size := v.Size()
	cell := min(size.Width/float32(v.w), size.Height/float32(v.h))
	x0, y0 := (size.Width-cell*float32(v.w))/2, (size.Height-cell*float32(v.h))/2
	col, row = int((p.X-x0)/cell), int((p.Y-y0)/cell)
	if p.X < x0 || p.Y < y0 || row >= v.h || col >= v.w {
		return 0, 0, false
	}
	return row, col, true
}

// MouseIn, MouseMoved and MouseOut report the pixel under the mouse.
func (v *PixelView) MouseIn(ev *desktop.MouseEvent) { v.MouseMoved(ev) }

// MouseMoved: see MouseIn.
func (v *PixelView) MouseMoved(ev *desktop.MouseEvent) {
	if v.onHover == nil {
		return
	}
	if r, c, ok := v.cellAt(ev.Position); ok {
		v.onHover(r, c, int(v.value(r, c)), true)
	} else {
		v.onHover(0, 0, 0, false)
	}
}

// MouseOut: see MouseIn.
func (v *PixelView) MouseOut() {
	if v.onHover != nil {
		v.onHover(0, 0, 0, false)
	}
}

// MinSize is the side it was built with, square.
func (v *PixelView) MinSize() fyne.Size { return fyne.NewSquareSize(v.side) }

// CreateRenderer draws the raster.
func (v *PixelView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.raster) }
