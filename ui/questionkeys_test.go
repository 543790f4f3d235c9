package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// The window's questions (File → Export…, Export Change Log…, Save As…, Save Shown As…, Class
// Names…, Split Dataset…, Check Dataset…, the question about unsaved edits) each answer Escape
// typed with one of their buttons focused (Shift+Tab: the last button, the one that does the
// thing) by closing, having done nothing: as with nothing focused. A widget.Button, focused,
// took Escape and dropped it, and the dialog stayed open.
func TestQuestionsAnswerEscapeWithAButtonFocused(t *testing.T) {
	w, ds, _, _ := digitsWindow(t, 60)
	c := w.win.Canvas()
	for _, q := range []struct {
		name string
		open func()
	}{
		{"Export…", menuAction(t, w, "Export…")},
		{"Export Change Log…", menuAction(t, w, "Export Change Log…")},
		{"Save As…", menuAction(t, w, "Save As…")},
		{"Save Shown As…", menuAction(t, w, "Save Shown As…")},
		{"Class Names…", menuAction(t, w, "Class Names…")},
		{"Split Dataset…", menuAction(t, w, "Split Dataset…")},
		{"Check Dataset…", menuAction(t, w, "Check Dataset…")},
		{"the question about unsaved edits", func() {
			if err := ds.Relabel([]int{0}, (ds.Label(0)+1)%10); err != nil {
				t.Fatal(err)
			}
			w.c.drain()
			w.save.confirmUnsaved("open another dataset", func() { t.Error("the unsaved edits' question went on") }, func() {})
		}},
	} {
		q.open()
		top, open := w.d.Top()
		if !open {
			t.Fatalf("%s opened no dialog", q.name)
		}
		c.FocusPrevious() // Shift+Tab: the last button
		f := c.Focused()
		if f == nil || !strings.Contains(strings.ToLower(typeName(f)), "button") {
			t.Fatalf("%s: Shift+Tab focused %s, not a button", q.name, typeName(f))
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if now, open := w.d.Top(); open && now == top {
			t.Errorf("%s: Escape on its focused %s left it open", q.name, typeName(f))
			c.Overlays().Top().Hide()
		}
	}
}

// typeName is the Go type of o ("<nil>" for none).
func typeName(o any) string { return fmt.Sprintf("%T", o) }
