package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// Quit during a save waits for the save, then quits (nothing left unsaved, so nothing to ask).
// Before, the "Unsaved edits" question came at once, and Discard deleted the journal and closed
// the dataset under the save.
func TestQuitDuringASaveWaitsForIt(t *testing.T) {
	w, ds := demoWindow(t, false)
	w.c.relabel((ds.Label(0) + 1) % 10)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "q-images-idx3-ubyte"), filepath.Join(dir, "q-labels-idx1-ubyte")
	release := make(chan struct{})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the window's cleanup waits for the save, should the test stop early
	w.save.run(func(ctx context.Context, p func(float64)) error {
		<-release // the save is under way until the test lets it go on
		return ds.SaveAsContext(ctx, ip, lp, p)
	}, nil)
	w.save.quit()
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("quit during a save asked a question at once")
	}
	if !strings.Contains(w.footer.progress.Text, "then quit") || !ds.Dirty() {
		t.Fatalf("progress %q, dirty %v: want the quit waiting for the save", w.footer.progress.Text, ds.Dirty())
	}
	let()
	waitFor(t, func() bool { return !w.jobs.Busy() })
	// The quit closes the dataset once the jobs' goroutines have ended (jobs.StopThen): its
	// lock goes then.
	waitFor(t, func() bool { _, err := os.Stat(lp + pairfile.LockSuffix); return os.IsNotExist(err) })
	if ds.Dirty() || w.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("after the save: dirty %v, a dialog open %v", ds.Dirty(), w.win.Canvas().Overlays().Top() != nil)
	}
	// The quit ran: the dataset is closed, so the saved pair's lock is released.
	if _, err := os.Stat(lp + pairfile.LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("the saved pair is still locked after the quit: %v", err)
	}
	if err := ds.Relabel([]int{1}, 3); err != store.ErrClosed {
		t.Fatalf("an edit after the quit: %v, want ErrClosed", err)
	}
}

// File → Cancel Save stops a save before it replaces the files: nothing written, the edits kept
// (unsaved), and a quit asked for during it dropped (the person reads why first).
func TestCancelSave(t *testing.T) {
	w, ds := demoWindow(t, false)
	w.c.relabel((ds.Label(0) + 1) % 10)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "c-images-idx3-ubyte"), filepath.Join(dir, "c-labels-idx1-ubyte")
	release := make(chan struct{})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let)
	cancelItem := menuItem(t, w, "File", "Cancel Save")
	if !cancelItem.Disabled {
		t.Fatal("Cancel Save is enabled with no save running")
	}
	w.save.run(func(ctx context.Context, p func(float64)) error {
		<-release
		return ds.SaveAsContext(ctx, ip, lp, p)
	}, nil)
	w.save.quit()
	if cancelItem.Disabled {
		t.Fatal("Cancel Save is disabled while a save runs")
	}
	cancelItem.Action()
	let()
	waitFor(t, func() bool { return !w.jobs.Busy() })
	if !ds.Dirty() || !strings.Contains(w.footer.status.Text, "Save cancelled") || !cancelItem.Disabled {
		t.Fatalf("after Cancel Save: dirty %v, status %q, item disabled %v", ds.Dirty(), w.footer.status.Text, cancelItem.Disabled)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a cancelled save left %v", entries)
	}
	if w.win.Canvas().Overlays().Top() != nil || ds.Relabel([]int{1}, 2) != nil {
		t.Fatal("the quit asked for during the cancelled save went ahead")
	}
}

// Quit closes the draw window with the main window; Ctrl+Q typed in the draw window (on the pad
// or in the label box) quits as in the main window. Before, the main window closed and the draw
// window kept the program alive.
func TestQuitClosesTheDrawWindow(t *testing.T) {
	for _, where := range []string{"menu", "pad", "label box"} {
		t.Run(where, func(t *testing.T) {
			w, ds := demoWindow(t, true)
			q := queueUI(w)
			w.draw.Show()
			d := w.draw.Open()
			if d == nil {
				t.Fatal("no draw window")
			}
			ctrlQ := widgets.Ctrl(fyne.KeyQ, false)
			switch where {
			case "menu":
				menuItem(t, w, "File", "Quit").Action()
			case "pad":
				d.Pad.TypedShortcut(ctrlQ)
			case "label box":
				d.Label.TypedShortcut(ctrlQ)
			}
			// The window closes once the jobs' goroutines have ended (jobs.StopThen), on the
			// UI thread (here, the test's goroutine running q).
			waitUI(t, q, func() bool { return w.draw.Open() == nil })
			if w.draw.Open() != nil {
				t.Fatal("the draw window is still open after Quit")
			}
			if err := ds.Relabel([]int{0}, 3); err != store.ErrClosed {
				t.Fatalf("the dataset is still open after Quit (relabel: %v)", err)
			}
		})
	}
}
