package ui

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// Edit → Class Names…: a field per class; Enter applies the names (shown at once, the title
// starred), and Save writes them beside the label file, where the pair opened again finds them.
func TestClassNamesDialog(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, ip, lp string) {
		q := queueUI(w)
		w.build.Names.Dialog()
		_, fields := overlayTexts(w)
		if len(fields) != 10 {
			t.Fatalf("Class Names shows %d fields for t10k's 10 classes", len(fields))
		}
		fields[3].SetText("three")
		fields[8].SetText(" eight ")
		fields[8].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if ds.ClassName(3) != "three" || ds.ClassName(8) != "eight" || ds.ClassName(1) != "" {
			t.Fatalf("names %q, %q, %q", ds.ClassName(3), ds.ClassName(8), ds.ClassName(1))
		}
		if got := w.c.classes.Long(3); got != "3 (three)" {
			t.Fatalf("class 3 is shown as %q", got)
		}
		if !strings.HasSuffix(w.win.Title(), "*") {
			t.Fatalf("title %q: the names are unsaved", w.win.Title())
		}
		w.save.save()
		waitUI(t, q, func() bool { return noJobs(w) && !ds.Dirty() })
		if _, err := os.Stat(lp + ".classes.txt"); err != nil {
			t.Fatalf("Save wrote no class-name file: %v", err)
		}
		ds.Close()
		again, err := store.Open(ip, lp, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		if again.ClassName(3) != "three" || again.ClassName(8) != "eight" {
			t.Fatalf("reopened: %q, %q", again.ClassName(3), again.ClassName(8))
		}
	})
}
