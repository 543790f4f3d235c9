package widgets

import (
	"image"
	"image/color"
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/plot"
)

// MapFrame is what the map view draws: the points (their index, plot.Map), what the kept frame
// of the points shows (their colours, the edited points boxed in their own colour, the
// suspects ringed), and the marks drawn over it each time (the selection, the cursor). Version
// changes whenever Map, Points or Edited does: the kept frame is drawn again.
type MapFrame struct {
	Map    *plot.Map // nil: nothing to draw
	Points plot.Layer
	// Edited lists the edited points by palette index (the last list: points of no colour):
	// boxed in their colour, so that a cluster relabelled at once shows its new colour.
	Edited  [][]plot.Marked
	Version int
	Over    []plot.Marked
	Style   plot.Style
}

// MapView is the 2-D map of the samples as a widget: it draws the frame it is handed at its own
// pan and zoom, and reports what the person asks for in point numbers (plot.Map's indices): a
// click near a point (pick), a lasso (the points inside the free-hand polygon drawn with
// Shift+drag, or with a plain drag while the lasso tool is on; Ctrl adds them to the last), and
// the point under the pointer (its tile in a card beside it, from tile). It owns only its pan,
// zoom and the lasso being drawn. Drawing: the points are drawn once per pan, zoom or change of
// the frame into a kept image (plot.Map.Draw: O(points in view)); the marks of the cursor and
// the selection are drawn over a copy of it (O(pixels + marks)); a frame allocates nothing that
// grows with the points (plot's few small kernels; the images only on a resize).
type MapView struct {
	widget.BaseWidget

	f     MapFrame
	view  plot.View // in pixels of the frame
	fit   bool      // the view shows the whole map (until the person pans or zooms)
	scale float32   // frame pixels per unit, from the last frame drawn
	base  *image.RGBA
	img   *image.RGBA
	drawn struct {
		version int
		view    plot.View
		style   plot.Style
	}

	lassoTool bool      // a plain drag draws a lasso (the toolbar's toggle)
	lasso     []float32 // the lasso being drawn, frame pixels (x, y pairs)
	mods      fyne.KeyModifier
	down      fyne.Position
	drag      int           // dragNone, dragPan or dragLasso
	hovered   int           // the point under the pointer, -1 for none
	hoverAt   fyne.Position // where the pointer is
	r         *mapRenderer  // its renderer, which places the hover card

	MapInput
	dump string // a test hook: where writeView writes how each frame shows the map (SetDump)
}

// MapInput is what the map reports, and where its hover card's tiles come from.
type MapInput struct {
	OnPick  func(point int)
	OnLasso func(points []int, add bool)
	OnDone  func() // a click or a drag on the map is done: the grid takes the keys again
	// Tile returns what the hover card shows of a point: its pixels as an image and a caption.
	Tile func(point int) (image.Image, string, bool)
}

// What a drag does.
const (
	dragNone = iota
	dragPan
	dragLasso
)

// Hover and click reach (pixels of the frame): the nearest point within it is picked.
const pickReach = 6

// NewMapView builds the map, which reports to in.
func NewMapView(in MapInput) *MapView {
	v := &MapView{MapInput: in, fit: true, hovered: -1, scale: 1}
	v.ExtendBaseWidget(v)
	return v
}

// SetFrame draws f from now on.
func (v *MapView) SetFrame(f MapFrame) {
	if f.Map != v.f.Map && v.f.Map == nil {
		v.fit = true
	}
	v.f = f
	v.Refresh()
}

// FitAll shows the whole map again.
func (v *MapView) FitAll() {
	v.fit = true
	v.Refresh()
}

// SetLassoTool makes a plain drag draw a lasso (on) or pan (off).
func (v *MapView) SetLassoTool(on bool) { v.lassoTool = on }

// View is how the last frame shows the map (plot.View: its size in pixels, centre and scale).
func (v *MapView) View() plot.View { return v.view }

// PixelsPerUnit is the frame's pixels per unit of the widget, from the last frame drawn.
func (v *MapView) PixelsPerUnit() float32 { return v.scale }

// Frame is the frame the view draws.
func (v *MapView) Frame() MapFrame { return v.f }

// toPixels returns a position of the widget in pixels of the frame.
func (v *MapView) toPixels(p fyne.Position) (float64, float64) {
	return float64(p.X * v.scale), float64(p.Y * v.scale)
}

// PointAt returns the point nearest to position p within pickReach pixels, or -1.
func (v *MapView) PointAt(p fyne.Position) int {
	if v.f.Map == nil || v.view.Scale <= 0 {
		return -1
	}
	x, y := v.view.ToMap(v.toPixels(p))
	i, ok := v.f.Map.Nearest(x, y, float32(pickReach/v.view.Scale))
	if !ok {
		return -1
	}
	return i
}

// Tapped reports the point clicked, if any.
func (v *MapView) Tapped(ev *fyne.PointEvent) {
	if i := v.PointAt(ev.Position); i >= 0 && v.OnPick != nil {
		v.OnPick(i)
	}
	v.done()
}

func (v *MapView) done() {
	if v.OnDone != nil {
		v.OnDone()
	}
}

// MouseDown remembers where a drag starts and the modifiers that say what it does.
func (v *MapView) MouseDown(ev *desktop.MouseEvent) {
	v.mods, v.down, v.drag = ev.Modifier, ev.Position, dragNone
}

// MouseUp ends a press that did not drag.
func (v *MapView) MouseUp(*desktop.MouseEvent) {}

// Dragged pans the map, or draws the lasso: with Shift held when the drag began, or with the
// lasso tool on.
func (v *MapView) Dragged(ev *fyne.DragEvent) {
	if v.drag == dragNone {
		v.drag = dragPan
		if v.lassoTool || v.mods&fyne.KeyModifierShift != 0 {
			v.drag = dragLasso
			x, y := v.toPixels(v.down)
			v.lasso = append(v.lasso[:0], float32(x), float32(y))
		}
		v.setHover(-1)
	}
	if v.drag == dragPan {
		v.view = v.view.Pan(float64(ev.Dragged.DX*v.scale), float64(ev.Dragged.DY*v.scale))
		v.fit = false
		v.Refresh()
		return
	}
	x, y := v.toPixels(ev.Position)
	n := len(v.lasso)
	if n >= 2 && math.Hypot(x-float64(v.lasso[n-2]), y-float64(v.lasso[n-1])) < 2 {
		return
	}
	v.lasso = append(v.lasso, float32(x), float32(y))
	v.Refresh()
}

// DragEnd reports the points inside a lasso drawn.
func (v *MapView) DragEnd() {
	drag := v.drag
	v.drag = dragNone
	if drag == dragLasso {
		start := time.Now()
		points := v.lassoed()
		if v.dump != "" {
			v.logLasso(len(v.lasso)/2, len(points), time.Since(start))
		}
		v.lasso = v.lasso[:0]
		v.Refresh()
		if v.OnLasso != nil {
			v.OnLasso(points, v.mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0)
		}
	}
	v.done()
}

// lassoed returns the points inside the lasso drawn (plot.Map.Lasso), ascending.
func (v *MapView) lassoed() []int {
	if v.f.Map == nil || len(v.lasso) < 6 {
		return nil
	}
	poly := make([]float32, len(v.lasso))
	for k := 0; k < len(v.lasso); k += 2 {
		poly[k], poly[k+1] = v.view.ToMap(float64(v.lasso[k]), float64(v.lasso[k+1]))
	}
	return v.f.Map.Lasso(poly)
}

// Scrolled zooms about the pointer: a wheel notch up zooms in by a quarter.
func (v *MapView) Scrolled(ev *fyne.ScrollEvent) {
	if v.f.Map == nil || ev.Scrolled.DY == 0 {
		return
	}
	f := math.Pow(1.25, float64(ev.Scrolled.DY)/25)
	f = max(0.5, min(2, f))
	if s := v.view.Scale * f; s > 1e6 || s < 1e-6 {
		return
	}
	x, y := v.toPixels(ev.Position)
	v.view = v.view.Zoom(x, y, f)
	v.fit = false
	v.Refresh()
}

// MouseIn, MouseMoved and MouseOut show the tile of the point under the pointer.
func (v *MapView) MouseIn(ev *desktop.MouseEvent) { v.MouseMoved(ev) }

// MouseMoved: see MouseIn.
func (v *MapView) MouseMoved(ev *desktop.MouseEvent) {
	if v.drag != dragNone {
		return
	}
	v.hoverAt = ev.Position
	v.setHover(v.PointAt(ev.Position))
}

// MouseOut: see MouseIn.
func (v *MapView) MouseOut() { v.setHover(-1) }

func (v *MapView) setHover(i int) {
	if i == v.hovered {
		return
	}
	v.hovered = i
	if v.r != nil {
		v.r.placeCard()
	}
}

// CreateRenderer builds the map's renderer.
func (v *MapView) CreateRenderer() fyne.WidgetRenderer {
	r := &mapRenderer{v: v,
		card:    canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		tile:    &canvas.Image{ScaleMode: canvas.ImageScalePixels, FillMode: canvas.ImageFillStretch},
		caption: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
	}
	r.raster = canvas.NewRaster(v.frame)
	r.raster.ScaleMode = canvas.ImageScalePixels
	r.card.StrokeColor = theme.Color(theme.ColorNameShadow)
	r.card.StrokeWidth = 1
	r.caption.TextSize = theme.TextSize() * 0.9
	r.card.Hide()
	r.tile.Hide()
	r.caption.Hide()
	v.r = r
	return r
}

// frame is the raster's generator: the frame of w×h pixels. It runs on the UI thread when the
// map is painted.
func (v *MapView) frame(w, h int) image.Image {
	if v.dump != "" {
		defer v.logFrame(time.Now())
	}
	if w <= 0 || h <= 0 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	if v.img == nil || v.img.Rect.Dx() != w || v.img.Rect.Dy() != h {
		v.img = image.NewRGBA(image.Rect(0, 0, w, h))
		v.base = image.NewRGBA(image.Rect(0, 0, w, h))
		v.drawn.version = -1
	}
	if sw := v.Size().Width; sw > 0 {
		v.scale = float32(w) / sw
	}
	f := v.f
	if f.Map == nil {
		fillRGBA(v.img, f.Style.Background)
		return v.img
	}
	if v.fit {
		v.view = f.Map.Fit(w, h, 16)
	} else if v.view.W != w || v.view.H != h {
		// A resize keeps the centre and the scale.
		v.view.W, v.view.H = w, h
	}
	if v.drawn.version != f.Version || v.drawn.view != v.view || v.drawn.style != f.Style {
		v.drawPoints()
		v.drawn.version, v.drawn.view, v.drawn.style = f.Version, v.view, f.Style
	}
	copy(v.img.Pix, v.base.Pix)
	over := f.Points
	over.Marked = f.Over
	f.Map.DrawMarks(v.img, v.view, over, f.Style)
	polyline(v.img, v.lasso, f.Style.Mark)
	if v.dump != "" {
		if d := fyne.CurrentApp().Driver(); d != nil {
			pos := d.AbsolutePositionForObject(v)
			v.writeView(pos.X, pos.Y, v.view)
		}
	}
	return v.img
}

// drawPoints draws the kept frame: the points, the edited ones boxed in their colour, the
// suspects' rings.
func (v *MapView) drawPoints() {
	f := v.f
	f.Map.Draw(v.base, v.view, plot.Layer{Colour: f.Points.Colour, Palette: f.Points.Palette}, f.Style)
	for k, group := range f.Edited {
		s := f.Style
		s.Mark = s.Faint
		if k < len(f.Points.Palette) {
			s.Mark = f.Points.Palette[k]
		}
		f.Map.DrawMarks(v.base, v.view, plot.Layer{Marked: group}, s)
	}
	f.Map.DrawMarks(v.base, v.view, f.Points, f.Style)
}

// fillRGBA sets every pixel of img to c.
func fillRGBA(img *image.RGBA, c color.RGBA) {
	for k := 0; k < len(img.Pix); k += 4 {
		img.Pix[k], img.Pix[k+1], img.Pix[k+2], img.Pix[k+3] = c.R, c.G, c.B, 255
	}
}

// polyline draws the open path through pts (x, y pairs, pixels) in c, one pixel wide.
func polyline(img *image.RGBA, pts []float32, c color.RGBA) {
	for k := 0; k+3 < len(pts); k += 2 {
		x0, y0, x1, y1 := float64(pts[k]), float64(pts[k+1]), float64(pts[k+2]), float64(pts[k+3])
		steps := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
		for s := 0; s <= steps; s++ {
			t := float64(s) / float64(steps)
			x, y := int(x0+(x1-x0)*t), int(y0+(y1-y0)*t)
			if (image.Point{x, y}).In(img.Rect) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

// mapRenderer shows the frame (a raster drawn when painted) and the hover card. Layout only
// sizes; Refresh asks for a new frame and places the card.
type mapRenderer struct {
	v       *MapView
	raster  *canvas.Raster
	card    *canvas.Rectangle
	tile    *canvas.Image
	caption *canvas.Text
}

func (r *mapRenderer) Destroy() {}

func (r *mapRenderer) MinSize() fyne.Size { return fyne.NewSize(200, 200) }

func (r *mapRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.card, r.tile, r.caption}
}

// Layout sizes the frame to the widget.
func (r *mapRenderer) Layout(size fyne.Size) { r.raster.Resize(size) }

// Refresh asks for a new frame (drawn when painted) and places the hover card.
func (r *mapRenderer) Refresh() {
	r.Layout(r.v.Size())
	r.raster.Refresh()
	r.placeCard()
}

// placeCard shows the tile of the point under the pointer in a card beside it, or hides it.
func (r *mapRenderer) placeCard() {
	v := r.v
	var img image.Image
	var text string
	ok := false
	if v.hovered >= 0 && v.Tile != nil {
		img, text, ok = v.Tile(v.hovered)
	}
	if !ok {
		r.card.Hide()
		r.tile.Hide()
		r.caption.Hide()
		return
	}
	const side, pad = 84, 6
	r.caption.Text = text
	r.caption.Color = theme.Color(theme.ColorNameForeground)
	ts := r.caption.MinSize()
	cw, ch := max(side, ts.Width)+2*pad, side+ts.Height+3*pad
	size := v.Size()
	at := v.hoverAt.AddXY(16, 16)
	if at.X+cw > size.Width {
		at.X = v.hoverAt.X - 16 - cw
	}
	if at.Y+ch > size.Height {
		at.Y = v.hoverAt.Y - 16 - ch
	}
	at = fyne.NewPos(max(0, at.X), max(0, at.Y))
	r.card.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	r.card.Move(at)
	r.card.Resize(fyne.NewSize(cw, ch))
	r.tile.Image = img
	r.tile.Move(at.AddXY((cw-side)/2, pad))
	r.tile.Resize(fyne.NewSize(side, side))
	r.caption.Move(at.AddXY(pad, side+2*pad))
	appears := !r.card.Visible()
	r.card.Show()
	r.tile.Show()
	r.caption.Show()
	r.card.Refresh()
	r.tile.Refresh()
	r.caption.Refresh()
	if appears {
		// Objects hidden until now are not known to the canvas yet: their own refresh would be
		// lost. The map's refresh repaints them (the frame is made again from the kept points).
		canvas.Refresh(v)
	}
}
