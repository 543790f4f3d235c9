package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Ctrl+Z after a save undoes the saved relabel: the store and the grid's badge go back at once,
// the Edit menu names the step before and after, the title says unsaved again, and until then
// the save kept the edited badge and Show → Edited (what changed since the files were opened).
func TestUndoAfterSave(t *testing.T) {
	w, ds := demoWindow(t, false)
	g := w.grid
	was := ds.Label(4)
	to := (was + 1) % 10
	edited := strconv.Itoa(was) + "→" + strconv.Itoa(to)
	test.TapAt(g, tileCenter(g, 4))
	test.Type(g, strconv.Itoa(to))
	if ds.Label(4) != to || !slices.Contains(badgeTexts(g), edited) {
		t.Fatalf("relabel: label %d, badges %v", ds.Label(4), badgeTexts(g)[:8])
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "u-images-idx3-ubyte"), filepath.Join(dir, "u-labels-idx1-ubyte")
	w.save.run(func(ctx context.Context, p func(float64)) error { return ds.SaveAsContext(ctx, ip, lp, p) }, nil)
	waitFor(t, func() bool { return !w.jobs.Busy() })
	name := "Relabel sample 4 as " + strconv.Itoa(to)
	if ds.Dirty() || strings.HasSuffix(w.win.Title(), "*") || w.menu.undo.Label != "Undo "+name || w.menu.undo.Disabled {
		t.Fatalf("after the save: dirty %v, title %q, undo item %q", ds.Dirty(), w.win.Title(), w.menu.undo.Label)
	}
	if !slices.Contains(badgeTexts(g), edited) {
		t.Fatalf("the save hid the edited badge: %v", badgeTexts(g)[:8])
	}
	w.side.showList.SetSelected("Edited")
	if w.c.v.Len() != 1 || w.c.v.At(0) != 4 {
		t.Fatalf("Show → Edited after the save shows %d samples", w.c.v.Len())
	}
	w.side.showList.SetSelected("All")

	w.c.moveCursor(0, false)
	w.menu.undo.Action() // what Ctrl+Z runs
	if ds.Label(4) != was || slices.Contains(badgeTexts(g), edited) || !slices.Contains(badgeTexts(g)[:8], strconv.Itoa(was)) {
		t.Fatalf("undo after the save: label %d, badges %v", ds.Label(4), badgeTexts(g)[:8])
	}
	if w.c.v.Current() != 4 || !strings.Contains(w.detail.info.Text, "not saved") {
		t.Fatalf("undo after the save: cursor on %d, detail %q", w.c.v.Current(), w.detail.info.Text)
	}
	if !ds.Dirty() || !strings.HasSuffix(w.win.Title(), "*") || w.menu.redo.Label != "Redo "+name || !w.menu.undo.Disabled {
		t.Fatalf("undo after the save: dirty %v, title %q, items %q %q", ds.Dirty(), w.win.Title(), w.menu.undo.Label, w.menu.redo.Label)
	}
	w.menu.redo.Action()
	if ds.Label(4) != to || ds.Dirty() || !slices.Contains(badgeTexts(g), edited) {
		t.Fatalf("redo: label %d, dirty %v", ds.Label(4), ds.Dirty())
	}
}
