package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// DialogSelect is the passing choice of a dialog: a widget.Select that keeps the keys that
// operate it there (Space, Up and Down open its menu; Left and Right step through its options,
// which in a dialog move no cursor) and passes every other key and character to its canvas's
// handlers, where Escape and Enter answer the dialog on top (dialogs.Dialogs.Key) as with
// nothing focused. A widget.Select drops them: with Export's format list focused by Tab, Escape
// did not cancel and Enter did not export. (PassingSelect, for the views beside the grid,
// passes Left and Right on too.) A check box in a dialog is a PassingCheck, a radio group a
// PassingRadioGroup.
type DialogSelect struct {
	widget.Select
	self fyne.CanvasObject // the widget that extends it (ExtendBaseWidget): the one on the canvas
}

// NewDialogSelect makes a dialog's passing choice of options that reports a choice to changed
// (nil: nothing), with nothing chosen.
func NewDialogSelect(options []string, changed func(string)) *DialogSelect {
	s := &DialogSelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// ExtendBaseWidget records w, the widget that embeds the choice (or the choice itself), as the
// one whose canvas the keys it passes go to, and extends the Select with it.
func (s *DialogSelect) ExtendBaseWidget(w fyne.Widget) {
	s.self = w
	s.Select.ExtendBaseWidget(w)
}

// TypedKey keeps Space, the arrows (the Select's) and passes every other key on.
func (s *DialogSelect) TypedKey(k *fyne.KeyEvent) {
	keepKey(s.self, k, s.Select.TypedKey, fyne.KeySpace, fyne.KeyUp, fyne.KeyDown, fyne.KeyLeft, fyne.KeyRight)
}

// TypedRune passes every character on but Space's (its key opened the menu).
func (s *DialogSelect) TypedRune(r rune) { keepSpace(s.self, r, nil) }
