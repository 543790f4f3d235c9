package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// Edits that cancel out (another label typed on a sample, then its own typed back) show the
// dataset as saved: no star in the title, no "unsaved" on the status bar, and the question
// about unsaved edits is not asked; a real edit shows them again.
func TestEditsThatCancelOutShowSaved(t *testing.T) {
	w, ds, _, _ := digitsWindow(t, 50)
	c := w.c
	unsaved := func() bool {
		return strings.HasSuffix(c.title(), " *") || strings.Contains(w.footer.status.Text, "unsaved")
	}
	i := c.v.Current()
	own := ds.Label(i)
	test.Type(w.grid, string(rune('0'+(own+1)%10)))
	if !unsaved() {
		t.Fatalf("after an edit: title %q, status %q", c.title(), w.footer.status.Text)
	}
	c.moveCursor(c.v.pos[i], false)
	test.Type(w.grid, string(rune('0'+own)))
	if ds.Label(i) != own || unsaved() {
		t.Fatalf("its own label typed back: label %d (want %d), title %q, status %q", ds.Label(i), own, c.title(), w.footer.status.Text)
	}
	asked := false
	w.save.confirmUnsaved("Quit", func() { asked = true }, nil)
	if !asked {
		t.Fatal("the question about unsaved edits was asked for edits that cancel out")
	}
	test.Type(w.grid, string(rune('0'+(ds.Label(c.v.Current())+1)%10)))
	if !unsaved() {
		t.Fatalf("after a real edit: title %q", c.title())
	}
}

// At start, a new dataset's journal whose edits cancel out (a sample drawn, then undone: the
// window killed then) is not offered for restoring; it is left where it is. One with a sample
// is offered.
func TestNewDatasetThatChangesNothingIsNotOffered(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := os.MkdirAll(unsavedDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t)
	path := unsavedDir() + "/20260101-000000.idxlabel-journal"
	ds, err := store.New(28, 28, nil, nil, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.AppendAs(store.HowAddedDrawn, []store.Sample{{Pixels: make([]byte, 28*28), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ds.Undo(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	if err := os.WriteFile(path, b, 0o644); err != nil { // as a killed window leaves it
		t.Fatal(err)
	}
	w.files.offerUnsavedRecovery()
	if key, open := w.d.Top(); open {
		t.Fatalf("a new dataset whose edits cancel out offered (%q)", key)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the journal was not left where it was: %v", err)
	}

	ds, err = store.New(28, 28, nil, nil, path+"2.idxlabel-journal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.AppendAs(store.HowAddedDrawn, []store.Sample{{Pixels: make([]byte, 28*28), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	ds.Close()
	w.files.offerUnsavedRecovery()
	if key, open := w.d.Top(); !open || key != "unsaved dataset" {
		t.Fatalf("a new dataset with a sample not offered (%q, %v)", key, open)
	}
}

// At start, a new dataset's journal that a live window writes (another process's, or another
// dataset of this one: its lock is held) is not offered, nor counted among the older ones;
// once that window is gone it is offered, and restored. The journal offered is locked while
// the question is up: no other window can restore it meanwhile.
func TestNewDatasetOfALiveWindowIsNotOffered(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	live := filepath.Join(unsavedDir(), "20260101-000000"+pairfile.JournalSuffix)
	ds, err := store.New(28, 28, nil, nil, live)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.AppendAs(store.HowAddedDrawn, []store.Sample{{Pixels: make([]byte, 28*28), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t)
	w.files.offerUnsavedRecovery()
	if key, open := w.d.Top(); open {
		t.Fatalf("the journal a live window writes was offered (%q)", key)
	}
	ds.Close() // that window is gone, its edits unsaved
	w.files.offerUnsavedRecovery()
	if key, open := w.d.Top(); !open || key != "unsaved dataset" {
		t.Fatalf("the journal of a window gone is not offered (%q, %v)", key, open)
	}
	if _, err := store.OpenJournal(live); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("restoring, elsewhere, the journal offered here: %v, want refused", err)
	}
	if !w.d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn}) { // Restore
		t.Fatal("Enter did not answer the question")
	}
	if w.c.ds.Len() != 1 || w.c.name != "untitled (restored)" {
		t.Fatalf("restored %d samples as %q", w.c.ds.Len(), w.c.name)
	}
	if _, err := store.OpenJournal(live); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("restoring, elsewhere, the journal this window restored: %v, want refused", err)
	}
}
