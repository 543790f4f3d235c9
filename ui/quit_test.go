package ui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"idxlabel/store"
)

// Quit during a save waits for the save, then quits (nothing left unsaved, so nothing to ask).
// Before, the "Unsaved edits" question came at once, and Discard deleted the journal and closed
// the dataset under the save.
func TestQuitDuringASaveWaitsForIt(t *testing.T) {
	w, ds := demoWindow(t, false)
	w.relabel((ds.Label(0) + 1) % 10)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "q-images-idx3-ubyte"), filepath.Join(dir, "q-labels-idx1-ubyte")
	release := make(chan struct{})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the window's cleanup waits for the save, should the test stop early
	w.runSave(func(p func(float64)) error {
		<-release // the save is under way until the test lets it go on
		return ds.SaveAs(ip, lp, p)
	}, nil)
	w.quit()
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("quit during a save asked a question at once")
	}
	if !strings.Contains(w.status.Text, "then quit") || !ds.Dirty() {
		t.Fatalf("status %q, dirty %v: want the quit waiting for the save", w.status.Text, ds.Dirty())
	}
	let()
	waitFor(t, func() bool { return !w.busy.Load() })
	if ds.Dirty() || w.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("after the save: dirty %v, a dialog open %v", ds.Dirty(), w.win.Canvas().Overlays().Top() != nil)
	}
	// The quit ran: the dataset is closed, so the saved pair's lock is released.
	if _, err := os.Stat(lp + store.LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("the saved pair is still locked after the quit: %v", err)
	}
	if err := ds.Relabel([]int{1}, 3); err != store.ErrClosed {
		t.Fatalf("an edit after the quit: %v, want ErrClosed", err)
	}
}
