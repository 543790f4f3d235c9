package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/rodir"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// File → Open of a pair in a folder that cannot be written (a read-only mount: rodir) says so
// at once, in a note on top: the folder cannot be written, the edits are kept safe in the
// per-user journal, File → Save As… writes the dataset elsewhere. (Before, the window said
// nothing until Ctrl+S was refused.) The keys typed right after the note is closed (Enter, then
// a label, an arrow and a label) are every one applied and journaled in the per-user folder.
func TestOpenInAFolderThatCannotBeWrittenSaysSo(t *testing.T) {
	openInAFolderThatCannotBeWritten(t, false)
}

// The same, in a folder made read-only after lock files were left beside the pair: its locks are
// taken there without writing, and the window says the same as for any such folder. (Before, it
// said nothing, and the journal went to the per-user folder at the first edit unannounced.)
func TestOpenInAFolderThatCannotBeWrittenWithLocksLeftSaysSo(t *testing.T) {
	openInAFolderThatCannotBeWritten(t, true)
}

// openInAFolderThatCannotBeWritten is the test of both: locksLeft leaves empty lock files beside
// the pair's files before the folder is made read-only.
func openInAFolderThatCannotBeWritten(t *testing.T, locksLeft bool) {
	t.Helper()
	var images, labels string
	dir, here := rodir.Enter(t, func(dir string) {
		writeDemoPair(t, dir, "ro")
		if locksLeft {
			for _, f := range []string{"ro-images-idx3-ubyte", "ro-labels-idx1-ubyte"} {
				if err := os.WriteFile(pairfile.LockFile(filepath.Join(dir, f)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	if !here {
		return
	}
	images, labels = filepath.Join(dir, "ro-images-idx3-ubyte"), filepath.Join(dir, "ro-labels-idx1-ubyte")
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	w, _ := demoWindow(t, true)
	w.files.load(images, labels, false)
	waitFor(t, func() bool { p, _ := w.c.ds.Paths(); return !w.jobs.Busy() && p == images })
	text := strings.ReplaceAll(overlayText(w), "\n", " ")
	for _, want := range []string{"cannot be written", "kept safe", "per-user journal", "File → Save As… writes the dataset"} {
		if !strings.Contains(text, want) {
			t.Fatalf("opening a pair in a folder that cannot be written: the note %q does not say %q", text, want)
		}
	}
	ds := w.c.ds
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("Enter did not close the note: %q", overlayText(w))
	}
	w.keys.canvasRune('5')
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	w.keys.canvasRune('7')
	if log := ds.ChangeLog(); len(log) != 2 || log[0].New != 5 || log[1].New != 7 {
		t.Fatalf("after the note, 5, Right, 7 made the changes %+v (want two: to 5, then to 7)", log)
	}
	ds.Close()
	again, err := store.Open(images, labels, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	rec := again.Recovery()
	if rec == nil || rec.Edits != 2 || !strings.HasPrefix(rec.Path, pairfile.FallbackDir()) {
		t.Fatalf("the edits typed after the note: journal %+v (want 2 edits in %s)", rec, pairfile.FallbackDir())
	}
}
