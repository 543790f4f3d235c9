package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// PassingButton is a button that passes on the keys it does not use: the Cancel button of a
// job's progress (ShowPassing). Fyne hands the keys and characters typed to the focused widget
// alone, and a widget.Button takes Space and drops the rest: after a Tab focused it, a digit
// typed to relabel the sample at the cursor was lost, and Escape no longer cancelled. This
// button keeps the keys that press a focused button (Space, and Enter as on other desktops) and
// passes every other key and character to the window canvas's own handlers, where they go as if
// nothing had the focus: Escape cancels the job, a digit relabels, an arrow moves the cursor.
// It stays focusable so that a keyboard user can still reach Cancel with Tab.
type PassingButton struct {
	widget.Button
	canvas fyne.Canvas
}

// NewPassingButton makes a button labelled label that runs tapped when pressed and passes the
// other keys and characters typed while it has the focus to the handlers of canvas c
// (fyne.Canvas.OnTypedKey, OnTypedRune).
func NewPassingButton(label string, tapped func(), c fyne.Canvas) *PassingButton {
	b := &PassingButton{canvas: c}
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
		if on := b.canvas.OnTypedKey(); on != nil {
			on(k)
		}
	}
}

// TypedRune passes every character on but Space's (its key pressed the button).
func (b *PassingButton) TypedRune(r rune) {
	if r == ' ' {
		return
	}
	if on := b.canvas.OnTypedRune(); on != nil {
		on(r)
	}
}
