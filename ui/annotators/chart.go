package annotators

import (
	"fmt"
	"image"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/annotate"
	"idxlabel/internal/numfmt"
	"idxlabel/plot"
	"idxlabel/ui/widgets"
)

// pairView is the Disagreements mode's chart beside the grid: the confusion matrix of two
// annotators (rows the first's labels, columns the second's) as a picture whose cells are
// clickable, a choice of the two annotators, a button back to every disagreement, and a line
// saying what the grid shows. It draws what it is handed and reports what the person chose.
type pairView struct {
	root  fyne.CanvasObject
	Chart *widgets.ChartImage
	Pair  *widgets.PassingSelect // "A × B", one entry per pair of annotators
	Every *widgets.PassingButton // Every disagreement
	Note  *widget.Label          // what the grid shows
	// Drawn is the chart shown, Picture its picture, Table the table it is of (nil before the first).
	Drawn   *plot.Confusion
	Picture *image.RGBA
	Table   *annotate.Confusion

	pairs  [][2]int // the pairs the choice lists, in its order
	names  []string // the annotators' names they were made of
	quiet  bool     // the choice is being set by the view, not the person
	in     pairInput
	chosen bool
}

// pairInput is what the view reports.
type pairInput struct {
	onCell func(x, y int) // a click on a cell: the first annotator's label x, the second's y
	onPair func(a, b int) // two other annotators chosen
	onAll  func()         // Every disagreement
}

// newPairView builds the view with grid beside the chart; it reports to in.
func newPairView(grid fyne.CanvasObject, in pairInput) *pairView {
	v := &pairView{in: in, Note: widget.NewLabel("")}
	v.Note.Wrapping = fyne.TextWrapWord
	v.Chart = widgets.NewChartImage(func(x, y int) {
		if v.in.onCell != nil {
			v.in.onCell(x, y)
		}
	})
	v.Pair = widgets.NewPassingSelect(nil, func(s string) {
		if v.quiet || v.in.onPair == nil {
			return
		}
		if k := v.Pair.SelectedIndex(); k >= 0 && k < len(v.pairs) {
			v.in.onPair(v.pairs[k][0], v.pairs[k][1])
		}
	})
	v.Every = widgets.NewPassingButton("Every disagreement", func() {
		if v.in.onAll != nil {
			v.in.onAll()
		}
	})
	top := container.NewBorder(nil, nil, nil, v.Every, v.Pair) // the choice takes the row's width: the names are long
	left := container.NewBorder(top, v.Note, nil, nil, container.NewScroll(v.Chart))
	v.root = container.New(&widgets.Beside{Want: func() float32 {
		return max(v.Chart.Width(), v.Pair.MinSize().Width+v.Every.MinSize().Width) + chartMargin
	}, Rest: minGridWidth},
		left, grid)
	return v
}

// The chart's side: the chart's width plus room for the scroll bar and padding; the grid keeps
// at least minGridWidth (two columns of tiles at the default zoom).
const (
	chartMargin  = 28
	minGridWidth = 200
)

// setNames lists every pair of the annotators names in the choice (once per change of names),
// pair chosen.
func (v *pairView) setNames(names []string, pair [2]int) {
	if !slices.Equal(v.names, names) {
		v.names = append([]string(nil), names...)
		v.pairs = v.pairs[:0]
		var opts []string
		for a := range names {
			for b := a + 1; b < len(names); b++ {
				v.pairs = append(v.pairs, [2]int{a, b})
				opts = append(opts, pairName(names, a, b))
			}
		}
		v.quiet = true
		v.Pair.SetOptions(opts)
		v.quiet = false
	}
	for k, p := range v.pairs {
		if p == pair && v.Pair.SelectedIndex() != k {
			v.quiet = true
			v.Pair.SetSelectedIndex(k)
			v.quiet = false
		}
	}
}

// pairName is "A × B", annotator 0 marked as the open labels.
func pairName(names []string, a, b int) string {
	return axisName(names, a) + " × " + axisName(names, b)
}

// axisName is annotator a's name, "(open)" after the open labels'.
func axisName(names []string, a int) string {
	if a == 0 {
		return names[0] + " (open)"
	}
	return names[a]
}

// setTable draws the table t of the annotators pair (of names) when it is not the one drawn.
func (v *pairView) setTable(t *annotate.Confusion, names []string, pair [2]int, name func(int) string) {
	if t == nil || t == v.Table {
		return
	}
	keys := make([]int, len(t.Classes))
	for k, c := range t.Classes {
		keys[k] = int(c)
	}
	C := len(keys)
	counts := make([][]int, C)
	for r := range C {
		counts[r] = make([]int, C)
		for k := range C {
			counts[r][k] = int(t.Counts[r*C+k])
		}
	}
	ch := plot.NewTable(keys, keys, counts, plot.ConfusionOptions{Name: name, Figures: true, Style: widgets.PlotStyle(),
		RowTitle: axisName(names, pair[0]), ColTitle: axisName(names, pair[1]), FigureTitles: [3]string{"samples", "agree", "differ"}})
	v.Drawn, v.Picture, v.Table = ch, ch.Draw(), t
	if v.Chart.SetChart(ch, v.Picture) {
		v.root.Refresh() // the chart's side follows its width
	}
	v.Chart.ShowChosen(false, 0, 0)
}

// showChosen outlines the cell (x, y) when on, and says what the grid shows.
func (v *pairView) showChosen(on bool, x, y int, what string) {
	if on != v.chosen || on {
		v.Chart.ShowChosen(on, x, y)
	}
	v.chosen = on
	v.Note.SetText(what)
}

// cellNote says what the grid shows of the cell (x, y) of pair: its samples then.
func cellNote(names []string, pair [2]int, x, y string, count int) string {
	return fmt.Sprintf("%s said %s, %s said %s: %s when chosen. Every disagreement lists them all again.",
		axisName(names, pair[0]), x, axisName(names, pair[1]), y, numfmt.Plural(count, "sample"))
}
