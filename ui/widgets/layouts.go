package widgets

import (
	"idxlabel/plot"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The window's layouts and small holders, passive as the widgets: they lay out what they are
// given and report taps to the function they are built with.

// NewFixedBorder puts top above center in a box of at least size (dialogs size themselves to
// their content's minimum, which for a list is one row).
func NewFixedBorder(top, center fyne.CanvasObject, size fyne.Size) fyne.CanvasObject {
	space := canvas.NewRectangle(color.Transparent)
	space.SetMinSize(size)
	return container.NewStack(space, container.NewBorder(top, nil, nil, nil, center))
}

// Square places its one object as the largest square that fits, centred (the drawing pad: a
// stretched pad would distort what is drawn).
type Square struct{}

// Layout places the square.
func (Square) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	side := min(size.Width, size.Height)
	objs[0].Resize(fyne.NewSquareSize(side))
	objs[0].Move(fyne.NewPos((size.Width-side)/2, (size.Height-side)/2))
}

// MinSize is the object's.
func (Square) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// Beside lays two objects side by side: the first as wide as it wants (Want), as long as the
// second keeps at least Rest (and half the width at least), the second the rest.
type Beside struct {
	Want func() float32
	Rest float32
}

// Layout places the two objects.
func (l *Beside) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	gap := theme.Padding()
	w := min(l.Want(), max(size.Width/2, size.Width-l.Rest-gap))
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w+gap, 0))
	objs[1].Resize(fyne.NewSize(max(0, size.Width-w-gap), size.Height))
}

// MinSize is both objects' side by side.
func (l *Beside) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a, b := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(a.Width+b.Width+theme.Padding(), max(a.Height, b.Height))
}

// CappedHeight lays its one object out at the size it is given, and asks for Full's width and
// height, up to Max units high.
type CappedHeight struct {
	Full fyne.CanvasObject
	Max  float32
}

// Layout gives the object the whole size.
func (l *CappedHeight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// MinSize is Full's, no higher than Max.
func (l *CappedHeight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := l.Full.MinSize()
	return fyne.NewSize(m.Width, min(m.Height, l.Max))
}

// TapTarget shows content and reports a click on it (a thumbnail that goes to its sample), with
// the pointing hand over it.
type TapTarget struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func()
}

// NewTapTarget shows content, reporting a click to onTap.
func NewTapTarget(content fyne.CanvasObject, onTap func()) *TapTarget {
	t := &TapTarget{content: content, onTap: onTap}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped reports the click.
func (t *TapTarget) Tapped(*fyne.PointEvent) { t.onTap() }

// Cursor is the pointing hand: the content can be clicked.
func (t *TapTarget) Cursor() desktop.Cursor { return desktop.PointerCursor }

// CreateRenderer draws the content.
func (t *TapTarget) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.content) }

// SetText sets l's text unless it has it already: laying text out (shaping it, fitting it with an
// ellipsis) is the dearest part of a key's work, and most keys leave most texts as they were. It
// reports whether the text changed.
func SetText(l *widget.Label, text string) bool {
	if l.Text == text {
		return false
	}
	l.SetText(text)
	return true
}

// PlotStyle returns the plot style (plot.Light, plot.Dark) of the current theme: the charts and
// the map drawn in the window's colours.
func PlotStyle() plot.Style {
	if fyne.CurrentApp().Settings().ThemeVariant() == theme.VariantDark {
		return plot.Dark()
	}
	return plot.Light()
}

// Clip shortens s to at most n characters, ending in "…" when it was longer.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Ctrl is Ctrl (Cmd on macOS) with key, plus Shift when shift is true.
func Ctrl(key fyne.KeyName, shift bool) fyne.Shortcut {
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}
