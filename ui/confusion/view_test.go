package confusion

import (
	"idxlabel/plot"
	"idxlabel/suspect/confusion"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

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
	v := newView(widget.NewLabel("the grid"), viewInput{
		onCell: func(l, k int) { cells = append(cells, [2]int{l, k}) },
		onHide: func(on bool) { hides = append(hides, on) },
		onAll:  func() { alls++ },
	})
	w := test.NewWindow(v.root)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 600))
	ch := plot.NewConfusion(mx, plot.ConfusionOptions{Figures: true, Style: plot.Light()})
	v.setChart(ch, ch.Draw())
	if v.Chart.Size().Width < v.Chart.Width() || v.Chart.Width() == 0 {
		t.Fatalf("the chart is %v wide, its picture %v", v.Chart.Size().Width, v.Chart.Width())
	}
	tapCell(t, v, 1, 0)
	tapCell(t, v, 2, 2)
	test.TapAt(v.Chart, fyne.NewPos(2, 2))
	if !slices.Equal(cells, [][2]int{{1, 0}, {2, 2}}) {
		t.Fatalf("taps reported %v", cells)
	}
	v.showChosen(true, 1, 0, "Given 1, predicted 0") // its outline: widgets' TestChartImageOutlinesTheCell
	test.Tap(v.Hide)
	test.Tap(v.Every)
	if !slices.Equal(hides, []bool{true}) || alls != 1 || v.Note.Text != "Given 1, predicted 0" {
		t.Fatalf("hide %v, every %d, note %q", hides, alls, v.Note.Text)
	}
}

// tapCell taps the chart of v at the cell of label and class.
func tapCell(t *testing.T, v *View, label, class int) {
	t.Helper()
	rc, ok := v.Drawn.CellRect(label, class)
	if !ok {
		t.Fatalf("no cell (%d, %d)", label, class)
	}
	test.TapAt(v.Chart, fyne.NewPos(float32(rc.Min.X+rc.Dx()/2), float32(rc.Min.Y+rc.Dy()/2)))
}
