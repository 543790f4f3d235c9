package ui

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// Each change of the store is drained once: an edit made on the UI thread (a digit, Delete, an
// undo) is applied to the view within the key and schedules no second drain; a change made
// elsewhere (here an append made behind the controller's back, as a save's renumbering is) is
// left to exactly one scheduled drain.
func TestOneDrainPerChange(t *testing.T) {
	w, ds := demoWindow(t, false)
	drain := reflect.ValueOf(w.c.drain).Pointer()
	var later []func()
	drains := 0
	w.jobs.Schedule = func(f func()) {
		if reflect.ValueOf(f).Pointer() == drain {
			drains++
		}
		later = append(later, f)
	}
	cur := w.c.v.Current()
	label := (ds.Label(cur) + 1) % 10
	w.grid.TypedRune(rune('0' + label))
	if ds.Label(cur) != label || w.c.v.gen != ds.Gen() || drains != 0 {
		t.Fatalf("a digit: label %d (want %d), view at generation %d of %d, %d drains scheduled", ds.Label(cur), label, w.c.v.gen, ds.Gen(), drains)
	}
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	w.c.undo()
	if w.c.v.gen != ds.Gen() || drains != 0 {
		t.Fatalf("a delete and its undo: view at generation %d of %d, %d drains scheduled", w.c.v.gen, ds.Gen(), drains)
	}
	n := ds.Len()
	if _, err := ds.Append([]store.Sample{{Pixels: make([]byte, 28*28), Label: 1}}); err != nil {
		t.Fatal(err)
	}
	if drains != 1 || w.c.v.Len() != n {
		t.Fatalf("a change from elsewhere: %d drains scheduled (want 1), view %d positions before it ran", drains, w.c.v.Len())
	}
	for _, f := range later {
		f()
	}
	if w.c.v.Len() != n+1 || w.c.v.gen != ds.Gen() {
		t.Fatalf("after the scheduled drain: view %d positions at generation %d; store %d at %d", w.c.v.Len(), w.c.v.gen, ds.Len(), ds.Gen())
	}
}
