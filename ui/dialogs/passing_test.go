package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/ui/widgets"
)

// A job's progress shown with ShowPassing is cancelled by its own Cancel button (the dialog's
// dismiss button hides it, as Hide does), not only by Escape, and the prompt is gone after.
func TestPassingCancelButtonCancels(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("t")
	defer win.Close()
	d := New(win, a.Preferences(), nil, nil)
	for _, how := range []string{"button", "escape"} {
		cancelled := 0
		dlg := d.ShowPassing("progress", "Import", widget.NewLabel("reading"), func() { cancelled++ })
		if !d.Passing() {
			t.Fatalf("%s: the progress is not the top prompt passing keys", how)
		}
		if how == "button" {
			test.Tap(cancelButton(t, win))
		} else if !d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape}) {
			t.Fatalf("escape: the progress did not take Escape")
		}
		if cancelled == 0 {
			t.Errorf("%s: the progress let its job run on", how)
		}
		dlg.Hide() // the job's end (again, for the button: nothing more happens)
		if d.Passing() {
			t.Errorf("%s: the closed progress is still a prompt", how)
		}
	}
}

// With its Cancel button focused (Tab), a progress still passes a digit, a letter and the keys
// the grid uses on to the window's handlers, as with nothing focused, and Escape still cancels;
// Space and Enter press the focused button (cancel). A widget.Button took the digit and dropped it.
func TestPassingFocusedButtonPassesKeys(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("t")
	defer win.Close()
	d := New(win, a.Preferences(), nil, nil)
	var runes []rune
	var keys []fyne.KeyName
	c := win.Canvas()
	c.SetOnTypedRune(func(r rune) { runes = append(runes, r) })
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if !d.Key(k) || k.Name != fyne.KeyEscape { // as the window's keyRouter: Escape answers the prompt
			keys = append(keys, k.Name)
		}
	})
	for _, press := range []fyne.KeyName{"", fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter, fyne.KeyEscape} {
		runes, keys = nil, nil
		cancelled := 0
		dlg := d.ShowPassing("progress", "Finding suspects", widget.NewLabel("reading"), func() { cancelled++ })
		c.FocusNext() // Tab
		b, ok := c.Focused().(*widgets.PassingButton)
		if !ok {
			t.Fatalf("Tab focused %T, not the progress's Cancel button", c.Focused())
		}
		test.Type(b, "7a")
		b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		if string(runes) != "7a" || len(keys) != 1 || keys[0] != fyne.KeyDown {
			t.Fatalf("the focused Cancel button passed runes %q and keys %v, want \"7a\" and [Down]", string(runes), keys)
		}
		if cancelled != 0 {
			t.Fatalf("typing on the focused Cancel button cancelled the job")
		}
		if press == "" {
			dlg.Hide()
			continue
		}
		b.TypedKey(&fyne.KeyEvent{Name: press})
		if press == fyne.KeySpace {
			b.TypedRune(' ') // the character of the Space pressed
		}
		if cancelled == 0 {
			t.Errorf("%s on the focused Cancel button did not cancel the job", press)
		}
		if string(runes) != "7a" || len(keys) != 1 {
			t.Errorf("%s on the focused Cancel button also went on: runes %q keys %v", press, string(runes), keys)
		}
		dlg.Hide()
		if d.Passing() {
			t.Errorf("%s: the closed progress is still a prompt", press)
		}
	}
}

// cancelButton is the Cancel button of the progress on top of win.
func cancelButton(t *testing.T, win fyne.Window) *widgets.PassingButton {
	t.Helper()
	var found *widgets.PassingButton
	walkOverlay(win, func(o fyne.CanvasObject) {
		if b, ok := o.(*widgets.PassingButton); ok {
			found = b
		}
	})
	if found == nil {
		t.Fatal("no Cancel button on the progress")
	}
	return found
}
