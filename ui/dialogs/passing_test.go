package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
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
		dlg := dialog.NewCustom("Import", "Cancel", container.NewVBox(widget.NewLabel("reading")), win)
		d.ShowPassing("progress", dlg, func() { cancelled++ })
		if !d.Passing() {
			t.Fatalf("%s: the progress is not the top prompt passing keys", how)
		}
		if how == "button" {
			dlg.Hide() // what the dismiss button's tap does (dialog.NewCustom)
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
