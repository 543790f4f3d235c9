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

// badge is the text drawn in a tile's corner: its label, or "3→7" for an edited sample.
type badge struct {
	text  string
	color color.Color
}

// tileGrid is the virtualized grid of samples: it draws only the rows in sight, as one mosaic
// image (see mosaic.go) plus a label badge per visible tile, so its cost depends on the window,
// not on the dataset (60,000 or 1,000,000 samples). It handles selection by mouse (click,
// Shift-click, Ctrl-click) and keyboard (arrows, Shift+arrows, Home/End, Page Up/Down), wheel
// scrolling and Ctrl+wheel zoom; typed runes and other keys go to the window's handlers.
type tileGrid struct {
	widget.BaseWidget

	ds     samples
	v      *view
	zoom   int
	offset float32 // scroll offset, units

	badgeOf   func(i int) badge           // label badge of sample i; nil: none
	onChange  func()                      // cursor or selection changed
	onRune    func(r rune)                // a typed rune (digit keys relabel)
	onKey     func(k *fyne.KeyEvent) bool // keys the grid does not use itself; true when handled
	keyFirst  func(k *fyne.KeyEvent) bool // sees every key before the grid; true when it took it
	onZoom    func(zoom int)              // zoom changed (Ctrl+wheel)
	onContext func(at fyne.Position)      // secondary tap on a tile (absolute position)

	mods     fyne.KeyModifier // modifiers of the last mouse press
	focused  bool
	dragging bool // dragging the scroll bar
	m        mosaic
	cols     int // columns at the last layout
}

func newTileGrid() *tileGrid {
	g := &tileGrid{zoom: defaultZoom}
	g.ExtendBaseWidget(g)
	return g
}

// setData shows v's positions of ds, scrolled to the top.
func (g *tileGrid) setData(ds samples, v *view) {
	g.ds, g.v, g.offset = ds, v, 0
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
	if g.ds == nil {
		return geometry{cols: 1}
	}
	cw, ch := cellSize(g.ds)
	ge := geometry{unit: float32(g.zoom)}
	ge.cellW, ge.cellH = float32(cw)*ge.unit, float32(ch)*ge.unit
	ge.cols = max(1, int((size.Width-barWidth)/ge.cellW))
	ge.rows = (g.v.Len() + ge.cols - 1) / ge.cols
	ge.x0 = float32(math.Floor(float64(size.Width-barWidth-float32(ge.cols)*ge.cellW) / 2))
	ge.x0 = max(0, ge.x0)
	ge.maxOffset = max(0, float32(ge.rows)*ge.cellH-size.Height)
	return ge
}

// positionAt returns the view position under a point of the widget, or -1.
func (g *tileGrid) positionAt(p fyne.Position) int {
	if g.ds == nil {
		return -1
	}
	ge := g.geometry(g.Size())
	if p.X < ge.x0 || p.X >= ge.x0+float32(ge.cols)*ge.cellW {
		return -1
	}
	col := int((p.X - ge.x0) / ge.cellW)
	row := int((p.Y + g.offset) / ge.cellH)
	pos := row*ge.cols + col
	if pos < 0 || pos >= g.v.Len() {
		return -1
	}
	return pos
}

// scrollTo scrolls the least distance that shows position p's whole row.
func (g *tileGrid) scrollTo(p int) {
	if g.ds == nil || p < 0 {
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
}

// setZoom changes the tile size keeping the place in sight: the cursor's tile when it is
// visible, otherwise the tile in the middle of the view, stays at the same height on screen
// (zooming after scrolling away from the cursor does not jump back to it).
func (g *tileGrid) setZoom(z int) {
	z = max(minZoom, min(maxZoom, z))
	if z == g.zoom || g.ds == nil || g.v.Len() == 0 {
		g.zoom = z
		return
	}
	size := g.Size()
	before := g.geometry(size)
	anchor := g.v.cursor
	if anchor < 0 || !g.rowVisible(anchor/before.cols, before) {
		anchor = g.positionAt(fyne.NewPos(size.Width/2, size.Height/2))
		if anchor < 0 {
			anchor = min(g.v.Len()-1, int(g.offset/before.cellH)*before.cols)
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

// changed tells the window the cursor or selection moved and redraws.
func (g *tileGrid) changed() {
	g.Refresh()
	if g.onChange != nil {
		g.onChange()
	}
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

// Tapped selects the tile under the pointer: alone, as a Shift range, or toggled with Ctrl.
func (g *tileGrid) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(g); c != nil {
		c.Focus(g)
	}
	mods := g.mods
	g.mods = 0
	if ev.Position.X >= g.Size().Width-barWidth {
		return
	}
	p := g.positionAt(ev.Position)
	if p < 0 {
		return
	}
	g.v.click(p, mods&fyne.KeyModifierShift != 0, mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0)
	g.changed()
}

// TappedSecondary selects the tile (unless it is already selected) and asks for a context menu.
func (g *tileGrid) TappedSecondary(ev *fyne.PointEvent) {
	p := g.positionAt(ev.Position)
	if p < 0 {
		return
	}
	if !g.v.isSelected(g.v.at(p)) {
		g.v.click(p, false, false)
		g.changed()
	}
	if g.onContext != nil {
		g.onContext(ev.AbsolutePosition)
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

// TypedRune hands typed characters (digits relabel) to the window.
func (g *tileGrid) TypedRune(r rune) {
	if g.onRune != nil {
		g.onRune(r)
	}
}

// TypedKey moves the cursor (arrows, Home/End, Page Up/Down; with Shift they extend the
// selection) and hands other keys to the window.
func (g *tileGrid) TypedKey(k *fyne.KeyEvent) {
	defer reportKey(k.Name)
	if g.keyFirst != nil && g.keyFirst(k) {
		return
	}
	if g.ds == nil || g.v.Len() == 0 {
		if g.onKey != nil {
			g.onKey(k)
		}
		return
	}
	ge := g.geometry(g.Size())
	page := max(1, int(g.Size().Height/ge.cellH)) * ge.cols
	cur := max(g.v.cursor, 0)
	to := -1
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
		to = g.v.Len() - 1
	case fyne.KeyPageUp:
		to = cur - page
	case fyne.KeyPageDown:
		to = cur + page
	default:
		if g.onKey != nil {
			g.onKey(k)
		}
		return
	}
	if g.v.cursor < 0 {
		to = 0
	}
	if to < 0 && (k.Name == fyne.KeyLeft || k.Name == fyne.KeyUp) && cur == 0 {
		return
	}
	g.v.move(to, currentModifiers()&fyne.KeyModifierShift != 0)
	g.scrollTo(g.v.cursor)
	g.changed()
}

// moveCursor puts the cursor at position p alone (the review flow's "next") and shows it.
func (g *tileGrid) moveCursor(p int) {
	g.v.move(p, false)
	g.scrollTo(g.v.cursor)
	g.changed()
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

func (r *tileGridRenderer) Refresh() {
	r.bg.FillColor = theme.Color(theme.ColorNameBackground)
	r.thumb.FillColor = theme.Color(theme.ColorNameScrollBar)
	r.ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	r.mark.StrokeColor = theme.Color(theme.ColorNamePrimary)
	if !r.g.focused {
		r.mark.StrokeColor = theme.Color(theme.ColorNameDisabled)
	}
	r.Layout(r.g.Size())
	canvas.Refresh(r.g)
}

// Layout draws the visible rows into the mosaic and places it, the badges and the scroll bar.
func (r *tileGridRenderer) Layout(size fyne.Size) {
	g := r.g
	r.bg.Resize(size)
	r.ring.Resize(size)
	r.ring.Hidden = !g.focused
	r.ring.Refresh()
	r.nbadges = 0
	r.mark.Hide()
	if g.ds == nil || g.v.Len() == 0 {
		r.img.Hide()
		r.thumb.Hide()
		r.empty.Text = "No samples to show"
		if g.ds == nil {
			r.empty.Text = "Opening…"
		}
		r.empty.Move(fyne.NewPos(size.Width/2, size.Height/2-10))
		r.empty.Show()
		r.empty.Refresh()
		return
	}
	r.empty.Hide()
	ge := g.geometry(size)
	g.cols = ge.cols
	g.offset = max(0, min(ge.maxOffset, g.offset))
	row0 := int(g.offset / ge.cellH)
	rows := min(ge.rows-row0, int(math.Ceil(float64((g.offset+size.Height)/ge.cellH)))-row0+1)
	rows = max(rows, 0)
	img := g.m.draw(g.ds, g.v, ge.cols, row0, rows, r.palette())
	r.img.Image = img
	r.img.Move(fyne.NewPos(ge.x0, float32(row0)*ge.cellH-g.offset))
	r.img.Resize(fyne.NewSize(float32(ge.cols)*ge.cellW, float32(rows)*ge.cellH))
	r.img.Show()
	r.img.Refresh()
	if g.zoom >= 2 && g.badgeOf != nil {
		r.layoutBadges(ge, row0, rows)
	}
	r.layoutMark(ge)
	r.layoutBar(ge, size)
}

// layoutMark rings the cursor's tile over the gap around it, in the primary colour like the
// tile's own frame: a thick outline that shows against dark tiles and against the light or dark
// theme's background alike (a foreground-coloured frame vanished on black tiles in the light
// theme). Without the keyboard focus both are grey.
func (r *tileGridRenderer) layoutMark(ge geometry) {
	g := r.g
	p := g.v.cursor
	if p < 0 || p >= g.v.Len() {
		return
	}
	row, col := p/ge.cols, p%ge.cols
	w := max(3, ge.unit)
	r.mark.StrokeWidth = w
	r.mark.Move(fyne.NewPos(ge.x0+float32(col)*ge.cellW-w/2, float32(row)*ge.cellH-g.offset-w/2))
	r.mark.Resize(fyne.NewSize(ge.cellW+w, ge.cellH+w))
	r.mark.Show()
	r.mark.Refresh()
}

// layoutBadges puts a small, translucent label badge in the top-left corner of every visible
// tile, inside the top margin of the sample (MNIST's digits fill the middle 20×20 of 28×28, so a
// badge up to a seventh of the tile high stays off the ink).
func (r *tileGridRenderer) layoutBadges(ge geometry, row0, rows int) {
	g := r.g
	h, _ := g.ds.Size()
	margin := ge.unit * float32(h) / 7 // units above the ink
	textSize := max(8, min(16, (margin+ge.unit)/1.35))
	first, last := row0*ge.cols, min(g.v.Len(), (row0+rows)*ge.cols)
	for p := first; p < last; p++ {
		b := g.badgeOf(g.v.at(p))
		if b.text == "" {
			continue
		}
		if r.nbadges == len(r.texts) {
			r.texts = append(r.texts, canvas.NewText("", color.White))
			r.backs = append(r.backs, canvas.NewRectangle(badgeBack))
		}
		t, back := r.texts[r.nbadges], r.backs[r.nbadges]
		r.nbadges++
		t.Text, t.Color, t.TextSize = b.text, b.color, textSize
		t.TextStyle.Bold = true
		row, col := p/ge.cols, p%ge.cols
		pos := fyne.NewPos(ge.x0+float32(col)*ge.cellW+ge.unit, float32(row)*ge.cellH-g.offset+ge.unit)
		ts := t.MinSize()
		back.Move(pos)
		back.Resize(fyne.NewSize(ts.Width+4, ts.Height))
		t.Move(pos.AddXY(2, 0))
		t.Resize(ts)
		t.Refresh()
		back.Refresh()
	}
}

// badgeBack is behind a badge's text: translucent, so the tile shows through.
var badgeBack = color.NRGBA{0, 0, 0, 120}

// layoutBar sizes the scroll bar's thumb to the visible share of the rows.
func (r *tileGridRenderer) layoutBar(ge geometry, size fyne.Size) {
	total := float32(ge.rows) * ge.cellH
	r.track.Move(fyne.NewPos(size.Width-barWidth, 0))
	r.track.Resize(fyne.NewSize(barWidth, size.Height))
	if total <= size.Height {
		r.thumb.Hide()
		return
	}
	h := max(24, size.Height*size.Height/total)
	y := (size.Height - h) * r.g.offset / ge.maxOffset
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
