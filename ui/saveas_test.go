package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// Save As into a folder that does not exist: Enter in the folder field presses Save (it did
// nothing), the window offers to create the folder, and Enter there creates it and saves.
// Before, the save failed: "Cannot create the lock file … no such file or directory".
func TestSaveAsIntoANewFolder(t *testing.T) {
	w, ds := demoWindow(t, false)
	w.save.saveAs()
	_, entries := overlayTexts(w)
	if len(entries) < 2 {
		t.Fatalf("Save As shows %d text fields", len(entries))
	}
	folder := entries[0]
	dir := filepath.Join(t.TempDir(), "new", "folder")
	folder.SetText(dir)
	w.win.Canvas().Focus(folder)
	folder.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if text := overlayText(w); !strings.Contains(text, "does not exist") {
		t.Fatalf("Enter in the folder field: the dialog on top says %q", text)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // yes: create it
	waitFor(t, func() bool { return !w.jobs.Busy() })
	for _, name := range []string{"mydata-images-idx3-ubyte.gz", "mydata-labels-idx1-ubyte.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("%s not saved: %v (dialog: %q)", name, err, overlayText(w))
		}
	}
	if images, _ := ds.Paths(); filepath.Dir(images) != dir || ds.Dirty() {
		t.Fatalf("the dataset's files are %s, dirty %v", images, ds.Dirty())
	}
}

// An error already on screen is not stacked again: Ctrl+S three times on files the window cannot
// write shows one dialog, and one Enter closes it.
func TestSameErrorIsNotStacked(t *testing.T) {
	w, _ := demoWindow(t, false)
	for range 3 {
		w.d.ShowError(fs.ErrPermission)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("a second copy of the error is still open")
	}
}
