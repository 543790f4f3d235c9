package widgets

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// PassingRadioGroup is a vertical widget.RadioGroup whose buttons keep Space (which chooses a
// focused one) and pass every other key and character to their canvas's handlers, where Escape
// and Enter answer the dialog on top as with nothing focused. A widget.RadioGroup's buttons
// (Fyne's radioItem, which no code outside Fyne can extend) drop them: with New Dataset's choice
// of classes focused by Tab, Escape did not cancel and Enter did not create. Its buttons are
// drawn, laid out and chosen as Fyne 2.7's (radio_group.go, radio_item.go, whose look is
// copied here under Fyne's BSD licence), with the same fields (Options, Selected, Required,
// OnChanged); it has no Horizontal layout and cannot be disabled.
type PassingRadioGroup struct {
	widget.BaseWidget
	Options   []string     // the buttons' labels, top to bottom
	Selected  string       // the option chosen ("" for none): the first button of that label
	Required  bool         // a chosen button tapped again stays chosen (else it is unchosen)
	OnChanged func(string) // runs with the option chosen ("" for none) when it changes (nil: nothing)
}

// NewPassingRadioGroup makes a passing radio group of options that reports a choice to changed
// (nil: nothing), with nothing chosen.
func NewPassingRadioGroup(options []string, changed func(string)) *PassingRadioGroup {
	r := &PassingRadioGroup{Options: options, OnChanged: changed}
	r.ExtendBaseWidget(r)
	return r
}

// SetSelected chooses option ("" for none) and reports it to OnChanged, when it changes.
func (r *PassingRadioGroup) SetSelected(option string) {
	if r.Selected == option {
		return
	}
	r.Selected = option
	if r.OnChanged != nil {
		r.OnChanged(option)
	}
	r.Refresh()
}

// tapped chooses the option of button i (or clears it, tapped again, unless Required).
func (r *PassingRadioGroup) tapped(i int) {
	if i >= len(r.Options) {
		return
	}
	option := r.Options[i]
	if r.Selected == option {
		if r.Required {
			return
		}
		option = ""
	}
	r.SetSelected(option)
}

// CreateRenderer makes the group's buttons, one per option, stacked.
func (r *PassingRadioGroup) CreateRenderer() fyne.WidgetRenderer {
	g := &radioGroupRenderer{group: r}
	g.update(false)
	return g
}

// radioGroupRenderer lays a group's buttons out one under the other, each as tall as the
// tallest and as wide as the widest (Fyne's radioGroupRenderer, vertical).
type radioGroupRenderer struct {
	group   *PassingRadioGroup
	buttons []fyne.CanvasObject // *passingRadio, one per option
}

func (g *radioGroupRenderer) Layout(fyne.Size) {
	m := g.MinSize()
	size := fyne.NewSize(m.Width, m.Height/float32(max(1, len(g.buttons))))
	for k, b := range g.buttons {
		b.Resize(size)
		b.Move(fyne.NewPos(0, float32(k)*size.Height))
	}
}

func (g *radioGroupRenderer) MinSize() fyne.Size {
	var w, h float32
	for _, b := range g.buttons {
		m := b.MinSize()
		w, h = max(w, m.Width), max(h, m.Height)
	}
	return fyne.NewSize(w, h*float32(len(g.buttons)))
}

func (g *radioGroupRenderer) Refresh() {
	g.update(true)
	g.Layout(g.group.Size())
	canvas.Refresh(g.group)
}

// update makes a button per option and tells each its label and whether it is chosen,
// refreshing the buttons that changed (all: a refresh of the group, such as a change of theme).
func (g *radioGroupRenderer) update(all bool) {
	r := g.group
	for k := len(g.buttons); k < len(r.Options); k++ {
		g.buttons = append(g.buttons, newPassingRadio(func() { r.tapped(k) }))
	}
	g.buttons = g.buttons[:len(r.Options)]
	chosen := slices.Index(r.Options, r.Selected) // the first option of that text, as Fyne's
	for k, o := range g.buttons {
		b := o.(*passingRadio)
		changed := b.label != r.Options[k] || b.chosen != (k == chosen)
		b.label, b.chosen = r.Options[k], k == chosen
		if all || changed {
			b.Refresh()
		}
	}
}

func (g *radioGroupRenderer) Objects() []fyne.CanvasObject { return g.buttons }

func (g *radioGroupRenderer) Destroy() {}

// passingRadio is one button of a PassingRadioGroup: Fyne's radioItem, which keeps Space and
// passes the other keys on.
type passingRadio struct {
	widget.BaseWidget
	label            string
	chosen           bool
	focused, hovered bool
	tap              func()
}

func newPassingRadio(tap func()) *passingRadio {
	b := &passingRadio{tap: tap}
	b.ExtendBaseWidget(b)
	return b
}

// FocusGained shows the focus.
func (b *passingRadio) FocusGained() { b.focused = true; b.Refresh() }

// FocusLost stops showing the focus.
func (b *passingRadio) FocusLost() { b.focused = false; b.Refresh() }

// MouseIn shows the hover.
func (b *passingRadio) MouseIn(*desktop.MouseEvent) { b.hovered = true; b.Refresh() }

// MouseMoved does nothing.
func (b *passingRadio) MouseMoved(*desktop.MouseEvent) {}

// MouseOut stops showing the hover.
func (b *passingRadio) MouseOut() { b.hovered = false; b.Refresh() }

// Tapped focuses the button (on a desktop, as Fyne's) and chooses it.
func (b *passingRadio) Tapped(*fyne.PointEvent) {
	if !b.focused && !fyne.CurrentDevice().IsMobile() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
			c.Focus(b)
		}
	}
	b.tap()
}

// TypedKey keeps Space (its character chooses the button) and passes every other key on.
func (b *passingRadio) TypedKey(k *fyne.KeyEvent) {
	keepKey(b, k, func(*fyne.KeyEvent) {}, fyne.KeySpace)
}

// TypedRune chooses the button on Space's character and passes every other character on.
func (b *passingRadio) TypedRune(r rune) { keepSpace(b, r, func(rune) { b.tap() }) }

// CreateRenderer draws the button as Fyne's radioItem: the focus or hover circle, the button's
// fill and outline, its label.
func (b *passingRadio) CreateRenderer() fyne.WidgetRenderer {
	r := &radioRenderer{b: b, label: &canvas.Text{Alignment: fyne.TextAlignLeading}}
	r.objects = []fyne.CanvasObject{&r.focus, &r.fill, &r.outline, r.label}
	r.update()
	return r
}

// radioRenderer is Fyne 2.7's radioItemRenderer (its layout, sizes and colours), for a button
// that is never disabled.
type radioRenderer struct {
	b             *passingRadio
	focus         canvas.Circle
	fill, outline canvas.Image
	label         *canvas.Text
	objects       []fyne.CanvasObject
}

func (r *radioRenderer) Layout(size fyne.Size) {
	th := r.b.Theme()
	inner, border, icon := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameInputBorder), th.Size(theme.SizeNameInlineIcon)
	focus := fyne.NewSquareSize(icon + inner)
	r.focus.Resize(focus)
	r.focus.Move(fyne.NewPos(border, (size.Height-focus.Height)/2))
	r.label.Resize(size)
	r.label.Move(fyne.NewPos(focus.Width+th.Size(theme.SizeNamePadding), 0))
	at, square := fyne.NewPos(inner/2+border, (size.Height-icon)/2), fyne.NewSquareSize(icon)
	for _, i := range []*canvas.Image{&r.fill, &r.outline} {
		i.Resize(square)
		i.Move(at)
	}
}

func (r *radioRenderer) MinSize() fyne.Size {
	th := r.b.Theme()
	pad := th.Size(theme.SizeNameInnerPadding) * 2
	return r.label.MinSize().AddWidthHeight(pad+th.Size(theme.SizeNameInlineIcon)+th.Size(theme.SizeNamePadding), pad)
}

func (r *radioRenderer) Refresh() {
	r.update()
	canvas.Refresh(r.b)
}

// update sets the label and the colours of the fill, the outline and the focus circle.
func (r *radioRenderer) update() {
	th, v := r.b.Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	r.label.Text = r.b.label
	r.label.TextSize = th.Size(theme.SizeNameText)
	r.label.Color = th.Color(theme.ColorNameForeground, v)
	outline := theme.NewThemedResource(th.Icon(theme.IconNameRadioButton))
	outline.ColorName = theme.ColorNameInputBorder
	fill := theme.NewThemedResource(th.Icon(theme.IconNameRadioButtonFill))
	fill.ColorName = theme.ColorNameInputBackground
	if r.b.chosen {
		fill.ColorName, outline.ColorName = theme.ColorNamePrimary, theme.ColorNameForeground
	}
	r.fill.Resource, r.outline.Resource = fill, outline
	r.fill.Refresh()
	r.outline.Refresh()
	switch {
	case r.b.focused:
		r.focus.FillColor = th.Color(theme.ColorNameFocus, v)
	case r.b.hovered:
		r.focus.FillColor = th.Color(theme.ColorNameHover, v)
	default:
		r.focus.FillColor = color.Transparent
	}
}

func (r *radioRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *radioRenderer) Destroy() {}
