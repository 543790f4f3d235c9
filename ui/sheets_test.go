package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/sheetgen"
	"idxlabel/sheets"
	"idxlabel/ui/testhook"
)

// File → Import Sheets… on generated scans, into the open pair: Enter imports what the dialog
// shows; the samples are those import-sheets reads (sheets.ReadAll), added at the end as one
// undoable step, each badged as added with its sheet, box and writer as its source; the dialog's
// reading of the sheets has stopped. Undo removes them all, redo brings them back. Escape on
// the import's progress cancels it, and nothing is added.
func TestImportSheetsAddsOneUndoableStep(t *testing.T) {
	w, ds, _, _ := digitsWindow(t, 200)
	q := queueUI(w)
	dir := t.TempDir()
	images, labels := digits.Load(t, 2000)
	if _, err := sheetgen.WriteJPEGs(dir, sheetgen.MNISTDigits(images.Data, labels.Data),
		sheetgen.Options{Kind: sheetgen.Scan, Seed: 300, DPI: 150, TouchShare: -1}, 80, "s-1.jpg", "s-2.jpg"); err != nil {
		t.Fatal(err)
	}
	srcs, _, err := sheets.List([]string{dir}, sheets.WriterIndex)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sheets.ReadAll(context.Background(), srcs, sheets.DefaultLayout(), sheets.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := ds.Len()

	// Escape on the import's progress cancels it: nothing is added (the gate, never opened, holds
	// the job until then).
	t.Setenv(testhook.ImportGate, filepath.Join(t.TempDir(), "never"))
	w.sheet.Show([]string{dir})
	waitUI(t, q, func() bool { return w.d.IsOpen("import sheets") })
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return w.d.IsOpen("progress") })
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	waitUI(t, q, func() bool { return noJobs(w) })
	if ds.Len() != n || !strings.Contains(w.footer.status.Text, "cancelled") {
		t.Fatalf("a cancelled import left %d samples (want %d), status %q", ds.Len(), n, w.footer.status.Text)
	}
	t.Setenv(testhook.ImportGate, "")

	w.sheet.Show([]string{dir})
	waitUI(t, q, func() bool { return w.d.IsOpen("import sheets") })
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter imports
	waitUI(t, q, func() bool { return noJobs(w) && w.d.IsOpen("sheets report") })
	if got := ds.Len() - n; got != want.N() {
		t.Fatalf("%d samples added; import-sheets reads %d", got, want.N())
	}
	sources := want.Sources([]string{dir}, true)
	for k := range want.N() {
		i := n + k
		st := ds.State(i)
		src, _ := ds.SourceAt(w.c.v.Gen(), i)
		if st.Label != want.Labels[k] || !st.Added || src != sources[k] || !slices.Equal(ds.Pixels(i), want.Pixels[k*784:(k+1)*784]) {
			t.Fatalf("sample %d: label %d, added %v, source %q; want label %d, added, source %q, import-sheets' pixels", i, st.Label, st.Added, src, want.Labels[k], sources[k])
		}
	}
	w.c.undo()
	if ds.Len() != n {
		t.Fatalf("one undo left %d samples; want %d", ds.Len(), n)
	}
	w.c.redo()
	if ds.Len() != n+want.N() {
		t.Fatalf("redo left %d samples; want %d", ds.Len(), n+want.N())
	}
}
