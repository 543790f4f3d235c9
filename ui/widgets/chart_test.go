package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/plot"
	"idxlabel/suspect/confusion"
)

// The chosen cell is outlined over its square, and only while one is chosen; the chart asks for
// its picture's size.
func TestChartImageOutlinesTheCell(t *testing.T) {
	test.NewTempApp(t)
	mx, err := confusion.New([]int{0, 0, 1, 1, 1, 2}, []float32{1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1}, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	ch := plot.NewConfusion(mx, plot.ConfusionOptions{Figures: true, Style: plot.Light()})
	ci := NewChartImage(nil)
	w := test.NewWindow(ci)
	defer w.Close()
	if !ci.SetChart(ch, ch.Draw()) || ci.SetChart(ch, ch.Draw()) {
		t.Fatal("SetChart does not report the size changing only the first time")
	}
	w.Resize(fyne.NewSize(900, 600))
	if sw, _ := ch.Size(); ci.MinSize().Width != float32(sw) || ci.Width() != float32(sw) {
		t.Fatalf("the chart asks for %v, its picture is %d wide", ci.MinSize(), sw)
	}
	if ci.outline.Visible() {
		t.Fatal("an outline before a cell was chosen")
	}
	ci.ShowChosen(true, 1, 0)
	rc, _ := ch.CellRect(1, 0)
	if o := ci.outline; !o.Visible() || o.Position().X > float32(rc.Min.X) || o.Position().X+o.Size().Width < float32(rc.Max.X) {
		t.Fatalf("the outline is at %v %v, the cell %v", o.Position(), o.Size(), rc)
	}
	ci.ShowChosen(false, 1, 0)
	if ci.outline.Visible() {
		t.Fatal("the outline stayed once no cell is chosen")
	}
}
