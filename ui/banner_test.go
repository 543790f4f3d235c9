package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// bannerShown returns the text of the line above the grid when it is shown ("" otherwise).
func bannerShown(w *window) string {
	text := ""
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && strings.HasPrefix(l.Text, "This is the demo") {
			text = l.Text
		}
		if c, ok := o.(*fyne.Container); ok && c.Visible() {
			for _, k := range c.Objects {
				walk(k)
			}
		}
	}
	walk(w.win.Content())
	return text
}

// The demo says what it is and how to open one's own files; a dataset of one's own does not.
func TestDemoSaysWhatItIs(t *testing.T) {
	w, _ := demoWindow(t, true)
	if b := bannerShown(w); !strings.Contains(b, "File → Open…") {
		t.Fatalf("the demo's line above the grid: %q", b)
	}
	w.c.rename("mine-labels-idx1-ubyte") // saved as one's own files: no demo any more
	w.c.refresh()
	if b := bannerShown(w); b != "" {
		t.Fatalf("a saved demo still shows %q", b)
	}
}
