package ui

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/idx"
	"idxlabel/store"
)

// blockedSave starts a Save As of w's dataset to a temporary folder that stops inside the store's
// save (the dataset marked saving, its journal closed) until the returned func lets it go on; it
// returns once the save has stopped there, with the label file's path.
func blockedSave(t *testing.T, w *window, ds *store.Dataset) (string, func()) {
	t.Helper()
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "h-images-idx3-ubyte"), filepath.Join(dir, "h-labels-idx1-ubyte")
	inside, release := make(chan struct{}), make(chan struct{})
	var once, in sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the window's cleanup waits for the save, should the test stop early
	w.save.run(func(ctx context.Context, p func(float64)) error {
		return ds.SaveAsContext(ctx, ip, lp, func(f float64) {
			in.Do(func() { close(inside); <-release })
			p(f)
		})
	}, nil)
	<-inside
	if err := ds.Relabel([]int{0}, 1); err != store.ErrSaving {
		t.Fatalf("an edit inside the blocked save: %v, want ErrSaving", err)
	}
	return lp, let
}

// Digits typed while a save runs wait and are applied, in order, when it ends: none is dropped,
// each labels the sample it was typed for, and the cursor does not run ahead of them meanwhile.
// Before, the keys were dropped while the cursor still moved on, and the following digits
// labelled the wrong samples.
func TestKeysTypedDuringASaveWait(t *testing.T) {
	w, ds := demoWindow(t, false)
	orig := make([]int, ds.Len())
	for i := range orig {
		orig[i] = ds.Label(i)
	}
	w.c.moveCursor(0, false)
	test.Type(w.grid, "9") // sample 0, before the save
	if ds.Label(0) != 9 || w.c.v.Current() != 1 {
		t.Fatalf("before the save: label 0 = %d, cursor at %d", ds.Label(0), w.c.v.Current())
	}
	lp, let := blockedSave(t, w, ds)
	test.Type(w.grid, "12345678")
	if w.c.v.Current() != 1 {
		t.Fatalf("the cursor moved to %d while the keys wait: it ran ahead of the edits", w.c.v.Current())
	}
	for i := 1; i <= 8; i++ {
		if ds.Label(i) != orig[i] {
			t.Fatalf("sample %d relabelled during the save", i)
		}
	}
	if p := w.footer.progress.Text; !strings.Contains(p, "8 keys wait") {
		t.Fatalf("the status bar says %q, not that 8 keys wait", p)
	}
	let()
	waitFor(t, func() bool { return !w.jobs.Busy() })
	for i := range orig {
		want := orig[i]
		switch {
		case i == 0:
			want = 9
		case i <= 8:
			want = i
		}
		if ds.Label(i) != want {
			t.Fatalf("after the save: sample %d labelled %d, want %d", i, ds.Label(i), want)
		}
	}
	if w.c.v.Current() != 9 || !ds.Dirty() || len(w.c.in.held) != 0 {
		t.Fatalf("after the save: cursor at %d, dirty %v, %d inputs still wait", w.c.v.Current(), ds.Dirty(), len(w.c.in.held))
	}
	if s := w.footer.status.Text; !strings.Contains(s, "then applied 8 inputs made meanwhile") {
		t.Fatalf("the status bar says %q", s)
	}
	// The save wrote the dataset as it was when it began: sample 0 relabelled, 1–8 not.
	saved, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	for i := range orig {
		want := orig[i]
		if i == 0 {
			want = 9
		}
		if int(saved.Data[i]) != want {
			t.Fatalf("saved label %d is %d, want %d", i, saved.Data[i], want)
		}
	}
	// Each waiting edit was journaled: a second save writes them.
	if err := ds.Save(nil); err != nil {
		t.Fatal(err)
	}
	saved, err = idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 8; i++ {
		if int(saved.Data[i]) != i {
			t.Fatalf("second save: label %d is %d", i, saved.Data[i])
		}
	}
}

// Every kind of input made while a save runs (digits, arrows with and without Shift, Delete, Undo,
// Select All, a click on a tile, Escape) leaves the dataset and the cursor exactly as the same
// inputs leave them on a copy that is not saving.
func TestInputsDuringASaveAsIfTypedAfter(t *testing.T) {
	inputs := []func(w *window){
		func(w *window) { test.Type(w.grid, "1") },
		func(w *window) { w.grid.Key(&fyne.KeyEvent{Name: fyne.KeyRight}, false) },
		func(w *window) { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete}) },
		func(w *window) { w.grid.Key(&fyne.KeyEvent{Name: fyne.KeyDown}, false) },
		func(w *window) { test.Type(w.grid, "2") },
		func(w *window) { w.menu.undo.Action() },
		func(w *window) { test.Type(w.grid, "3") },
		func(w *window) { test.TapAt(w.grid, tileCenter(w.grid, 40)) },
		func(w *window) { w.grid.Key(&fyne.KeyEvent{Name: fyne.KeyRight}, true) },
		func(w *window) { w.grid.Key(&fyne.KeyEvent{Name: fyne.KeyRight}, true) },
		func(w *window) { test.Type(w.grid, "7") },
		func(w *window) { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) },
		func(w *window) { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete}) },
	}
	start := func() (*window, *store.Dataset) {
		w, ds := demoWindow(t, false)
		w.c.moveCursor(0, false)
		test.Type(w.grid, "5")
		return w, ds
	}
	want, wantDS := start()
	for _, in := range inputs {
		in(want)
	}
	got, gotDS := start()
	_, let := blockedSave(t, got, gotDS)
	for _, in := range inputs {
		in(got)
	}
	if gotDS.Counters().Edited != 1 || got.c.v.Current() != 1 {
		t.Fatalf("during the save: %d edited, cursor at %d", gotDS.Counters().Edited, got.c.v.Current())
	}
	let()
	waitFor(t, func() bool { return !got.jobs.Busy() })
	for i := range wantDS.Len() {
		if a, b := gotDS.State(i), wantDS.State(i); a.Label != b.Label || a.Deleted != b.Deleted {
			t.Fatalf("sample %d: label %d deleted %v after the save, want %d %v", i, a.Label, a.Deleted, b.Label, b.Deleted)
		}
	}
	if a, b := got.c.v.Current(), want.c.v.Current(); a != b {
		t.Fatalf("cursor on %d, want %d", a, b)
	}
	if a, b := got.c.v.Selection(), want.c.v.Selection(); len(a) != len(b) {
		t.Fatalf("selection %v, want %v", a, b)
	}
}

// Ctrl+K (find suspects) asked for while a save runs waits for it, then scans: it was refused.
func TestFindSuspectsDuringASaveWaits(t *testing.T) {
	w, ds := demoWindow(t, false)
	_, let := blockedSave(t, w, ds)
	menuAction(t, w, "Find Suspects")()
	if len(w.c.in.held) != 1 || w.c.mode == w.susp.Mode {
		t.Fatalf("during the save: %d inputs wait, mode %v", len(w.c.in.held), w.c.mode)
	}
	let()
	waitFor(t, func() bool { return !w.jobs.Busy() && w.c.mode == w.susp.Mode })
	w.scans.Stop()
}

// An input that waits with no cursor (the grid shows nothing) is made when the save ends, not
// taken for a key typed on a sample the save removed: Ctrl+Z then Ctrl+S during a save, with the
// Show list on Deleted (none), undo the relabel the save wrote and save again.
func TestInputWithoutACursorWaits(t *testing.T) {
	w, ds := demoWindow(t, false)
	orig := ds.Label(0)
	w.c.moveCursor(0, false)
	test.Type(w.grid, string(rune('0'+(orig+1)%10)))
	w.c.choose(browsing, store.Deleted)
	if w.c.v.Current() >= 0 {
		t.Fatal("the grid shows a sample")
	}
	lp, let := blockedSave(t, w, ds)
	menuAction(t, w, "Undo")()
	menuAction(t, w, "Save")()
	if len(w.c.in.held) != 2 {
		t.Fatalf("%d inputs wait, want 2", len(w.c.in.held))
	}
	let()
	waitFor(t, func() bool { return !w.jobs.Busy() && len(w.c.in.held) == 0 })
	saved, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	if int(saved.Data[0]) != orig || ds.Dirty() {
		t.Fatalf("saved label 0 is %d (want %d, the relabel undone), dirty %v", saved.Data[0], orig, ds.Dirty())
	}
}
