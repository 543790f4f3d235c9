package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
)

// A minus sign typed on the grid opens the class picker holding it, so "-8" is read as -8, not
// as 8 after a minus dropped: Enter asks for label -8, which the store refuses (no label file
// idxlabel writes holds it) with an error the window shows on the status bar (an edit refused is
// said there, never in a dialog); the label stays 5, never 8.
func TestClassPickerKeepsTheMinusSign(t *testing.T) {
	for _, n := range []int{10, 47} { // one-digit classes (digits relabel at once) and more
		w := newTestWindow(t)
		classes := make([]int, n)
		for c := range classes {
			classes[c] = c
		}
		ds, err := store.New(28, 28, classes, nil, filepath.Join(t.TempDir(), "j"+pairfile.JournalSuffix))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ds.Abandon(); ds.Close() })
		if _, err := ds.Append([]store.Sample{{Pixels: make([]byte, 28*28), Label: 5}}); err != nil {
			t.Fatal(err)
		}
		w.c.setDataset(ds, "untitled", false)
		w.c.moveCursor(0, false)
		w.grid.TypedRune('-')
		var entry *dialogs.PromptEntry
		walkOverlay(w, func(o fyne.CanvasObject) {
			if e, ok := o.(*dialogs.PromptEntry); ok {
				entry = e
			}
		})
		if entry == nil || entry.Text != "-" {
			t.Fatalf("%d classes: typing - did not open the class picker holding it: %v", n, entry)
		}
		test.Type(entry, "8")
		entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if got, said := ds.Label(0), w.footer.status.Text; got != 5 || !strings.HasPrefix(said, "Not done: ") || w.d.Covered() {
			t.Fatalf("%d classes: -, 8, Enter relabelled as %d (want 5 kept); the status bar says %q, a dialog open %v", n, got, said, w.d.Covered())
		}
	}
}
