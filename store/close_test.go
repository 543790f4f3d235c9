package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"idxlabel/pairfile"
)

// Close during a save waits for it: the save writes and renames its files, and moves to the new
// pair's lock, while the pair is still locked; Close then releases that lock. Before, Close
// released the lock at once, so another window could open the pair for editing while the save
// was still renaming files into it, and a Save As then took the new pair's lock for a closed
// dataset, leaving that pair locked for the rest of the process.
func TestCloseWaitsForASave(t *testing.T) {
	t.Cleanup(func() { closeWaits = nil })
	for _, as := range []bool{false, true} {
		ip, lp := writeTestPair(t, 500, 8, 8)
		d, toI, toL := editForSave(t, ip, lp, as, "")
		closed := make(chan error, 1)
		waiting := make(chan struct{})
		closeWaits = func() { close(waiting) }
		var once sync.Once
		early := false   // Close returned while the save was running
		var during error // an Open of the target pair while the save writes, after Close was called
		progress := func(f float64) {
			once.Do(func() {
				go func() { closed <- d.Close() }()
				select {
				case <-waiting: // Close has seen the save and waits for it
				case err := <-closed:
					early = true
					closed <- err
				}
			})
			if f == 0.8 { // written and verified, not yet renamed
				if e, err := Open(toI, toL, Options{}); err == nil {
					e.Close()
				} else {
					during = err
				}
			}
		}
		var err error
		if as {
			err = saveAs(d, toI, toL, progress)
		} else {
			err = d.Save(progress)
		}
		if err != nil {
			t.Fatalf("save as %v: %v", as, err)
		}
		if err := <-closed; err != nil || early {
			t.Fatalf("close: %v; returned before the save ended: %v", err, early)
		}
		closeWaits = nil
		if !as && !errors.Is(during, pairfile.ErrLocked) {
			t.Fatalf("while the save wrote, after Close was called, the pair opened for editing (%v)", during)
		}
		e, err := Open(toI, toL, Options{})
		if err != nil {
			t.Fatalf("save as %v: the saved pair after Close: %v", as, err)
		}
		if e.Len() != 499 || e.Label(0) != 1 || e.Recovery() != nil {
			t.Fatalf("saved pair: %d samples, label 0 = %d, recovery %v; want 499, 1, none", e.Len(), e.Label(0), e.Recovery())
		}
		e.Close()
	}
}

// A save cancelled while it writes changes nothing on disk and keeps the edits (unsaved, still
// journaled): a later save writes them.
func TestSaveCancelled(t *testing.T) {
	for _, as := range []bool{false, true} {
		ip, lp := writeTestPair(t, 300, 8, 8)
		before := readPair(t, ip, lp)
		d, toI, toL := editForSave(t, ip, lp, as, ".gz")
		ctx, cancel := context.WithCancel(context.Background())
		progress := func(float64) { cancel() } // first called once the arrays are built
		var err error
		if as {
			err = d.SaveAsContext(ctx, toI, toL, progress)
		} else {
			err = d.SaveContext(ctx, progress)
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("save as %v, cancelled: %v", as, err)
		}
		if !readPair(t, ip, lp).equal(before) || !d.Dirty() {
			t.Fatalf("save as %v: a cancelled save changed the pair, or left the dataset clean (%v)", as, d.Dirty())
		}
		if entries, _ := os.ReadDir(filepath.Dir(toL)); as && len(entries) != 0 {
			t.Fatalf("a cancelled Save As left %v", entries)
		}
		// The dataset goes on: another edit is journaled, and a save writes them all.
		mustDo(t, d.Relabel([]int{2}, 5))
		if as {
			err = saveAs(d, toI, toL, nil)
		} else {
			err = d.Save(nil)
		}
		if err != nil {
			t.Fatalf("save after the cancelled one: %v", err)
		}
		d.Close()
		e, err := Open(toI, toL, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if e.Len() != 299 || e.Label(0) != 1 || e.Label(1) != 5 || e.Recovery() != nil {
			t.Fatalf("saved: %d samples, labels %d %d, recovery %v", e.Len(), e.Label(0), e.Label(1), e.Recovery())
		}
		e.Close()
	}
}

// editForSave opens the pair, relabels sample 0 to 1 and deletes sample 1, and returns the
// dataset and where to save it: its own files, or (as) a new pair in a temporary folder whose
// names end in suffix.
func editForSave(t *testing.T, ip, lp string, as bool, suffix string) (*Dataset, string, string) {
	t.Helper()
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel([]int{0}, 1))
	mustDo(t, d.Delete([]int{1}))
	if !as {
		return d, ip, lp
	}
	dir := t.TempDir()
	return d, filepath.Join(dir, "as-images-idx3-ubyte"+suffix), filepath.Join(dir, "as-labels-idx1-ubyte"+suffix)
}
