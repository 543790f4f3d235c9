package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// A new dataset's journal is held by the dataset writing it: while it is open no other dataset
// (another window, another process) restores it with OpenJournal or starts another new dataset
// on it; once it is closed (a crash leaves its journal) it is restored, and the restoring
// dataset holds it in turn; its first save lets the lock go.
func TestNewDatasetJournalIsLocked(t *testing.T) {
	dir := t.TempDir()
	jp := filepath.Join(dir, "unsaved", "20260101-000000"+pairfile.JournalSuffix)
	d, err := New(28, 28, nil, nil, jp)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, 784)
	px[300] = 255
	if _, err := d.Append([]Sample{{Pixels: px, Label: 4}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jp); err != nil {
		t.Fatalf("no journal after an edit: %v", err)
	}
	if e, err := OpenJournal(jp); !errors.Is(err, pairfile.ErrLocked) {
		if e != nil {
			e.Close()
		}
		t.Fatalf("OpenJournal of a journal a live dataset writes: %v, want refused (pairfile.ErrLocked)", err)
	}
	if e, err := New(28, 28, nil, nil, jp); !errors.Is(err, pairfile.ErrLocked) {
		if e != nil {
			e.Close()
		}
		t.Fatalf("New on a journal a live dataset writes: %v, want refused", err)
	}
	if _, err := d.Append([]Sample{{Pixels: px, Label: 5}}); err != nil {
		t.Fatalf("the live dataset's next edit: %v", err)
	}
	d.Close() // a crash: the journal stays

	e, err := OpenJournal(jp)
	if err != nil {
		t.Fatal(err)
	}
	if e.Len() != 2 {
		t.Fatalf("restored %d samples, want 2", e.Len())
	}
	if _, err := OpenJournal(jp); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("a second restore of a restored journal: %v, want refused", err)
	}
	ip, lp := filepath.Join(dir, "new-images-idx3-ubyte"), filepath.Join(dir, "new-labels-idx1-ubyte")
	if err := saveAs(e, ip, lp, nil); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	l, err := pairfile.LockJournal(jp)
	if err != nil {
		t.Fatalf("the journal's lock after the first save: %v, want let go", err)
	}
	l.Release()
	if _, err := os.Lstat(jp + pairfile.LockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock file left beside the saved dataset's old journal: %v", err)
	}
}
