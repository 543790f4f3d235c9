package widgets

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/plot"
)

// ChartImage shows a confusion matrix's picture (plot.Confusion, drawn) at one unit per pixel,
// outlines the cell chosen, and reports the cell tapped.
type ChartImage struct {
	widget.BaseWidget
	c            *plot.Confusion
	img          *canvas.Image
	outline      *canvas.Rectangle
	size         fyne.Size
	chosen       bool
	label, class int
	onCell       func(label, class int)
}

// NewChartImage builds the chart's image, which reports the cell tapped (given label, predicted
// class) to onCell.
func NewChartImage(onCell func(label, class int)) *ChartImage {
	ci := &ChartImage{onCell: onCell, img: &canvas.Image{ScaleMode: canvas.ImageScalePixels, FillMode: canvas.ImageFillStretch},
		outline: canvas.NewRectangle(color.Transparent)}
	ci.outline.StrokeWidth = 3
	ci.ExtendBaseWidget(ci)
	return ci
}

// SetChart shows chart c, drawn as img; it reports whether the chart's size changed (its place
// must be laid out again).
func (ci *ChartImage) SetChart(c *plot.Confusion, img image.Image) (resized bool) {
	ci.c, ci.img.Image = c, img
	w, h := c.Size()
	size := fyne.NewSize(float32(w), float32(h))
	resized = size != ci.size
	ci.size = size
	ci.Refresh()
	return resized
}

// Width is the chart's width in units (0 before a chart is set).
func (ci *ChartImage) Width() float32 { return ci.size.Width }

// ShowChosen outlines the cell (label, class) when on.
func (ci *ChartImage) ShowChosen(on bool, label, class int) {
	ci.chosen, ci.label, ci.class = on, label, class
	ci.Refresh()
}

// Tapped reports the cell tapped, if any.
func (ci *ChartImage) Tapped(ev *fyne.PointEvent) {
	if ci.c == nil || ci.onCell == nil {
		return
	}
	if label, class, ok := ci.c.CellAt(int(ev.Position.X), int(ev.Position.Y)); ok {
		ci.onCell(label, class)
	}
}

// CreateRenderer places the picture and the outline.
func (ci *ChartImage) CreateRenderer() fyne.WidgetRenderer { return &chartRenderer{ci: ci} }

// chartRenderer places the picture at its size and the outline of the chosen cell.
type chartRenderer struct{ ci *ChartImage }

func (r *chartRenderer) Destroy()           {}
func (r *chartRenderer) MinSize() fyne.Size { return r.ci.size }
func (r *chartRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.ci.img, r.ci.outline}
}

// Layout places the picture at its size, top left.
func (r *chartRenderer) Layout(fyne.Size) { r.ci.img.Resize(r.ci.size) }

// Refresh shows the picture and outlines the chosen cell.
func (r *chartRenderer) Refresh() {
	ci := r.ci
	r.Layout(ci.Size())
	ci.img.Refresh()
	ci.outline.Hide()
	if ci.c != nil && ci.chosen {
		if rc, ok := ci.c.CellRect(ci.label, ci.class); ok {
			ci.outline.StrokeColor = theme.Color(theme.ColorNamePrimary)
			ci.outline.Move(fyne.NewPos(float32(rc.Min.X)-1, float32(rc.Min.Y)-1))
			ci.outline.Resize(fyne.NewSize(float32(rc.Dx())+2, float32(rc.Dy())+2))
			ci.outline.Show()
		}
	}
	ci.outline.Refresh()
}
