package ui

import (
	"idxlabel/ui/widgets"
	"testing"

	"fyne.io/fyne/v2"
)

// Closing the draw window (Ctrl+W there) gives the keys back to the main window's grid: without
// a window manager nothing else did, and keys typed next went nowhere.
func TestDrawWindowCloseGivesTheGridTheKeys(t *testing.T) {
	w, _ := demoWindow(t, true)
	w.draw.Show()
	d := w.draw.Open()
	if d == nil {
		t.Fatal("no draw window")
	}
	w.win.Canvas().Focus(nil)
	if !d.TypedShortcut(widgets.Ctrl(fyne.KeyW, false)) {
		t.Fatal("Ctrl+W is not a shortcut of the draw window")
	}
	if w.draw.Open() != nil {
		t.Fatal("Ctrl+W did not close the draw window")
	}
	if w.win.Canvas().Focused() != w.grid {
		t.Fatalf("after the draw window closed the main window's focus is %v, not the grid", w.win.Canvas().Focused())
	}
}
