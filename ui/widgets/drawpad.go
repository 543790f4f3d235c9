package widgets

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// PadRaster is the side, in pixels, of the bilevel raster a drawing is normalized from: 128,
// the resolution of NIST's scans that MNIST's preprocessing was made for. It does not depend on
// the screen, so the same strokes give the same sample at any display scale.
const PadRaster = 128

// DefaultPen is the default pen width as a fraction of the pad's side: a digit drawn over about
// two thirds of the pad then has MNIST's stroke width (about 12% of the digit's height) after
// normalization.
const DefaultPen = 0.08

// point is a position on the pad, each coordinate 0–1 of the pad's side.
type point struct{ x, y float64 }

// stroke is one pen stroke: its points in order and the pen width (fraction of the pad side).
type stroke struct {
	pts   []point
	width float64
}

// DrawPad is the drawing surface: strokes are kept as vectors and rendered as smooth,
// anti-aliased lines with round caps between successive pointer positions, light ink on dark
// like MNIST — on screen at the display's resolution, and for normalization at PadRaster.
// It takes mouse (desktop.Mouseable) and pen/touch drags (fyne.Draggable).
type DrawPad struct {
	widget.BaseWidget
	DrawPadInput
	strokes []stroke
	drawing bool // a stroke is in progress
	pen     float64
	raster  *canvas.Raster
}

// DrawPadInput is what the pad reports: a change of the drawing, and the keys, characters and
// shortcuts typed on it that it does not use itself (it takes Ctrl+Z).
type DrawPadInput struct {
	OnChange   func()
	OnKey      func(k *fyne.KeyEvent)
	OnRune     func(r rune)
	OnShortcut func(s fyne.Shortcut) bool // shortcuts other than Ctrl+Z; reports whether it took s
}

// NewDrawPad builds an empty pad with the default pen, reporting to in.
func NewDrawPad(in DrawPadInput) *DrawPad {
	p := &DrawPad{DrawPadInput: in, pen: DefaultPen}
	p.raster = canvas.NewRaster(func(w, h int) image.Image { return rasterStrokes(p.strokes, w, h, false) })
	p.ExtendBaseWidget(p)
	return p
}

// toPad converts a widget position to pad coordinates.
func (p *DrawPad) toPad(pos fyne.Position) point {
	s := p.Size()
	return point{float64(pos.X / max(s.Width, 1)), float64(pos.Y / max(s.Height, 1))}
}

func (p *DrawPad) begin(at fyne.Position) {
	p.strokes = append(p.strokes, stroke{pts: []point{p.toPad(at)}, width: p.pen})
	p.drawing = true
	p.changed()
}

func (p *DrawPad) extend(at fyne.Position) {
	s := &p.strokes[len(p.strokes)-1]
	q := p.toPad(at)
	if last := s.pts[len(s.pts)-1]; last != q {
		s.pts = append(s.pts, q)
		p.changed()
	}
}

func (p *DrawPad) changed() {
	p.raster.Refresh()
	if p.OnChange != nil {
		p.OnChange()
	}
}

// MouseDown starts a stroke (a click alone leaves a dot) and takes the keyboard focus.
func (p *DrawPad) MouseDown(ev *desktop.MouseEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		c.Focus(p)
	}
	if ev.Button == desktop.MouseButtonPrimary {
		p.begin(ev.Position)
	}
}

// MouseUp ends the stroke.
func (p *DrawPad) MouseUp(*desktop.MouseEvent) { p.drawing = false }

// Dragged extends the stroke; a drag without a mouse press first (pen, touch) starts one where
// the drag began.
func (p *DrawPad) Dragged(ev *fyne.DragEvent) {
	if !p.drawing {
		p.begin(ev.Position.Subtract(ev.Dragged))
	}
	p.extend(ev.Position)
}

// DragEnd ends the stroke.
func (p *DrawPad) DragEnd() { p.drawing = false }

// UndoStroke removes the last stroke.
func (p *DrawPad) UndoStroke() {
	if len(p.strokes) > 0 {
		p.strokes = p.strokes[:len(p.strokes)-1]
		p.drawing = false
		p.changed()
	}
}

// Clear removes every stroke.
func (p *DrawPad) Clear() {
	p.strokes, p.drawing = nil, false
	p.changed()
}

// Empty reports whether nothing is drawn.
func (p *DrawPad) Empty() bool { return len(p.strokes) == 0 }

// Strokes returns the number of strokes drawn.
func (p *DrawPad) Strokes() int { return len(p.strokes) }

// SetPen sets the width of the strokes drawn from now on, a fraction of the pad's side.
func (p *DrawPad) SetPen(width float64) { p.pen = width }

// image renders the strokes at PadRaster×padRaster, bilevel (255 where a pixel's centre lies
// within a stroke, else 0), for normalization.
func (p *DrawPad) Image() *image.Gray { return rasterStrokes(p.strokes, PadRaster, PadRaster, true) }

// FocusGained and FocusLost make the pad focusable (keys: Enter, Escape, digits, Ctrl+Z).
func (p *DrawPad) FocusGained() {}

// FocusLost: see FocusGained.
func (p *DrawPad) FocusLost() {}

// TypedRune hands digits (the label) to the draw window.
func (p *DrawPad) TypedRune(r rune) {
	if p.OnRune != nil {
		p.OnRune(r)
	}
}

// TypedKey hands Enter and Escape to the draw window.
func (p *DrawPad) TypedKey(k *fyne.KeyEvent) {
	if p.OnKey != nil {
		p.OnKey(k)
	}
}

// TypedShortcut undoes the last stroke on Ctrl+Z and hands other shortcuts to OnShortcut (a
// focused pad receives them all, so Ctrl+S and Ctrl+Q would otherwise do nothing here).
func (p *DrawPad) TypedShortcut(s fyne.Shortcut) {
	if _, ok := s.(*fyne.ShortcutUndo); ok {
		p.UndoStroke()
		return
	}
	if p.OnShortcut != nil {
		p.OnShortcut(s)
	}
}

// MinSize is 320×320 units.
func (p *DrawPad) MinSize() fyne.Size { return fyne.NewSize(320, 320) }

// CreateRenderer shows the strokes at the display's resolution.
func (p *DrawPad) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(p.raster) }

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
