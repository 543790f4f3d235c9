package widgets

import (
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Zoom limits: each sample pixel is zoom units wide, so a 28×28 tile is 28 to 336 units.
const (
	MinZoom     = 1
	MaxZoom     = 12
	DefaultZoom = 3
	barWidth    = 12 // scroll bar, units
)

// GridInput is what the grid reports: what the person asked for with the mouse and the keys.
// Its owner applies it and hands the grid the result (TileGrid.SetSource); the grid changes nothing
// it shows itself but its scroll offset and zoom.
type GridInput interface {
	// TypedRune: a character typed on the grid (digits relabel).
	TypedRune(r rune)
	// TypedKey: a key typed on the grid (with Shift held: shift), offered before the grid's
	// navigation uses it (a review's → keeps a label); it reports whether it was taken.
	TypedKey(k *fyne.KeyEvent, shift bool) bool
	// MoveCursor: a navigation key asks for the cursor at position to (maybe out of range),
	// extending the selection with Shift.
	MoveCursor(to int, extend bool)
	// Click: a tap on position p, with Shift or Ctrl held.
	Click(p int, shift, ctrl bool)
	// ContextMenu: a secondary tap on position p, at the absolute position at.
	ContextMenu(p int, at fyne.Position)
	// KeyHandled: the grid has handled key name, whatever it did with it (timing builds
	// print when).
	KeyHandled(name fyne.KeyName)
}

// TileGrid is the virtualized grid of samples: it draws only the rows in sight, as one mosaic
// image (see mosaic.go) plus a label badge per visible tile, so its cost depends on the window,
// not on the dataset (60,000 or 1,000,000 samples). It reads what it shows from a TileSource
// and reports clicks, keys and typed characters (GridInput); it owns only what is its own to
// show: the scroll offset and the zoom (wheel, Ctrl+wheel, the scroll bar).
type TileGrid struct {
	widget.BaseWidget

	in     GridInput
	onZoom func(zoom int) // the zoom changed (Ctrl+wheel, the View menu)
	src    TileSource     // nil: nothing to show yet ("Opening…")
	zoom   int
	offset float32 // scroll offset, units

	mods     fyne.KeyModifier // modifiers of the last mouse press
	focused  bool
	dragging bool // dragging the scroll bar
	m        mosaic
}

// NewTileGrid builds the grid, which reports to in and tells onZoom of a zoom it changed
// (Ctrl+wheel, SetZoom; nil: nobody).
func NewTileGrid(in GridInput, onZoom func(zoom int)) *TileGrid {
	g := &TileGrid{in: in, onZoom: onZoom, zoom: DefaultZoom}
	g.ExtendBaseWidget(g)
	return g
}

// SetSource draws src from now on (nil: nothing yet).
func (g *TileGrid) SetSource(src TileSource) {
	g.src = src
	g.clampOffset()
	g.Refresh()
}

// ScrollTop scrolls to the first row (what it shows was rebuilt).
func (g *TileGrid) ScrollTop() { g.offset = 0 }

// Zoom is the tile size: units per sample pixel, MinZoom to MaxZoom.
func (g *TileGrid) Zoom() int { return g.zoom }

// Offset is the scroll offset, units from the top of the first row.
func (g *TileGrid) Offset() float32 { return g.offset }

// Resize sizes the grid, keeps the scroll offset within the rows and redraws: the rows in
// sight depend on the size.
func (g *TileGrid) Resize(size fyne.Size) {
	g.BaseWidget.Resize(size)
	g.clampOffset()
	g.Refresh()
}

// Geometry is the grid's layout for a size, in units.
type Geometry struct {
	Unit         float32 // units per sample pixel
	CellW, CellH float32 // one tile with its frame
	Cols, Rows   int     // columns, and rows in all
	X0           float32 // left edge of the first column (the grid is centred)
	MaxOffset    float32 // the largest scroll offset
}

// Geometry returns the layout at the grid's size.
func (g *TileGrid) Geometry() Geometry { return g.geometry(g.Size()) }

func (g *TileGrid) geometry(size fyne.Size) Geometry {
	if g.src == nil {
		return Geometry{Cols: 1}
	}
	cw, ch := cellSize(g.src)
	ge := Geometry{Unit: float32(g.zoom)}
	ge.CellW, ge.CellH = float32(cw)*ge.Unit, float32(ch)*ge.Unit
	ge.Cols = max(1, int((size.Width-barWidth)/ge.CellW))
	ge.Rows = (g.src.Len() + ge.Cols - 1) / ge.Cols
	ge.X0 = float32(math.Floor(float64(size.Width-barWidth-float32(ge.Cols)*ge.CellW) / 2))
	ge.X0 = max(0, ge.X0)
	ge.MaxOffset = max(0, float32(ge.Rows)*ge.CellH-size.Height)
	return ge
}

// clampOffset keeps the scroll offset within the rows.
func (g *TileGrid) clampOffset() {
	g.offset = max(0, min(g.geometry(g.Size()).MaxOffset, g.offset))
}

// PositionAt returns the position under a point of the widget, or -1.
func (g *TileGrid) PositionAt(p fyne.Position) int {
	if g.src == nil {
		return -1
	}
	ge := g.geometry(g.Size())
	if p.X < ge.X0 || p.X >= ge.X0+float32(ge.Cols)*ge.CellW {
		return -1
	}
	col := int((p.X - ge.X0) / ge.CellW)
	row := int((p.Y + g.offset) / ge.CellH)
	pos := row*ge.Cols + col
	if pos < 0 || pos >= g.src.Len() {
		return -1
	}
	return pos
}

// Reveal scrolls the least distance that shows position p's whole row, and redraws.
func (g *TileGrid) Reveal(p int) {
	if g.src == nil || p < 0 {
		return
	}
	ge := g.geometry(g.Size())
	top := float32(p/ge.Cols) * ge.CellH
	h := g.Size().Height
	switch {
	case top < g.offset:
		g.offset = top
	case top+ge.CellH > g.offset+h:
		g.offset = top + ge.CellH - h
	}
	g.offset = max(0, min(ge.MaxOffset, g.offset))
	g.Refresh()
}

// ZoomBy zooms steps sizes in (out when negative): the menu's Zoom In and Zoom Out, Ctrl+wheel.
func (g *TileGrid) ZoomBy(steps int) { g.SetZoom(g.zoom + steps) }

// SetZoom changes the tile size (clamped to MinZoom–MaxZoom) keeping the place in sight: the cursor's tile when it is
// visible, otherwise the tile in the middle of the view, stays at the same height on screen
// (zooming after scrolling away from the cursor does not jump back to it).
func (g *TileGrid) SetZoom(z int) {
	z = max(MinZoom, min(MaxZoom, z))
	if z == g.zoom || g.src == nil || g.src.Len() == 0 {
		g.zoom = z
		return
	}
	size := g.Size()
	before := g.geometry(size)
	anchor := g.src.Cursor()
	if anchor < 0 || !g.rowVisible(anchor/before.Cols, before) {
		anchor = g.PositionAt(fyne.NewPos(size.Width/2, size.Height/2))
		if anchor < 0 {
			anchor = min(g.src.Len()-1, int(g.offset/before.CellH)*before.Cols)
		}
	}
	screenY := float32(anchor/before.Cols)*before.CellH - g.offset // the anchor row's top, on screen
	g.zoom = z
	after := g.geometry(size)
	g.offset = max(0, min(after.MaxOffset, float32(anchor/after.Cols)*after.CellH-screenY*after.CellH/before.CellH))
	g.Refresh()
	if g.onZoom != nil {
		g.onZoom(g.zoom)
	}
}

// rowVisible reports whether any of row's tiles is on screen.
func (g *TileGrid) rowVisible(row int, ge Geometry) bool {
	top := float32(row) * ge.CellH
	return top+ge.CellH > g.offset && top < g.offset+g.Size().Height
}

// MouseDown remembers the modifiers for the tap that follows, and starts a scroll-bar drag.
func (g *TileGrid) MouseDown(ev *desktop.MouseEvent) {
	g.mods = ev.Modifier
	g.dragging = ev.Position.X >= g.Size().Width-barWidth
	if g.dragging {
		g.scrollBarTo(ev.Position.Y)
	}
}

// MouseUp ends a scroll-bar drag.
func (g *TileGrid) MouseUp(*desktop.MouseEvent) { g.dragging = false }

// Dragged moves the scroll bar when the drag started on it.
func (g *TileGrid) Dragged(ev *fyne.DragEvent) {
	if g.dragging {
		g.scrollBarTo(ev.Position.Y)
	}
}

// DragEnd ends a drag.
func (g *TileGrid) DragEnd() { g.dragging = false }

func (g *TileGrid) scrollBarTo(y float32) {
	ge := g.geometry(g.Size())
	g.offset = max(0, min(ge.MaxOffset, y/g.Size().Height*float32(ge.Rows)*ge.CellH-g.Size().Height/2))
	g.Refresh()
}

// Tapped reports a click on the tile under the pointer: alone, with Shift or with Ctrl.
func (g *TileGrid) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(g); c != nil {
		c.Focus(g)
	}
	mods := g.mods
	g.mods = 0
	if ev.Position.X >= g.Size().Width-barWidth {
		return
	}
	if p := g.PositionAt(ev.Position); p >= 0 {
		g.in.Click(p, mods&fyne.KeyModifierShift != 0, mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0)
	}
}

// TappedSecondary reports a secondary tap on a tile (a context menu).
func (g *TileGrid) TappedSecondary(ev *fyne.PointEvent) {
	if p := g.PositionAt(ev.Position); p >= 0 {
		g.in.ContextMenu(p, ev.AbsolutePosition)
	}
}

// Scrolled scrolls the grid, or zooms it when Ctrl (Cmd) is held.
func (g *TileGrid) Scrolled(ev *fyne.ScrollEvent) {
	if currentModifiers()&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 {
		switch {
		case ev.Scrolled.DY > 0:
			g.ZoomBy(1)
		case ev.Scrolled.DY < 0:
			g.ZoomBy(-1)
		}
		return
	}
	ge := g.geometry(g.Size())
	g.offset = max(0, min(ge.MaxOffset, g.offset-ev.Scrolled.DY))
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
func (g *TileGrid) FocusGained() { g.setFocused(true) }

// FocusLost: see FocusGained.
func (g *TileGrid) FocusLost() { g.setFocused(false) }

func (g *TileGrid) setFocused(on bool) {
	g.focused = on
	g.Refresh()
}

// TypedRune reports a typed character (digits relabel).
func (g *TileGrid) TypedRune(r rune) { g.in.TypedRune(r) }

// TypedKey offers the key to the controller, then turns the navigation keys (arrows, Home/End,
// Page Up/Down; with Shift they extend the selection) into the position they ask for, which
// depends on the grid's columns and height.
func (g *TileGrid) TypedKey(k *fyne.KeyEvent) {
	defer g.in.KeyHandled(k.Name)
	g.Key(k, currentModifiers()&fyne.KeyModifierShift != 0)
}

// Key is TypedKey with Shift held (shift) or not: a key typed now, or one that waited (a key
// typed during a save, applied after it).
func (g *TileGrid) Key(k *fyne.KeyEvent, shift bool) {
	if g.in.TypedKey(k, shift) || g.src == nil || g.src.Len() == 0 {
		return
	}
	ge := g.geometry(g.Size())
	page := max(1, int(g.Size().Height/ge.CellH)) * ge.Cols
	cur := max(g.src.Cursor(), 0)
	var to int
	switch k.Name {
	case fyne.KeyLeft:
		to = cur - 1
	case fyne.KeyRight:
		to = cur + 1
	case fyne.KeyUp:
		to = cur - ge.Cols
	case fyne.KeyDown:
		to = cur + ge.Cols
	case fyne.KeyHome:
		to = 0
	case fyne.KeyEnd:
		to = g.src.Len() - 1
	case fyne.KeyPageUp:
		to = cur - page
	case fyne.KeyPageDown:
		to = cur + page
	default:
		return
	}
	if g.src.Cursor() < 0 {
		to = 0
	}
	if to < 0 && (k.Name == fyne.KeyLeft || k.Name == fyne.KeyUp) && cur == 0 {
		return
	}
	g.in.MoveCursor(to, shift)
}

// CreateRenderer builds the grid's renderer.
func (g *TileGrid) CreateRenderer() fyne.WidgetRenderer {
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
	g            *TileGrid
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
	src := g.src
	if src == nil || src.Len() == 0 {
		r.img.Hide()
		r.thumb.Hide()
		r.empty.Text = "No samples to show"
		if src == nil {
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
	offset := max(0, min(ge.MaxOffset, g.offset))
	row0 := int(offset / ge.CellH)
	rows := min(ge.Rows-row0, int(math.Ceil(float64((offset+size.Height)/ge.CellH)))-row0+1)
	rows = max(rows, 0)
	r.img.Image = g.m.draw(g.src, ge.Cols, row0, rows, r.palette())
	r.img.Move(fyne.NewPos(ge.X0, float32(row0)*ge.CellH-offset))
	r.img.Resize(fyne.NewSize(float32(ge.Cols)*ge.CellW, float32(rows)*ge.CellH))
	r.img.Show()
	r.img.Refresh()
	if ge.CellW >= minBadgeCell {
		r.placeBadges(ge, offset, row0, rows)
	}
	r.placeMark(ge, offset)
	r.placeThumb(ge, offset, size)
}

// placeMark rings the cursor's tile over the gap around it, in the primary colour like the
// tile's own frame: a thick outline that shows against dark tiles and against the light or dark
// theme's background alike (a foreground-coloured frame vanished on black tiles in the light
// theme). Without the keyboard focus both are grey.
func (r *tileGridRenderer) placeMark(ge Geometry, offset float32) {
	src := r.g.src
	p := src.Cursor()
	if p < 0 || p >= src.Len() {
		return
	}
	row, col := p/ge.Cols, p%ge.Cols
	w := max(3, ge.Unit)
	r.mark.StrokeWidth = w
	r.mark.Move(fyne.NewPos(ge.X0+float32(col)*ge.CellW-w/2, float32(row)*ge.CellH-offset-w/2))
	r.mark.Resize(fyne.NewSize(ge.CellW+w, ge.CellH+w))
	r.mark.Show()
	r.mark.Refresh()
}

// minBadgeCell is the narrowest tile, in units, that gets a badge: every tile of a 28×28 dataset
// (30 units at the smallest zoom), not the few units of a tiny sample's tile, where badges would
// cover each other.
const minBadgeCell = 20

// placeBadges puts a small, translucent label badge in the top-left corner of every visible
// tile, inside the top margin of the sample (MNIST's digits fill the middle 20×20 of 28×28, so a
// badge up to a seventh of the tile high stays off the ink). The badges come from the source.
func (r *tileGridRenderer) placeBadges(ge Geometry, offset float32, row0, rows int) {
	src := r.g.src
	h, w := src.Size()
	margin := ge.Unit * float32(h) / 7 // units above the ink
	textSize := max(8, min(16, (margin+ge.Unit)/1.35))
	first, last := row0*ge.Cols, min(src.Len(), (row0+rows)*ge.Cols)
	for p := first; p < last; p++ {
		b, ok := src.Badge(p)
		if !ok {
			continue // none, or the source changed since it was handed over
		}
		text := fitBadge(b, float32(w)*ge.Unit-badgePad, textSize, fyne.TextStyle{Bold: true})
		if text == "" {
			continue
		}
		if r.nbadges == len(r.texts) {
			r.texts = append(r.texts, canvas.NewText("", color.White))
			r.backs = append(r.backs, canvas.NewRectangle(BadgeBack))
		}
		t, back := r.texts[r.nbadges], r.backs[r.nbadges]
		r.nbadges++
		t.Text, t.Color, t.TextSize = text, b.Color, textSize
		t.TextStyle.Bold = true
		back.FillColor = BadgeBack
		if b.Back != nil {
			back.FillColor = b.Back
		}
		row, col := p/ge.Cols, p%ge.Cols
		pos := fyne.NewPos(ge.X0+float32(col)*ge.CellW+ge.Unit, float32(row)*ge.CellH-offset+ge.Unit)
		ts := t.MinSize()
		back.Move(pos)
		back.Resize(fyne.NewSize(ts.Width+badgePad, ts.Height))
		t.Move(pos.AddXY(badgePad/2, 0))
		t.Resize(ts)
		t.Refresh()
		back.Refresh()
	}
}

// badgePad is the badge's background past its text, units: half on each side.
const badgePad = 4

// fitBadge returns what badge b says where its text may be room units wide (its tile's sample,
// less the badge's padding), in text of size and style: its Text when it fits, else its Short
// when set and it fits, else its Text cut to fit and ending in "…" ("" when not even one
// letter and "…" fit). Only a badge too wide for its tile is measured more than once.
func fitBadge(b Badge, room, size float32, style fyne.TextStyle) string {
	fits := func(s string) bool { return fyne.MeasureText(s, size, style).Width <= room }
	if fits(b.Text) {
		return b.Text
	}
	if b.Short != "" && fits(b.Short) {
		return b.Short
	}
	rs := []rune(b.Text)
	for n := len(rs) - 1; n > 0; n-- {
		if s := strings.TrimRight(string(rs[:n]), " ") + "…"; fits(s) {
			return s
		}
	}
	return ""
}

// placeThumb sizes the scroll bar's thumb to the visible share of the rows.
func (r *tileGridRenderer) placeThumb(ge Geometry, offset float32, size fyne.Size) {
	total := float32(ge.Rows) * ge.CellH
	if total <= size.Height {
		r.thumb.Hide()
		return
	}
	h := max(24, size.Height*size.Height/total)
	y := (size.Height - h) * offset / ge.MaxOffset
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
