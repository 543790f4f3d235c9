package ui

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"idxlabel/demo"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// newTestWindow builds a main window in a headless test app. Its background work is stopped and
// waited for when the test ends, after the test's own cleanups: the test driver runs fyne.Do
// inline, so a scan or training still running would touch widgets (and Fyne's shared caches)
// while the next test builds its window.
func newTestWindow(t testing.TB) *window {
	t.Helper()
	a := test.NewTempApp(t)
	w := newWindow(a, a.NewWindow(Title))
	t.Cleanup(w.jobs.StopAll)
	return w
}

// demoWindow shows the generated demo dataset in a headless main window; isDemo says whether the
// window treats it as the demo (closing it asks nothing).
func demoWindow(t *testing.T, isDemo bool) (*window, *store.Dataset) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	ds, err := demo.Dataset()
	if err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "demo", isDemo)
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	return w, ds
}

// classRow returns the histogram row (list item id) of class c.
func histogramRow(t *testing.T, w *window, c int) int {
	t.Helper()
	for k, cc := range w.side.counts {
		if cc.Class == c {
			return k + 1
		}
	}
	t.Fatalf("class %d is not in the histogram", c)
	return 0
}

func countOf(ds *store.Dataset, c int) int {
	for _, cc := range ds.Counts() {
		if cc.Class == c {
			return cc.Count
		}
	}
	return 0
}

// TestKeysReachGridAfterClassClick: a click on a class (the list takes the focus, then
// selects) gives the keys back to the grid, so Ctrl+A then 8 relabels the class.
func TestKeysReachGridAfterClassClick(t *testing.T) {
	w, ds := demoWindow(t, true)
	c := w.win.Canvas()
	three, eight := countOf(ds, 3), countOf(ds, 8)
	if three == 0 {
		t.Fatal("the demo has no 3s")
	}
	c.Focus(w.side.list) // what a tap on a row does first
	w.side.list.Select(histogramRow(t, w, 3))
	if c.Focused() != w.grid {
		t.Fatalf("after a class click the focus is on %T, not the grid", c.Focused())
	}
	if w.c.v.Len() != three {
		t.Fatalf("the class filter shows %d samples, want %d", w.c.v.Len(), three)
	}
	w.c.selectAll()
	c.Focused().TypedRune('8')
	if got := countOf(ds, 3); got != 0 {
		t.Fatalf("after Ctrl+A, 8: %d samples still labelled 3", got)
	}
	if got := countOf(ds, 8); got != eight+three {
		t.Fatalf("after Ctrl+A, 8: %d samples labelled 8, want %d", got, eight+three)
	}
}

// TestSidePanelPassesEditingKeys: the class list, the tile-size slider and the Show choice keep
// only their own keys while focused (by keyboard, say) and pass digits and Delete to the grid.
func TestSidePanelPassesEditingKeys(t *testing.T) {
	w, ds := demoWindow(t, true)
	c := w.win.Canvas()
	for _, f := range []fyne.Focusable{w.side.list, w.side.zoom, w.side.showList} {
		i := w.c.v.Current()
		want := (ds.Label(i) + 1) % 10
		c.Focus(f)
		f.TypedRune(rune('0' + want))
		if got := ds.Label(i); got != want {
			t.Fatalf("%T focused: a typed %d left sample %d labelled %d", f, want, i, got)
		}
		if c.Focused() != w.grid {
			t.Fatalf("%T passed a digit on but kept the focus", f)
		}
		i = w.c.v.Current()
		c.Focus(f)
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
		if !ds.State(i).Deleted {
			t.Fatalf("%T focused: Delete did not delete sample %d", f, i)
		}
	}
	// Their own keys stay theirs: Down moves the list's focus, not the grid's cursor.
	cur := w.c.v.cursor
	c.Focus(w.side.list)
	w.side.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if w.c.v.cursor != cur {
		t.Fatalf("Down on the focused class list moved the grid's cursor from %d to %d", cur, w.c.v.cursor)
	}
}

// A modifier key pressed alone on a focused control (Shift, the start of Shift+Tab) leaves the
// focus on it: handed on to the grid, it took the focus there, and Shift+Tab from the control
// went back to the grid instead of the control before it.
func TestModifierKeepsFocus(t *testing.T) {
	w, _ := demoWindow(t, true)
	c := w.win.Canvas()
	for _, f := range []fyne.Focusable{w.side.list, w.side.zoom, w.side.showList} {
		for _, k := range []fyne.KeyName{desktop.KeyShiftLeft, desktop.KeyShiftRight, desktop.KeyControlLeft, desktop.KeyAltLeft, desktop.KeySuperLeft} {
			c.Focus(f)
			f.TypedKey(&fyne.KeyEvent{Name: k})
			if c.Focused() != f {
				t.Fatalf("%s typed on the focused %T took the focus to %T", k, f, c.Focused())
			}
		}
	}
}

// focusedPassesDigit focuses f, a control of a view beside the grid (as Tab does), types a digit
// to it and fails unless the digit reached the grid as if nothing had the focus: it relabelled
// the sample at the cursor (or waits for a job holding edits, held.go) and the grid has the keys
// again. A widget.Button, Check or Select dropped it.
func focusedPassesDigit(t *testing.T, w *window, ds *store.Dataset, what string, f fyne.Focusable) {
	t.Helper()
	c := w.win.Canvas()
	i, held := w.c.v.Current(), len(w.c.in.held)
	want := (ds.Label(i) + 1) % 10
	c.Focus(f)
	if c.Focused() != f {
		t.Fatalf("%s took no focus", what)
	}
	f.TypedRune(rune('0' + want))
	if got := ds.Label(i); got != want && len(w.c.in.held) == held {
		t.Fatalf("%s focused: a typed %d left sample %d labelled %d (dropped)", what, want, i, got)
	}
	if c.Focused() != w.grid {
		t.Fatalf("%s passed a digit on but kept the focus (%T)", what, c.Focused())
	}
}

// TestNoEditsBehindDialog: keys typed while a dialog is open do not edit the samples behind it;
// Escape closes the dialog and gives the keys back to the grid.
func TestNoEditsBehindDialog(t *testing.T) {
	w, ds := demoWindow(t, true)
	c := w.win.Canvas()
	i := w.c.v.Current()
	before := ds.Label(i)
	w.menu.showKeys(w.d)
	if c.Overlays().Top() == nil {
		t.Fatal("Help → Keyboard opened no dialog")
	}
	w.keys.canvasRune(rune('0' + (before+1)%10))
	if ds.Label(i) != before {
		t.Fatalf("a digit typed over a dialog relabelled sample %d", i)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil {
		t.Fatal("Escape did not close the dialog")
	}
	if c.Focused() != w.grid {
		t.Fatalf("after the dialog the focus is on %T, not the grid", c.Focused())
	}
}

// TestQuitPromptDoesNotStack: with unsaved edits, a second Ctrl+Q (or window close) while the
// question is open asks nothing more; Escape cancels it and the edits stay.
func TestQuitPromptDoesNotStack(t *testing.T) {
	w, ds := demoWindow(t, false)
	c := w.win.Canvas()
	w.c.relabel((ds.Label(w.c.v.Current()) + 1) % 10)
	if !ds.Dirty() {
		t.Fatal("a relabel left the dataset clean")
	}
	w.save.quit()
	w.save.quit()
	if n := len(c.Overlays().List()); n != 1 {
		t.Fatalf("two Ctrl+Q opened %d dialogs, want 1", n)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(c.Overlays().List()); n != 0 {
		t.Fatalf("Escape left %d dialogs open", n)
	}
	if !ds.Dirty() {
		t.Fatal("cancelling Quit lost the edits")
	}
	w.save.quit()
	if n := len(c.Overlays().List()); n != 1 {
		t.Fatalf("Ctrl+Q after a cancelled question opened %d dialogs, want 1", n)
	}
}

// TestPositionText: the footer says which sample and where it is among the shown ones.
func TestPositionText(t *testing.T) {
	for _, c := range []struct {
		i, p, shown, n int
		want           string
	}{
		{1234, 1234, 10000, 10000, "sample 1,234 of 10,000"},
		{1234, 57, 1010, 10000, "sample 1,234 of 10,000  ·  58 of 1,010 shown"},
		{-1, -1, 0, 10000, "no sample  ·  0 shown of 10,000"},
	} {
		if got := positionText(c.i, c.p, c.shown, c.n); got != c.want {
			t.Errorf("positionText(%d, %d, %d, %d) = %q, want %q", c.i, c.p, c.shown, c.n, got, c.want)
		}
	}
	if numfmt.Plural(1, "sample") != "1 sample" || numfmt.Plural(10000, "sample") != "10,000 samples" {
		t.Errorf("samplesText: %q, %q", numfmt.Plural(1, "sample"), numfmt.Plural(10000, "sample"))
	}
}

// TestUndoMovesCursorToUndoneSample: after moving away from an edit, Undo (and Redo) bring the
// cursor back to the sample they change.
func TestUndoMovesCursorToUndoneSample(t *testing.T) {
	w, ds := demoWindow(t, true)
	w.c.moveCursor(40, false)
	i := w.c.v.Current()
	w.c.relabel((ds.Label(i) + 1) % 10)
	w.c.moveCursor(3, false)
	w.c.undo()
	if w.c.v.Current() != i {
		t.Fatalf("after Undo the cursor is on sample %d, want %d", w.c.v.Current(), i)
	}
	w.c.moveCursor(7, false)
	w.c.redo()
	if w.c.v.Current() != i {
		t.Fatalf("after Redo the cursor is on sample %d, want %d", w.c.v.Current(), i)
	}
}

// TestZoomKeepsScrolledPlace: zooming after scrolling away from the cursor keeps the place in
// sight instead of jumping back to the cursor.
func TestZoomKeepsScrolledPlace(t *testing.T) {
	w, _ := demoWindow(t, true)
	g := w.grid
	w.c.moveCursor(0, false)
	g.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -600)})
	mid := g.PositionAt(fyne.NewPos(g.Size().Width/2, g.Size().Height/2))
	if mid < 0 || g.Offset() == 0 {
		t.Fatalf("scrolling moved nothing (offset %v, middle tile %d)", g.Offset(), mid)
	}
	g.SetZoom(g.Zoom() + 1)
	ge := g.Geometry()
	if !rowInSight(g, mid/ge.Cols) {
		t.Fatalf("after zooming, tile %d (in the middle before) is out of sight; offset %v", mid, g.Offset())
	}
	if g.Offset() == 0 {
		t.Fatal("zooming jumped back to the top (the cursor)")
	}
}

// TestCtrlSInDrawWindow: Ctrl+S typed on the focused draw pad saves (here: asks where, since the
// demo has no files) instead of doing nothing.
func TestCtrlSInDrawWindow(t *testing.T) {
	w, _ := demoWindow(t, true)
	queueUI(w) // the draw window's model trains meanwhile: its UI steps wait on this goroutine
	w.draw.Show()
	if w.draw.Open() == nil {
		t.Fatal("no draw window")
	}
	w.draw.Open().Pad.TypedShortcut(widgets.Ctrl(fyne.KeyS, false))
	if !w.d.IsOpen("save as") {
		t.Fatal("Ctrl+S on the draw pad did not start a save")
	}
}

// TestGotoBoxKeepsItsKeys: the go-to box is a text field: digits typed there are its text, not
// a relabel; the legend says so; Escape gives the keys back to the grid.
func TestGotoBoxKeepsItsKeys(t *testing.T) {
	w, ds := demoWindow(t, true)
	c := w.win.Canvas()
	i := w.c.v.Current()
	before := ds.Label(i)
	c.Focus(w.side.gotoBox)
	c.Focused().TypedRune(rune('0' + (before+1)%10))
	if ds.Label(i) != before || w.side.gotoBox.Text == "" {
		t.Fatalf("a digit in the go-to box: label %d (was %d), box %q", ds.Label(i), before, w.side.gotoBox.Text)
	}
	if !w.footer.typing || w.footer.shown[0].Keys != "Typing in a text field" {
		t.Fatalf("the legend does not say a text field has the keys: %v", w.footer.shown)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Focused() != w.grid || w.footer.typing {
		t.Fatalf("Escape in the go-to box left the focus on %T", c.Focused())
	}
}

// TestTenThousandClassesStayUsable: with 10,000 classes (a hostile class-name file), the draw
// window's label list stays short and narrows as one types; the class picker lists the matches.
func TestTenThousandClassesStayUsable(t *testing.T) {
	w := newTestWindow(t)
	all := make([]int, 10000)
	names := map[int]string{}
	for c := range all {
		all[c] = c
		names[c] = "class" + strconv.Itoa(c)
	}
	ds, err := store.New(28, 28, all, names, filepath.Join(t.TempDir(), "j"+pairfile.JournalSuffix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	w.c.setDataset(ds, "untitled", false)
	w.draw.Show()
	d := w.draw.Open()
	if n := len(d.Options); n > classes.MaxOptions+1 {
		t.Fatalf("the label list offers %d entries", n)
	}
	d.Label.SetText("class999")
	if n := len(d.Options); n != 11 { // class999, class9990–class9999
		t.Fatalf("typing class999 leaves %d entries, want 11: %v", n, d.Options)
	}
	if l, ok := d.ChosenLabel(); ok {
		t.Fatalf("class999 is ambiguous but chose %d", l)
	}
}

// TestClassPickerTypesAfterTheFirstDigit: with more than ten classes a digit opens the class
// picker holding that digit; what is typed next follows it, so 1, 2, 3, Enter relabels as 123
// (the cursor used to stay before the first digit: 231).
func TestClassPickerTypesAfterTheFirstDigit(t *testing.T) {
	w := newTestWindow(t)
	classes := make([]int, 1000)
	for c := range classes {
		classes[c] = c
	}
	ds, err := store.New(28, 28, classes, nil, filepath.Join(t.TempDir(), "j"+pairfile.JournalSuffix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	if _, err := ds.Append([]store.Sample{{Pixels: make([]byte, 28*28), Label: 5}}); err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "untitled", false)
	w.c.moveCursor(0, false)
	gridReports{w.c}.TypedRune('1')
	var entry *dialogs.PromptEntry
	walkOverlay(w, func(o fyne.CanvasObject) {
		if e, ok := o.(*dialogs.PromptEntry); ok {
			entry = e
		}
	})
	if entry == nil || entry.Text != "1" {
		t.Fatalf("typing 1 did not open the class picker holding 1: %v", entry)
	}
	test.Type(entry, "23")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := ds.Label(0); got != 123 {
		t.Fatalf("1, 2, 3, Enter relabelled as %d, want 123", got)
	}
}

// TestCtrlSInDrawLabelBox: Ctrl+S typed in the draw window's label box saves too.
func TestCtrlSInDrawLabelBox(t *testing.T) {
	w, _ := demoWindow(t, true)
	w.draw.Show()
	w.draw.Open().Label.TypedShortcut(widgets.Ctrl(fyne.KeyS, false))
	if !w.d.IsOpen("save as") {
		t.Fatal("Ctrl+S in the label box did not start a save")
	}
}

// TestGotoMissingSampleAnswersKeys: "no such sample" closes with Enter and the grid has the
// keys again.
func TestGotoMissingSampleAnswersKeys(t *testing.T) {
	w, ds := demoWindow(t, true)
	c := w.win.Canvas()
	w.c.gotoSample(ds.Len() + 5)
	if c.Overlays().Top() == nil {
		t.Fatal("going to a missing sample said nothing")
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.Overlays().Top() != nil || c.Focused() != w.grid {
		t.Fatalf("Enter left the message open (%v) or the focus on %T", c.Overlays().Top() != nil, c.Focused())
	}
}

// TestErrorDialogAnswersEscapeAndEnter: a file that fails to open says why in a dialog that
// Escape closes, as does Enter (both closed nothing before: only a click did).
func TestErrorDialogAnswersEscapeAndEnter(t *testing.T) {
	w, _ := demoWindow(t, true)
	bad := filepath.Join(t.TempDir(), "bad-images-idx3-ubyte")
	if err := os.WriteFile(bad, []byte("not an IDX file"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := w.win.Canvas()
	for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		w.files.load(bad, "", false)
		waitFor(t, func() bool { return !w.jobs.Busy() && c.Overlays().Top() != nil })
		if !strings.Contains(overlayText(w), "bad-images-idx3-ubyte") {
			t.Fatalf("the error does not name the file: %q", overlayText(w))
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: key})
		if c.Overlays().Top() != nil {
			t.Fatalf("%s did not close the error dialog", key)
		}
	}
}

// TestReadOnlyWindowSaysSo: a pair opened read-only (another process edits it) says so on the
// status bar, and the legend offers no edit key.
func TestReadOnlyWindowSaysSo(t *testing.T) {
	demo, err := demo.Dataset()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "d-images-idx3-ubyte"), filepath.Join(dir, "d-labels-idx1-ubyte")
	if err := demo.SaveAsContext(context.Background(), ip, lp, nil); err != nil {
		t.Fatal(err)
	}
	demo.Close()
	ds, err := store.Open(ip, lp, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	w := newTestWindow(t)
	w.c.setDataset(ds, "d-labels-idx1-ubyte (read-only)", false)
	if !strings.Contains(w.footer.status.Text, "read-only") {
		t.Fatalf("the status bar does not say read-only: %q", w.footer.status.Text)
	}
	for _, k := range w.footer.shown {
		if strings.Contains(k.Does, "relabel") || strings.Contains(k.Does, "save") || strings.Contains(k.Does, "delete") {
			t.Fatalf("the legend of a read-only pair offers %s %s", k.Keys, k.Does)
		}
	}
}
