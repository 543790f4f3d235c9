package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The passing controls: a button, a check box and a choice that keep only the keys that
// operate them and pass every other key and character typed while they have the keyboard focus
// to the handlers of the canvas they are on (fyne.Canvas.OnTypedKey, OnTypedRune), where they go
// as if nothing had the focus. Fyne hands the keys typed to the focused widget alone, and a
// widget.Button, widget.Check or widget.Select drops the ones it does not use: after a Tab
// focused one of a view's controls (a job's Cancel, "Every confusion", the map's Fit), a digit
// typed to relabel the sample at the cursor was lost, and Escape and the arrows did nothing.
// They stay focusable, so a keyboard user still reaches them with Tab and operates them with
// Space. The canvas is the one the driver draws the control on (CanvasForObject), so a view
// builds them without the window.

// passKey hands k to the key handler of the canvas obj is on, if there is one.
func passKey(obj fyne.CanvasObject, k *fyne.KeyEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(obj); c != nil {
		if on := c.OnTypedKey(); on != nil {
			on(k)
		}
	}
}

// passRune hands r to the character handler of the canvas obj is on, if there is one.
func passRune(obj fyne.CanvasObject, r rune) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(obj); c != nil {
		if on := c.OnTypedRune(); on != nil {
			on(r)
		}
	}
}

// PassingButton is a widget.Button that keeps the keys that press a focused button (Space, and
// Enter as on other desktops) and passes every other key and character to its canvas's
// handlers: Escape cancels a job, a digit relabels the sample at the cursor, an arrow moves it.
type PassingButton struct {
	widget.Button
}

// NewPassingButton makes a passing button labelled label that runs tapped when pressed.
func NewPassingButton(label string, tapped func()) *PassingButton {
	b := &PassingButton{}
	b.Text, b.OnTapped = label, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Space or Enter and passes every other key on.
func (b *PassingButton) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter:
		b.Tapped(nil)
	default:
		passKey(b, k)
	}
}

// TypedRune passes every character on but Space's (its key pressed the button).
func (b *PassingButton) TypedRune(r rune) {
	if r != ' ' {
		passRune(b, r)
	}
}

// PassingCheck is a widget.Check that keeps Space (which toggles a focused check box) and
// passes every other key and character to its canvas's handlers.
type PassingCheck struct {
	widget.Check
}

// NewPassingCheck makes a passing check box labelled label that reports a change to changed.
func NewPassingCheck(label string, changed func(bool)) *PassingCheck {
	c := &PassingCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey keeps Space (its character toggles the box) and passes every other key on.
func (c *PassingCheck) TypedKey(k *fyne.KeyEvent) {
	if k.Name != fyne.KeySpace {
		passKey(c, k)
	}
}

// TypedRune toggles the box on Space's character and passes every other character on.
func (c *PassingCheck) TypedRune(r rune) {
	if r == ' ' {
		c.Check.TypedRune(r)
		return
	}
	passRune(c, r)
}

// PassingSelect is a widget.Select that keeps the keys opening its menu (Space, Up, Down) and
// passes every other key (Left and Right too, which a widget.Select would use to step through
// its options: in the window they move the cursor) and every character to its canvas's
// handlers.
type PassingSelect struct {
	widget.Select
}

// NewPassingSelect makes a passing choice of options that reports a choice to changed.
func NewPassingSelect(options []string, changed func(string)) *PassingSelect {
	s := &PassingSelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey opens the menu on Space, Up or Down and passes every other key on.
func (s *PassingSelect) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeySpace, fyne.KeyUp, fyne.KeyDown:
		s.Select.TypedKey(k)
	default:
		passKey(s, k)
	}
}

// TypedRune passes every character on but Space's (its key opened the menu).
func (s *PassingSelect) TypedRune(r rune) {
	if r != ' ' {
		passRune(s, r)
	}
}
