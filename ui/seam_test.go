package ui

import (
	"context"
	"image"
	"slices"
	"strconv"
	"strings"

	"idxlabel/internal/numfmt"
	"idxlabel/suspect"
	"idxlabel/ui/review"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/store"
)

// An edit made on the UI thread changes the view in the same step as the store: right after
// an append and its undo, with no queued UI work run, the view has the new length and moving
// the cursor reads nothing that no longer exists (the undo-and-arrows crash).
func TestViewFollowsEditsInTheSameStep(t *testing.T) {
	w, ds := demoWindow(t, false)
	var later []func()
	w.jobs.Schedule = func(f func()) { later = append(later, f) } // as the real driver: not now
	n := ds.Len()
	for k := range 3 {
		if _, err := ds.Append([]store.Sample{{Pixels: make([]byte, 28*28), Label: k}}); err != nil {
			t.Fatal(err)
		}
		w.c.drain()
	}
	if w.c.v.Len() != n+3 || w.c.v.Current() != n+2 || w.detail.title.Text != numfmt.Sprintf("Sample %d", n+2) {
		t.Fatalf("after 3 appends the view has %d positions, cursor on %d, detail %q", w.c.v.Len(), w.c.v.Current(), w.detail.title.Text)
	}
	w.c.undo()
	if w.c.v.Len() != n+2 {
		t.Fatalf("after an undo the view has %d positions, the store %d", w.c.v.Len(), ds.Len())
	}
	for range 2 {
		w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	}
	test.WidgetRenderer(w.grid).Refresh()
	for _, f := range later {
		f() // the queued drains find nothing left to do
	}
	if w.c.v.Len() != ds.Len() || w.c.v.gen != ds.Gen() {
		t.Fatalf("view %d positions at generation %d; store %d at %d", w.c.v.Len(), w.c.v.gen, ds.Len(), ds.Gen())
	}
}

// A change made off the UI thread (a save that drops deleted samples and renumbers the rest) is
// applied to the view only when its queued drain runs, as with the real driver; until then
// drawing and the detail panel refuse reads from the older generation instead of indexing the
// shrunken dataset.
func TestLateChangesFromElsewhere(t *testing.T) {
	w, ds := demoWindow(t, false)
	var later []func()
	w.jobs.Schedule = func(f func()) { later = append(later, f) }
	last := ds.Len() - 1
	if err := ds.Delete([]int{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.c.moveCursor(w.c.v.pos[last], false)
	if err := ds.SaveAsContext(context.Background(), t.TempDir()+"/x-images-idx3-ubyte", t.TempDir()+"/x-labels-idx1-ubyte", nil); err != nil {
		t.Fatal(err)
	}
	// The save's Reset is queued, not applied: the view still has the old positions.
	if w.c.v.Len() != last+1 || ds.Len() != last-2 {
		t.Fatalf("view %d, store %d", w.c.v.Len(), ds.Len())
	}
	test.WidgetRenderer(w.grid).Refresh()
	w.c.renderCursor()
	if w.detail.title.Text != "No sample" {
		t.Fatalf("the detail panel read sample %d from an older generation: %q", last, w.detail.title.Text)
	}
	if b := badgeTexts(w.grid); len(b) != 0 {
		t.Fatalf("badges were read from an older generation: %q", b)
	}
	for _, f := range later {
		f()
	}
	if w.c.v.Len() != ds.Len() || w.c.v.gen != ds.Gen() || w.detail.title.Text == "No sample" {
		t.Fatalf("after the drain: view %d at %d, store %d at %d, detail %q", w.c.v.Len(), w.c.v.gen, ds.Len(), ds.Gen(), w.detail.title.Text)
	}
}

// A relabel of more than largeEdit samples says so on the status bar, with the way back.
func TestLargeRelabelSaysSo(t *testing.T) {
	w, _ := demoWindow(t, false)
	w.c.v.selectAll()
	w.c.relabel(3)
	if got := w.footer.status.Text; got != numfmt.Sprintf("Relabelled %d samples — Ctrl+Z to undo", w.c.v.Len()) {
		t.Fatalf("status %q", got)
	}
}

// A save during a review of suspects keeps the review: its order, its verdicts and the samples
// decided, renumbered past the deleted samples the save left out.
func TestSaveKeepsTheReview(t *testing.T) {
	w, ds := demoWindow(t, false)
	w.susp.Mode.List = &review.List{Order: []int{5, 2, 9}, Of: map[int]suspect.Suspect{5: {Index: 5, Suggested: 1}, 2: {Index: 2}, 9: {Index: 9}}, Neighbours: map[int][]int{5: {9, 1}}}
	if err := ds.DecideAs(store.HowManual, 5, 1); err != nil {
		t.Fatal(err)
	}
	if err := ds.Delete([]int{1, 2}); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	if err := ds.SaveAsContext(context.Background(), t.TempDir()+"/r-images-idx3-ubyte", t.TempDir()+"/r-labels-idx1-ubyte", nil); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	if w.susp.Mode.List == nil || !slices.Equal(w.susp.Mode.List.Order, []int{3, 7}) || w.susp.Mode.List.Of[3].Suggested != 1 || !slices.Equal(w.susp.Mode.List.Neighbours[3], []int{7}) {
		t.Fatalf("review after the save: %+v", w.susp.Mode.List)
	}
	if !ds.State(3).Reviewed || ds.Label(3) != 1 {
		t.Fatal("the decision on sample 5 (now 3) was lost")
	}
}

// The draw window pre-fills the label with the model's guess, and never overrides a label the
// person chose for the drawing.
func TestDrawWindowSuggestsLabels(t *testing.T) {
	w, ds := demoWindow(t, false)
	snap := ds.Snapshot()
	m, err := suspect.TrainModel(context.Background(), snap, suspect.CNNOptions{Epochs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.sugg.SetModel(m, snap.N) // so the window starts no training of its own
	w.draw.Show()
	d := w.draw.Open()
	d.Digit = image.NewGray(image.Rect(0, 0, 28, 28))
	copy(d.Digit.Pix, snap.Pixels(0)) // a demo digit, as drawn
	d.Chosen = false
	w.sugg.SetModel(m, snap.N)
	want, _, _ := m.Predict(snap.Pixels(0))
	if d.Label.Text != strconv.Itoa(want) || !strings.HasPrefix(d.Status.Text, "Suggested ") || d.Chosen {
		t.Fatalf("label %q, status %q, chosen %v; the model says %d", d.Label.Text, d.Status.Text, d.Chosen, want)
	}
	d.Label.SetText("42") // the person's choice
	w.draw.Suggest()
	if d.Label.Text != "42" {
		t.Fatalf("the model overrode the chosen label: %q", d.Label.Text)
	}
}
