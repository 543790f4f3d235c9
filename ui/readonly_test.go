package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/demo"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// A read-only window refuses every edit and save on the status bar, and never with a dialog: a
// burst of digits, Delete, undo, Ctrl+S, Save As, a letter (the class picker) and Import leave
// the samples as they were, the cursor where it was, and no dialog open. Before, the first digit
// opened a modal error, and every later key waited behind it.
func TestReadOnlyRefusesEditsOnTheStatusBar(t *testing.T) {
	w, ds, _, _ := demoPairWindow(t, "ro", store.Options{ReadOnly: true})
	w.c.moveCursor(3, false)
	before := ds.Label(3)
	keys := []func(){
		func() { test.Type(w.grid, "5") },
		func() { test.Type(w.grid, "7") },
		func() { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete}) },
		func() { test.Type(w.grid, "a") },
		func() { menuItem(t, w, "Edit", "Undo").Action() },
		func() { menuItem(t, w, "File", "Save").Action() },
		func() { menuItem(t, w, "File", "Save As…").Action() },
		func() { menuItem(t, w, "Edit", "Relabel Selection…").Action() },
		func() { menuItem(t, w, "File", "Import Images…").Action() },
		func() { test.Type(w.grid, "9") },
	}
	for k, key := range keys {
		key()
		if w.win.Canvas().Overlays().Top() != nil {
			t.Fatalf("key %d opened a dialog: %q", k, overlayText(w))
		}
		if !strings.Contains(w.footer.status.Text, "Read-only") {
			t.Fatalf("key %d: status %q", k, w.footer.status.Text)
		}
	}
	if ds.Label(3) != before || ds.State(3).Deleted || ds.Dirty() || w.c.v.cursor != 3 {
		t.Fatalf("label %d (was %d), deleted %v, dirty %v, cursor %d", ds.Label(3), before, ds.State(3).Deleted, ds.Dirty(), w.c.v.cursor)
	}
}

// demoPairWindow shows the demo's digits, written as the pair base (writeDemoPair) and opened
// with opts, in a headless main window of the default size; it returns the pair's paths too.
func demoPairWindow(t *testing.T, base string, opts store.Options) (w *window, ds *store.Dataset, images, labels string) {
	t.Helper()
	images, labels = writeDemoPair(t, t.TempDir(), base)
	ds, err := store.Open(images, labels, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	w = newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	w.c.setDataset(ds, filepath.Base(labels), false)
	return w, ds, images, labels
}

// writeDemoPair writes the demo's 300 labelled digits as the pair "<base>-images-idx3-ubyte",
// "<base>-labels-idx1-ubyte" in dir and returns their paths.
func writeDemoPair(t *testing.T, dir, base string) (images, labels string) {
	t.Helper()
	im, lb, err := demo.Arrays()
	if err != nil {
		t.Fatal(err)
	}
	images, labels = filepath.Join(dir, base+"-images-idx3-ubyte"), filepath.Join(dir, base+"-labels-idx1-ubyte")
	if err := pairfile.WritePair(images, labels, im, lb); err != nil {
		t.Fatal(err)
	}
	return images, labels
}
