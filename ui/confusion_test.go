package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/plot"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/confusion"
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
	w.menuActions().confusion()
	waitUI(t, q, func() bool { return w.c.mode == w.conf })
	m := w.conf
	if w.side.showList.Selected != "Confusion matrix" {
		t.Fatalf("Show says %q", w.side.showList.Selected)
	}

	// The counts are the labels now against the argmax of the scan's probabilities.
	a := w.scans.Last()
	want, err := confusion.New(ds.Snapshot().Labels, a.Res.Probs, a.Res.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(m.d.Matrix.Counts(), want.Counts(), slices.Equal) {
		t.Fatalf("counts %v, want %v", m.d.Matrix.Counts(), want.Counts())
	}
	caught := 0
	for _, i := range flips {
		if p, _ := m.d.Matrix.Predicted(i); p == 4 {
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
	tapCell(t, m.view, 9, 4)
	cell := m.d.Matrix.Cell(9, 4)
	var shown []int
	for p := range w.c.v.Len() {
		shown = append(shown, w.c.v.At(p))
	}
	slices.Sort(shown)
	if !slices.Equal(shown, cell) || len(cell) != m.d.Matrix.Count(9, 4) {
		t.Fatalf("the grid shows %v, the cell holds %v", shown, cell)
	}
	if b := badgeTexts(w.grid)[0]; b != "9→4?" {
		t.Fatalf("first badge %q", b)
	}
	if !strings.Contains(m.view.note.Text, "Given 9, predicted 4") {
		t.Fatalf("the note says %q", m.view.note.Text)
	}

	// Enter gives the cursor's sample the predicted class: it leaves the cell at once, the
	// chart is drawn again, the review moves on; undo and redo move it back and forth.
	first := w.c.v.Current()
	before := m.d.Matrix.Count(9, 4)
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(first) != 4 || !ds.State(first).Reviewed || m.d.Matrix.Count(9, 4) != before-1 || m.d.Matrix.In(first, 9, 4) || m.drawn != m.d.Edits {
		t.Fatalf("after Enter: label %d, cell count %d (was %d), chart at %d of %d edits", ds.Label(first), m.d.Matrix.Count(9, 4), before, m.drawn, m.d.Edits)
	}
	if !strings.Contains(m.view.note.Text, strconv.Itoa(before-1)+" there now") {
		t.Fatalf("the note says %q", m.view.note.Text)
	}
	w.c.undo()
	if !m.d.Matrix.In(first, 9, 4) || m.d.Matrix.Count(9, 4) != before {
		t.Fatal("undo did not bring the sample back into its cell")
	}
	w.c.redo()
	if m.d.Matrix.In(first, 9, 4) || !m.d.Matrix.In(first, 4, 4) {
		t.Fatal("redo did not move the sample out again")
	}

	// Several selected: one digit relabels them all, one step.
	if w.c.v.Len() >= 3 {
		w.c.selectAll()
		steps := ds.UndoName()
		test.Type(w.grid, "7")
		for _, i := range cell {
			if ds.Label(i) != 7 || m.d.Matrix.In(i, 9, 4) {
				t.Fatalf("sample %d: label %d after typing 7 on the whole cell", i, ds.Label(i))
			}
		}
		if m.d.Matrix.Count(9, 4) != 0 || ds.UndoName() == steps {
			t.Fatalf("cell count %d", m.d.Matrix.Count(9, 4))
		}
		w.c.undo()
		if m.d.Matrix.Count(9, 4) != before-1 {
			t.Fatalf("one undo left %d in the cell, want %d", m.d.Matrix.Count(9, 4), before-1)
		}
	}

	// Hiding the diagonal greys its cells; "Every confusion" shows the off-diagonal list again.
	m.view.hide.SetChecked(true)
	rc, _ := m.view.drawn.CellRect(1, 1)
	if got := m.view.picture.RGBAAt(rc.Min.X+5, rc.Min.Y+5); got != plot.Light().Faint {
		t.Fatalf("a hidden diagonal cell is %v", got)
	}
	test.Tap(m.view.every)
	if now := offDiagonal(m.d.Matrix); !m.all || w.c.v.Len() != now {
		t.Fatalf("Every confusion shows %d, %d off the diagonal", w.c.v.Len(), now)
	}
	w.c.choose(browsing, store.All)
	if w.c.mode != browsing || w.c.v.Len() != ds.Len() {
		t.Fatal("Show → All does not leave the confusion matrix")
	}

	// Entered again after edits made elsewhere, the list is what the cells hold now.
	tapped := m.d.Matrix.Cell(9, 4)
	w.c.choose(w.conf, store.Live)
	tapCell(t, m.view, 9, 4)
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
		t.Fatalf("entered again: %d shown, the cell holds %d", w.c.v.Len(), m.d.Matrix.Count(9, 4))
	}
}

// tapCell taps the chart of v at the cell of label and class.
func tapCell(t *testing.T, v *confusionView, label, class int) {
	t.Helper()
	rc, ok := v.drawn.CellRect(label, class)
	if !ok {
		t.Fatalf("no cell (%d, %d)", label, class)
	}
	test.TapAt(v.chart, fyne.NewPos(float32(rc.Min.X+rc.Dx()/2), float32(rc.Min.Y+rc.Dy()/2)))
}

// offDiagonal counts the samples of m off its diagonal.
func offDiagonal(m *confusion.Matrix) int {
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

// The chart alone: a tap on a cell reports its given label and predicted class, a tap off the
// cells nothing; the toggle and the button report; the note says what the grid shows.
func TestConfusionViewReportsTheCell(t *testing.T) {
	test.NewTempApp(t)
	labels := []int{0, 0, 1, 1, 1, 2}
	probs := []float32{1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1}
	mx, err := confusion.New(labels, probs, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var cells [][2]int
	var hides []bool
	alls := 0
	v := newConfusionView(widget.NewLabel("the grid"), confusionInput{
		onCell: func(l, k int) { cells = append(cells, [2]int{l, k}) },
		onHide: func(on bool) { hides = append(hides, on) },
		onAll:  func() { alls++ },
	})
	w := test.NewWindow(v.root)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 600))
	ch := plot.NewConfusion(mx, plot.ConfusionOptions{Figures: true, Style: plot.Light()})
	v.setChart(ch, ch.Draw())
	if v.chart.Size().Width < v.chart.Width() || v.chart.Width() == 0 {
		t.Fatalf("the chart is %v wide, its picture %v", v.chart.Size().Width, v.chart.Width())
	}
	tapCell(t, v, 1, 0)
	tapCell(t, v, 2, 2)
	test.TapAt(v.chart, fyne.NewPos(2, 2))
	if !slices.Equal(cells, [][2]int{{1, 0}, {2, 2}}) {
		t.Fatalf("taps reported %v", cells)
	}
	v.showChosen(true, 1, 0, "Given 1, predicted 0") // its outline: widgets' TestChartImageOutlinesTheCell
	test.Tap(v.hide)
	test.Tap(v.every)
	if !slices.Equal(hides, []bool{true}) || alls != 1 || v.note.Text != "Given 1, predicted 0" {
		t.Fatalf("hide %v, every %d, note %q", hides, alls, v.note.Text)
	}
}
