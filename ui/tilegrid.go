package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Zoom limits: each sample pixel is zoom units wide, so a 28×28 tile is 28 to 336 units.
const (
	minZoom     = 1
	maxZoom     = 12
	defaultZoom = 3
	barWidth    = 12 // scroll bar, units
)

// gridInput is what the grid reports: what the person asked for with the mouse and the keys.
// The controller applies it to the view model and hands the grid the result (tileGrid.show);
// the grid never changes the view model itself.
type gridInput interface {
	// typedRune: a character typed on the grid (digits relabel).
	typedRune(r rune)
	// typedKey: a key typed on the grid (with Shift held: shift), offered before the grid's
	// navigation uses it (a review's → keeps a label); it reports whether it was taken.
	typedKey(k *fyne.KeyEvent, shift bool) bool
	// moveCursor: a navigation key asks for the cursor at position to (maybe out of range),
	// extending the selection with Shift.
	moveCursor(to int, extend bool)
	// click: a tap on position p, with Shift or Ctrl held.
	click(p int, shift, ctrl bool)
	// contextMenu: a secondary tap on position p, at the absolute position at.
	contextMenu(p int, at fyne.Position)
}

// gridFrame is what the grid draws: the samples (read at the view's generation, so a change the
// view has not applied yet is never mixed with its positions), the view model, and what the
// badges say. The controller hands it over with every change.
type gridFrame struct {
	ds    samples
	v     *view
	marks tileMarks
}

// tileGrid is the virtualized grid of samples: it draws only the rows in sight, as one mosaic
// image (see mosaic.go) plus a label badge per visible tile, so its cost depends on the window,
// not on the dataset (60,000 or 1,000,000 samples). It reports clicks, keys and typed characters
// (gridInput); it owns only what is its own to show: the scroll offset and the zoom (wheel,
// Ctrl+wheel, the scroll bar).
type tileGrid struct {
	widget.BaseWidget

	in     gridInput
	onZoom func(zoom int) // the zoom changed (Ctrl+wheel, the View menu)
	frame  gridFrame
	zoom   int
	offset float32 // scroll offset, units

	mods     fyne.KeyModifier // modifiers of the last mouse press
	focused  bool
	dragging bool // dragging the scroll bar
	m        mosaic
}

// newTileGrid builds the grid, which reports to in and tells onZoom of a zoom it changed
// itself (Ctrl+wheel).
func newTileGrid(in gridInput, onZoom func(zoom int)) *tileGrid {
	g := &tileGrid{in: in, onZoom: onZoom, zoom: defaultZoom}
	g.ExtendBaseWidget(g)
	return g
}

// show draws f from now on.
func (g *tileGrid) show(f gridFrame) {
	g.frame = f
	g.clampOffset()
	g.Refresh()
}

// scrollTop scrolls to the first row (the view was rebuilt).
func (g *tileGrid) scrollTop() { g.offset = 0 }

// Resize sizes the grid, keeps the scroll offset within the rows and redraws: the rows in
// sight depend on the size.
func (g *tileGrid) Resize(size fyne.Size) {
	g.BaseWidget.Resize(size)
	g.clampOffset()
	g.Refresh()
}

// geometry is the grid's layout for a size.
type geometry struct {
	unit         float32 // units per sample pixel
	cellW, cellH float32 // one tile with its frame, units
	cols, rows   int     // columns, and rows in all
	x0           float32 // left edge of the first column (the grid is centred)
	maxOffset    float32
}

func (g *tileGrid) geometry(size fyne.Size) geometry {
	if g.frame.ds == nil {
		return geometry{cols: 1}
	}
	cw, ch := cellSize(g.frame.ds)
	ge := geometry{unit: float32(g.zoom)}
	ge.cellW, ge.cellH = float32(cw)*ge.unit, float32(ch)*ge.unit
	ge.cols = max(1, int((size.Width-barWidth)/ge.cellW))
	ge.rows = (g.frame.v.Len() + ge.cols - 1) / ge.cols
	ge.x0 = float32(math.Floor(float64(size.Width-barWidth-float32(ge.cols)*ge.cellW) / 2))
	ge.x0 = max(0, ge.x0)
	ge.maxOffset = max(0, float32(ge.rows)*ge.cellH-size.Height)
	return ge
}

// clampOffset keeps the scroll offset within the rows.
func (g *tileGrid) clampOffset() {
	g.offset = max(0, min(g.geometry(g.Size()).maxOffset, g.offset))
}

// positionAt returns the view position under a point of the widget, or -1.
func (g *tileGrid) positionAt(p fyne.Position) int {
	if g.frame.ds == nil {
		return -1
	}
	ge := g.geometry(g.Size())
	if p.X < ge.x0 || p.X >= ge.x0+float32(ge.cols)*ge.cellW {
		return -1
	}
	col := int((p.X - ge.x0) / ge.cellW)
	row := int((p.Y + g.offset) / ge.cellH)
	pos := row*ge.cols + col
	if pos < 0 || pos >= g.frame.v.Len() {
		return -1
	}
	return pos
}

// reveal scrolls the least distance that shows position p's whole row, and redraws.
func (g *tileGrid) reveal(p int) {
	if g.frame.ds == nil || p < 0 {
		return
	}
	ge := g.geometry(g.Size())
	top := float32(p/ge.cols) * ge.cellH
	h := g.Size().Height
	switch {
	case top < g.offset:
		g.offset = top
	case top+ge.cellH > g.offset+h:
		g.offset = top + ge.cellH - h
	}
	g.offset = max(0, min(ge.maxOffset, g.offset))
	g.Refresh()
}

// setZoom changes the tile size keeping the place in sight: the cursor's tile when it is
// visible, otherwise the tile in the middle of the view, stays at the same height on screen
// (zooming after scrolling away from the cursor does not jump back to it).
func (g *tileGrid) setZoom(z int) {
	z = max(minZoom, min(maxZoom, z))
	if z == g.zoom || g.frame.ds == nil || g.frame.v.Len() == 0 {
		g.zoom = z
		return
	}
	size := g.Size()
	before := g.geometry(size)
	anchor := g.frame.v.cursor
	if anchor < 0 || !g.rowVisible(anchor/before.cols, before) {
		anchor = g.positionAt(fyne.NewPos(size.Width/2, size.Height/2))
		if anchor < 0 {
			anchor = min(g.frame.v.Len()-1, int(g.offset/before.cellH)*before.cols)
		}
	}
	screenY := float32(anchor/before.cols)*before.cellH - g.offset // the anchor row's top, on screen
	g.zoom = z
	after := g.geometry(size)
	g.offset = max(0, min(after.maxOffset, float32(anchor/after.cols)*after.cellH-screenY*after.cellH/before.cellH))
	g.Refresh()
	if g.onZoom != nil {
		g.onZoom(g.zoom)
	}
}

// rowVisible reports whether any of row's tiles is on screen.
func (g *tileGrid) rowVisible(row int, ge geometry) bool {
	top := float32(row) * ge.cellH
	return top+ge.cellH > g.offset && top < g.offset+g.Size().Height
}

// MouseDown remembers the modifiers for the tap that follows, and starts a scroll-bar drag.
func (g *tileGrid) MouseDown(ev *desktop.MouseEvent) {
	g.mods = ev.Modifier
	g.dragging = ev.Position.X >= g.Size().Width-barWidth
	if g.dragging {
		g.scrollBarTo(ev.Position.Y)
	}
}

// MouseUp ends a scroll-bar drag.
func (g *tileGrid) MouseUp(*desktop.MouseEvent) { g.dragging = false }

// Dragged moves the scroll bar when the drag started on it.
func (g *tileGrid) Dragged(ev *fyne.DragEvent) {
	if g.dragging {
		g.scrollBarTo(ev.Position.Y)
	}
}

// DragEnd ends a drag.
func (g *tileGrid) DragEnd() { g.dragging = false }

func (g *tileGrid) scrollBarTo(y float32) {
	ge := g.geometry(g.Size())
	g.offset = max(0, min(ge.maxOffset, y/g.Size().Height*float32(ge.rows)*ge.cellH-g.Size().Height/2))
	g.Refresh()
}

// Tapped reports a click on the tile under the pointer: alone, with Shift or with Ctrl.
func (g *tileGrid) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(g); c != nil {
		c.Focus(g)
	}
	mods := g.mods
	g.mods = 0
	if ev.Position.X >= g.Size().Width-barWidth {
		return
	}
	if p := g.positionAt(ev.Position); p >= 0 {
		g.in.click(p, mods&fyne.KeyModifierShift != 0, mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0)
	}
}

// TappedSecondary reports a secondary tap on a tile (a context menu).
func (g *tileGrid) TappedSecondary(ev *fyne.PointEvent) {
	if p := g.positionAt(ev.Position); p >= 0 {
		g.in.contextMenu(p, ev.AbsolutePosition)
	}
}

// Scrolled scrolls the grid, or zooms it when Ctrl (Cmd) is held.
func (g *tileGrid) Scrolled(ev *fyne.ScrollEvent) {
	if currentModifiers()&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 {
		switch {
		case ev.Scrolled.DY > 0:
			g.setZoom(g.zoom + 1)
		case ev.Scrolled.DY < 0:
			g.setZoom(g.zoom - 1)
		}
		return
	}
	ge := g.geometry(g.Size())
	g.offset = max(0, min(ge.maxOffset, g.offset-ev.Scrolled.DY))
	g.Refresh()
}

// currentModifiers returns the modifier keys held now (none where the driver cannot tell).
func currentModifiers() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// FocusGained and FocusLost track keyboard focus: a focused grid has a ring around it and a
// bright cursor; without the focus both are grey.
func (g *tileGrid) FocusGained() { g.setFocused(true) }

// FocusLost: see FocusGained.
func (g *tileGrid) FocusLost() { g.setFocused(false) }

func (g *tileGrid) setFocused(on bool) {
	g.focused = on
	g.Refresh()
}

// TypedRune reports a typed character (digits relabel).
func (g *tileGrid) TypedRune(r rune) { g.in.typedRune(r) }

// TypedKey offers the key to the controller, then turns the navigation keys (arrows, Home/End,
// Page Up/Down; with Shift they extend the selection) into the position they ask for, which
// depends on the grid's columns and height.
func (g *tileGrid) TypedKey(k *fyne.KeyEvent) {
	defer reportKey(k.Name)
	g.key(k, currentModifiers()&fyne.KeyModifierShift != 0)
}

// key is TypedKey with Shift held (shift) or not: a key typed now, or one that waited for a save
// and is applied after it (held.go).
func (g *tileGrid) key(k *fyne.KeyEvent, shift bool) {
	if g.in.typedKey(k, shift) || g.frame.ds == nil || g.frame.v.Len() == 0 {
		return
	}
	ge := g.geometry(g.Size())
	page := max(1, int(g.Size().Height/ge.cellH)) * ge.cols
	cur := max(g.frame.v.cursor, 0)
	var to int
	switch k.Name {
	case fyne.KeyLeft:
		to = cur - 1
	case fyne.KeyRight:
		to = cur + 1
	case fyne.KeyUp:
		to = cur - ge.cols
	case fyne.KeyDown:
		to = cur + ge.cols
	case fyne.KeyHome:
		to = 0
	case fyne.KeyEnd:
		to = g.frame.v.Len() - 1
	case fyne.KeyPageUp:
		to = cur - page
	case fyne.KeyPageDown:
		to = cur + page
	default:
		return
	}
	if g.frame.v.cursor < 0 {
		to = 0
	}
	if to < 0 && (k.Name == fyne.KeyLeft || k.Name == fyne.KeyUp) && cur == 0 {
		return
	}
	g.in.moveCursor(to, shift)
}

// CreateRenderer builds the grid's renderer.
func (g *tileGrid) CreateRenderer() fyne.WidgetRenderer {
	r := &tileGridRenderer{
		g:     g,
		bg:    canvas.NewRectangle(theme.Color(theme.ColorNameBackground)),
		img:   &canvas.Image{ScaleMode: canvas.ImageScalePixels, FillMode: canvas.ImageFillStretch},
		track: canvas.NewRectangle(color.Transparent),
		thumb: canvas.NewRectangle(theme.Color(theme.ColorNameScrollBar)),
		empty: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
		ring:  canvas.NewRectangle(color.Transparent),
		mark:  canvas.NewRectangle(color.Transparent),
	}
	r.ring.StrokeWidth = 2
	r.mark.StrokeWidth = 2
	r.thumb.CornerRadius = 3
	r.empty.Alignment = fyne.TextAlignCenter
	return r
}

// tileGridRenderer draws the grid's frame. Layout only sizes the background, the focus ring
// and the scroll bar's track; Refresh draws the visible rows (the mosaic) and places them, the
// badges, the cursor's mark and the scroll bar's thumb, reading nothing but the grid's frame
// and its scroll offset and zoom.
type tileGridRenderer struct {
	g            *tileGrid
	bg           *canvas.Rectangle
	img          *canvas.Image
	backs        []*canvas.Rectangle
	texts        []*canvas.Text
	nbadges      int
	track, thumb *canvas.Rectangle
	empty        *canvas.Text
	ring         *canvas.Rectangle // around the grid: the keys act on it
	mark         *canvas.Rectangle // around the cursor's tile, outside its frame
}

func (r *tileGridRenderer) Destroy() {}

func (r *tileGridRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 120) }

func (r *tileGridRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, 5+2*r.nbadges)
	objs = append(objs, r.bg, r.img)
	for k := range r.nbadges {
		objs = append(objs, r.backs[k], r.texts[k])
	}
	return append(objs, r.mark, r.track, r.thumb, r.empty, r.ring)
}

// Layout sizes what fills the grid's area.
func (r *tileGridRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.ring.Resize(size)
	r.track.Move(fyne.NewPos(size.Width-barWidth, 0))
	r.track.Resize(fyne.NewSize(barWidth, size.Height))
}

// Refresh draws the visible rows into the mosaic and places it, the badges and the scroll bar.
func (r *tileGridRenderer) Refresh() {
	g := r.g
	size := g.Size()
	r.Layout(size)
	r.bg.FillColor = theme.Color(theme.ColorNameBackground)
	r.thumb.FillColor = theme.Color(theme.ColorNameScrollBar)
	r.ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	r.mark.StrokeColor = theme.Color(theme.ColorNamePrimary)
	if !g.focused {
		r.mark.StrokeColor = theme.Color(theme.ColorNameDisabled)
	}
	r.ring.Hidden = !g.focused
	r.ring.Refresh()
	r.nbadges = 0
	r.mark.Hide()
	f := g.frame
	if f.ds == nil || f.v.Len() == 0 {
		r.img.Hide()
		r.thumb.Hide()
		r.empty.Text = "No samples to show"
		if f.ds == nil {
			r.empty.Text = "Opening…"
		}
		r.empty.Color = theme.Color(theme.ColorNamePlaceHolder)
		r.empty.Move(fyne.NewPos(size.Width/2, size.Height/2-10))
		r.empty.Show()
		r.empty.Refresh()
	} else {
		r.empty.Hide()
		r.draw(size)
	}
	canvas.Refresh(g)
}

// draw renders the rows in sight and places them with their badges, the cursor's mark and the
// scroll bar's thumb.
func (r *tileGridRenderer) draw(size fyne.Size) {
	g := r.g
	ge := g.geometry(size)
	offset := max(0, min(ge.maxOffset, g.offset))
	row0 := int(offset / ge.cellH)
	rows := min(ge.rows-row0, int(math.Ceil(float64((offset+size.Height)/ge.cellH)))-row0+1)
	rows = max(rows, 0)
	r.img.Image = g.m.draw(g.frame.ds, g.frame.v, ge.cols, row0, rows, r.palette())
	r.img.Move(fyne.NewPos(ge.x0, float32(row0)*ge.cellH-offset))
	r.img.Resize(fyne.NewSize(float32(ge.cols)*ge.cellW, float32(rows)*ge.cellH))
	r.img.Show()
	r.img.Refresh()
	if ge.cellW >= minBadgeCell {
		r.placeBadges(ge, offset, row0, rows)
	}
	r.placeMark(ge, offset)
	r.placeThumb(ge, offset, size)
}

// placeMark rings the cursor's tile over the gap around it, in the primary colour like the
// tile's own frame: a thick outline that shows against dark tiles and against the light or dark
// theme's background alike (a foreground-coloured frame vanished on black tiles in the light
// theme). Without the keyboard focus both are grey.
func (r *tileGridRenderer) placeMark(ge geometry, offset float32) {
	v := r.g.frame.v
	p := v.cursor
	if p < 0 || p >= v.Len() {
		return
	}
	row, col := p/ge.cols, p%ge.cols
	w := max(3, ge.unit)
	r.mark.StrokeWidth = w
	r.mark.Move(fyne.NewPos(ge.x0+float32(col)*ge.cellW-w/2, float32(row)*ge.cellH-offset-w/2))
	r.mark.Resize(fyne.NewSize(ge.cellW+w, ge.cellH+w))
	r.mark.Show()
	r.mark.Refresh()
}

// minBadgeCell is the narrowest tile, in units, that gets a badge: every tile of a 28×28 dataset
// (30 units at the smallest zoom), not the few units of a tiny sample's tile, where badges would
// cover each other.
const minBadgeCell = 20

// placeBadges puts a small, translucent label badge in the top-left corner of every visible
// tile, inside the top margin of the sample (MNIST's digits fill the middle 20×20 of 28×28, so a
// badge up to a seventh of the tile high stays off the ink). The badges' text comes from the
// frame's marks and the samples' states read at the view's generation.
func (r *tileGridRenderer) placeBadges(ge geometry, offset float32, row0, rows int) {
	f := r.g.frame
	h, _ := f.ds.Size()
	margin := ge.unit * float32(h) / 7 // units above the ink
	textSize := max(8, min(16, (margin+ge.unit)/1.35))
	first, last := row0*ge.cols, min(f.v.Len(), (row0+rows)*ge.cols)
	for p := first; p < last; p++ {
		i := f.v.at(p)
		st, _, ok := f.ds.SampleAt(f.v.gen, i)
		if !ok {
			continue // the view catches up with the dataset and redraws
		}
		b := f.marks.badge(i, st)
		if r.nbadges == len(r.texts) {
			r.texts = append(r.texts, canvas.NewText("", color.White))
			r.backs = append(r.backs, canvas.NewRectangle(badgeBack))
		}
		t, back := r.texts[r.nbadges], r.backs[r.nbadges]
		r.nbadges++
		t.Text, t.Color, t.TextSize = b.text, b.color, textSize
		t.TextStyle.Bold = true
		back.FillColor = badgeBack
		if b.back != nil {
			back.FillColor = b.back
		}
		row, col := p/ge.cols, p%ge.cols
		pos := fyne.NewPos(ge.x0+float32(col)*ge.cellW+ge.unit, float32(row)*ge.cellH-offset+ge.unit)
		ts := t.MinSize()
		back.Move(pos)
		back.Resize(fyne.NewSize(ts.Width+4, ts.Height))
		t.Move(pos.AddXY(2, 0))
		t.Resize(ts)
		t.Refresh()
		back.Refresh()
	}
}

// placeThumb sizes the scroll bar's thumb to the visible share of the rows.
func (r *tileGridRenderer) placeThumb(ge geometry, offset float32, size fyne.Size) {
	total := float32(ge.rows) * ge.cellH
	if total <= size.Height {
		r.thumb.Hide()
		return
	}
	h := max(24, size.Height*size.Height/total)
	y := (size.Height - h) * offset / ge.maxOffset
	r.thumb.Move(fyne.NewPos(size.Width-barWidth+3, y))
	r.thumb.Resize(fyne.NewSize(barWidth-6, h))
	r.thumb.Show()
	r.thumb.Refresh()
}

// palette returns the mosaic's colours for the current theme.
func (r *tileGridRenderer) palette() palette {
	rgba := func(c color.Color) color.RGBA {
		cr, cg, cb, _ := c.RGBA()
		return color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 255}
	}
	cursor := rgba(theme.Color(theme.ColorNamePrimary))
	if !r.g.focused {
		cursor = rgba(theme.Color(theme.ColorNameDisabled))
	}
	return palette{
		gap:      rgba(theme.Color(theme.ColorNameBackground)),
		frame:    rgba(theme.Color(theme.ColorNameBackground)),
		selected: rgba(theme.Color(theme.ColorNamePrimary)),
		cursor:   cursor,
		edited:   color.RGBA{240, 140, 30, 255},
		added:    color.RGBA{60, 180, 90, 255},
		deleted:  color.RGBA{170, 40, 40, 255},
	}
}
