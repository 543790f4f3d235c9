package ui

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// padRaster is the side, in pixels, of the bilevel raster a drawing is normalized from: 128,
// the resolution of NIST's scans that MNIST's preprocessing was made for. It does not depend on
// the screen, so the same strokes give the same sample at any display scale.
const padRaster = 128

// defaultPen is the default pen width as a fraction of the pad's side: a digit drawn over about
// two thirds of the pad then has MNIST's stroke width (about 12% of the digit's height) after
// normalization.
const defaultPen = 0.08

// point is a position on the pad, each coordinate 0–1 of the pad's side.
type point struct{ x, y float64 }

// stroke is one pen stroke: its points in order and the pen width (fraction of the pad side).
type stroke struct {
	pts   []point
	width float64
}

// drawPad is the drawing surface: strokes are kept as vectors and rendered as smooth,
// anti-aliased lines with round caps between successive pointer positions, light ink on dark
// like MNIST — on screen at the display's resolution, and for normalization at padRaster.
// It takes mouse (desktop.Mouseable) and pen/touch drags (fyne.Draggable).
type drawPad struct {
	widget.BaseWidget
	strokes    []stroke
	drawing    bool // a stroke is in progress
	pen        float64
	onChange   func()
	onKey      func(k *fyne.KeyEvent)
	onRune     func(r rune)
	onShortcut func(s fyne.Shortcut) bool // shortcuts other than Ctrl+Z
	raster     *canvas.Raster
}

func newDrawPad() *drawPad {
	p := &drawPad{pen: defaultPen}
	p.raster = canvas.NewRaster(func(w, h int) image.Image { return rasterStrokes(p.strokes, w, h, false) })
	p.ExtendBaseWidget(p)
	return p
}

// toPad converts a widget position to pad coordinates.
func (p *drawPad) toPad(pos fyne.Position) point {
	s := p.Size()
	return point{float64(pos.X / max(s.Width, 1)), float64(pos.Y / max(s.Height, 1))}
}

func (p *drawPad) begin(at fyne.Position) {
	p.strokes = append(p.strokes, stroke{pts: []point{p.toPad(at)}, width: p.pen})
	p.drawing = true
	p.changed()
}

func (p *drawPad) extend(at fyne.Position) {
	s := &p.strokes[len(p.strokes)-1]
	q := p.toPad(at)
	if last := s.pts[len(s.pts)-1]; last != q {
		s.pts = append(s.pts, q)
		p.changed()
	}
}

func (p *drawPad) changed() {
	p.raster.Refresh()
	if p.onChange != nil {
		p.onChange()
	}
}

// MouseDown starts a stroke (a click alone leaves a dot) and takes the keyboard focus.
func (p *drawPad) MouseDown(ev *desktop.MouseEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		c.Focus(p)
	}
	if ev.Button == desktop.MouseButtonPrimary {
		p.begin(ev.Position)
	}
}

// MouseUp ends the stroke.
func (p *drawPad) MouseUp(*desktop.MouseEvent) { p.drawing = false }

// Dragged extends the stroke; a drag without a mouse press first (pen, touch) starts one where
// the drag began.
func (p *drawPad) Dragged(ev *fyne.DragEvent) {
	if !p.drawing {
		p.begin(ev.Position.Subtract(ev.Dragged))
	}
	p.extend(ev.Position)
}

// DragEnd ends the stroke.
func (p *drawPad) DragEnd() { p.drawing = false }

// undoStroke removes the last stroke.
func (p *drawPad) undoStroke() {
	if len(p.strokes) > 0 {
		p.strokes = p.strokes[:len(p.strokes)-1]
		p.drawing = false
		p.changed()
	}
}

// clear removes every stroke.
func (p *drawPad) clear() {
	p.strokes, p.drawing = nil, false
	p.changed()
}

// empty reports whether nothing is drawn.
func (p *drawPad) empty() bool { return len(p.strokes) == 0 }

// image renders the strokes at padRaster×padRaster, bilevel (255 where a pixel's centre lies
// within a stroke, else 0), for normalization.
func (p *drawPad) image() *image.Gray { return rasterStrokes(p.strokes, padRaster, padRaster, true) }

// FocusGained and FocusLost make the pad focusable (keys: Enter, Escape, digits, Ctrl+Z).
func (p *drawPad) FocusGained() {}

// FocusLost: see FocusGained.
func (p *drawPad) FocusLost() {}

// TypedRune hands digits (the label) to the draw window.
func (p *drawPad) TypedRune(r rune) {
	if p.onRune != nil {
		p.onRune(r)
	}
}

// TypedKey hands Enter and Escape to the draw window.
func (p *drawPad) TypedKey(k *fyne.KeyEvent) {
	if p.onKey != nil {
		p.onKey(k)
	}
}

// TypedShortcut undoes the last stroke on Ctrl+Z and hands other shortcuts to onShortcut (a
// focused pad receives them all, so Ctrl+S and Ctrl+Q would otherwise do nothing here).
func (p *drawPad) TypedShortcut(s fyne.Shortcut) {
	if _, ok := s.(*fyne.ShortcutUndo); ok {
		p.undoStroke()
		return
	}
	if p.onShortcut != nil {
		p.onShortcut(s)
	}
}

func (p *drawPad) MinSize() fyne.Size { return fyne.NewSize(320, 320) }

func (p *drawPad) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(p.raster) }

// rasterStrokes draws strokes into a w×h grey image, 255 = ink: each segment a capsule (a line
// with round caps) of the stroke's width, anti-aliased by the distance of each pixel centre to
// the segment (for the screen), or bilevel: full ink where that distance is at most the pen's
// radius (for normalization, as NIST's bilevel scans). Overlapping strokes take the larger value.
func rasterStrokes(strokes []stroke, w, h int, bilevel bool) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	side := float64(min(w, h))
	for _, s := range strokes {
		r := s.width * side / 2
		for k := range s.pts {
			a := s.pts[max(0, k-1)]
			b := s.pts[k]
			capsule(g, a.x*float64(w), a.y*float64(h), b.x*float64(w), b.y*float64(h), r, bilevel)
		}
	}
	return g
}

// capsule max-blends the segment (ax, ay)–(bx, by) of radius r into g, anti-aliased or bilevel.
func capsule(g *image.Gray, ax, ay, bx, by, r float64, bilevel bool) {
	x0 := max(0, int(math.Floor(min(ax, bx)-r-1)))
	x1 := min(g.Rect.Dx()-1, int(math.Ceil(max(ax, bx)+r+1)))
	y0 := max(0, int(math.Floor(min(ay, by)-r-1)))
	y1 := min(g.Rect.Dy()-1, int(math.Ceil(max(ay, by)+r+1)))
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	for y := y0; y <= y1; y++ {
		py := float64(y) + 0.5
		for x := x0; x <= x1; x++ {
			px := float64(x) + 0.5
			t := 0.0
			if l2 > 0 {
				t = max(0, min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
			}
			ex, ey := px-(ax+t*dx), py-(ay+t*dy)
			cov := r + 0.5 - math.Sqrt(ex*ex+ey*ey)
			if cov <= 0 || bilevel && cov < 0.5 {
				continue
			}
			v := byte(math.Round(255 * min(1, cov)))
			if bilevel {
				v = 255
			}
			if o := y*g.Stride + x; v > g.Pix[o] {
				g.Pix[o] = v
			}
		}
	}
}
