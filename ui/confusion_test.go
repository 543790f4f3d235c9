package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/plot"
	"idxlabel/store"
	"idxlabel/suspect"
	matrix "idxlabel/suspect/confusion"
	"idxlabel/ui/confusion"
)

// flippedWindow opens the demo's 300 labelled digits in a headless window whose CNN scans are
// short, with flips planted: the first 12 fours labelled 9. It returns the window, its UI queue
// and the dataset.
func flippedWindow(t *testing.T) (*window, *uiQueue, *store.Dataset, []int) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.scans.Opts = suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 6}
	ds, truth := demoStore(t, true)
	var flips []int
	for i, l := range truth {
		if l == 4 && len(flips) < 12 {
			flips = append(flips, i)
		}
	}
	if err := ds.Relabel(flips, 9); err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "demo", false)
	return w, q, ds, flips
}

// The confusion matrix view: Tools → Confusion Matrix runs the scan, then shows the matrix of the
// labels now against the out-of-fold predictions; clicking a cell shows exactly its samples in
// the grid, reviewed like suspects; a relabel moves the sample out of the cell at once and the
// chart follows; undo and redo move it back and forth; the diagonal can be hidden.
func TestConfusionMatrixView(t *testing.T) {
	w, q, ds, flips := flippedWindow(t)
	menuAction(t, w, "Confusion Matrix")()
	waitUI(t, q, func() bool { return w.c.mode == w.conf })
	m := w.conf
	if w.side.showList.Selected != "Confusion matrix" {
		t.Fatalf("Show says %q", w.side.showList.Selected)
	}

	// The counts are the labels now against the argmax of the scan's probabilities.
	a := w.scans.Last()
	want, err := matrix.New(ds.Snapshot().Labels, a.Res.Probs, a.Res.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(m.D.Matrix.Counts(), want.Counts(), slices.Equal) {
		t.Fatalf("counts %v, want %v", m.D.Matrix.Counts(), want.Counts())
	}
	caught := 0
	for _, i := range flips {
		if p, _ := m.D.Matrix.Predicted(i); p == 4 {
			caught++
		}
	}
	t.Logf("%d of %d planted flips predicted 4; off the diagonal: %d", caught, len(flips), w.c.v.Len())
	if caught == 0 {
		t.Fatal("no planted flip is in the cell (9, 4)")
	}
	// Until a cell is chosen the grid shows every sample off the diagonal, badged "9→4?".
	if off := offDiagonal(want); w.c.v.Len() != off {
		t.Fatalf("%d shown, %d off the diagonal", w.c.v.Len(), off)
	}

	// A click on the cell (given 9, predicted 4) shows exactly its samples.
	tapCell(t, m.View, 9, 4)
	cell := m.D.Matrix.Cell(9, 4)
	var shown []int
	for p := range w.c.v.Len() {
		shown = append(shown, w.c.v.At(p))
	}
	slices.Sort(shown)
	if !slices.Equal(shown, cell) || len(cell) != m.D.Matrix.Count(9, 4) {
		t.Fatalf("the grid shows %v, the cell holds %v", shown, cell)
	}
	if b := badgeTexts(w.grid)[0]; b != "9→4?" {
		t.Fatalf("first badge %q", b)
	}
	if !strings.Contains(m.View.Note.Text, "Given 9, predicted 4") {
		t.Fatalf("the note says %q", m.View.Note.Text)
	}

	// Enter gives the cursor's sample the predicted class: it leaves the cell at once, the
	// chart is drawn again, the review moves on; undo and redo move it back and forth.
	first := w.c.v.Current()
	before := m.D.Matrix.Count(9, 4)
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(first) != 4 || !ds.State(first).Reviewed || m.D.Matrix.Count(9, 4) != before-1 || m.D.Matrix.In(first, 9, 4) || m.Drawn != m.D.Edits {
		t.Fatalf("after Enter: label %d, cell count %d (was %d), chart at %d of %d edits", ds.Label(first), m.D.Matrix.Count(9, 4), before, m.Drawn, m.D.Edits)
	}
	if !strings.Contains(m.View.Note.Text, strconv.Itoa(before-1)+" there now") {
		t.Fatalf("the note says %q", m.View.Note.Text)
	}
	w.c.undo()
	if !m.D.Matrix.In(first, 9, 4) || m.D.Matrix.Count(9, 4) != before {
		t.Fatal("undo did not bring the sample back into its cell")
	}
	w.c.redo()
	if m.D.Matrix.In(first, 9, 4) || !m.D.Matrix.In(first, 4, 4) {
		t.Fatal("redo did not move the sample out again")
	}

	// Several selected: one digit relabels them all, one step.
	if w.c.v.Len() >= 3 {
		w.c.selectAll()
		steps := ds.UndoName()
		test.Type(w.grid, "7")
		for _, i := range cell {
			if ds.Label(i) != 7 || m.D.Matrix.In(i, 9, 4) {
				t.Fatalf("sample %d: label %d after typing 7 on the whole cell", i, ds.Label(i))
			}
		}
		if m.D.Matrix.Count(9, 4) != 0 || ds.UndoName() == steps {
			t.Fatalf("cell count %d", m.D.Matrix.Count(9, 4))
		}
		w.c.undo()
		if m.D.Matrix.Count(9, 4) != before-1 {
			t.Fatalf("one undo left %d in the cell, want %d", m.D.Matrix.Count(9, 4), before-1)
		}
	}

	// Hiding the diagonal greys its cells; "Every confusion" shows the off-diagonal list again.
	m.View.Hide.SetChecked(true)
	rc, _ := m.View.Drawn.CellRect(1, 1)
	if got := m.View.Picture.RGBAAt(rc.Min.X+5, rc.Min.Y+5); got != plot.Light().Faint {
		t.Fatalf("a hidden diagonal cell is %v", got)
	}
	test.Tap(m.View.Every)
	if now := offDiagonal(m.D.Matrix); !m.All || w.c.v.Len() != now {
		t.Fatalf("Every confusion shows %d, %d off the diagonal", w.c.v.Len(), now)
	}
	// Focused from the keyboard, the view's controls pass a digit on to the grid.
	focusedPassesDigit(t, w, ds, "Hide the diagonal", m.View.Hide)
	focusedPassesDigit(t, w, ds, "Every confusion", m.View.Every)
	w.c.choose(browsing, store.All)
	if w.c.mode != browsing || w.c.v.Len() != ds.Len() {
		t.Fatal("Show → All does not leave the confusion matrix")
	}

	// Entered again after edits made elsewhere, the list is what the cells hold now.
	tapped := m.D.Matrix.Cell(9, 4)
	w.c.choose(w.conf, store.Live)
	tapCell(t, m.View, 9, 4)
	w.c.choose(browsing, store.All)
	if len(tapped) == 0 {
		t.Fatal("the cell (9, 4) is empty")
	}
	if err := ds.Relabel(tapped[:1], 4); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.side.showList.SetSelected("Confusion matrix")
	if w.c.mode != w.conf || w.c.v.Len() != len(tapped)-1 || w.c.v.Shows(tapped[0]) {
		t.Fatalf("entered again: %d shown, the cell holds %d", w.c.v.Len(), m.D.Matrix.Count(9, 4))
	}
}

// tapCell taps the chart of v at the cell of label and class.
func tapCell(t *testing.T, v *confusion.View, label, class int) {
	t.Helper()
	rc, ok := v.Drawn.CellRect(label, class)
	if !ok {
		t.Fatalf("no cell (%d, %d)", label, class)
	}
	test.TapAt(v.Chart, fyne.NewPos(float32(rc.Min.X+rc.Dx()/2), float32(rc.Min.Y+rc.Dy()/2)))
}

// offDiagonal counts the samples of m off its diagonal.
func offDiagonal(m *matrix.Matrix) int {
	off := 0
	for r, row := range m.Counts() {
		for k, n := range row {
			if m.Rows[r] != m.Cols[k] {
				off += n
			}
		}
	}
	return off
}
