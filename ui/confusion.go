package ui

import (
	"cmp"
	"fmt"
	"image"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/plot"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/scan"
	"idxlabel/ui/widgets"
)

// The confusion matrix mode: the last CNN scan's confusion matrix (rows the given labels now,
// columns the classes the model predicts out of fold) beside the grid, with the per-class
// figures (samples, out-of-fold accuracy, suspects). The grid shows the samples of the cell the
// person clicked (every sample off the diagonal until then), reviewed like suspects: Enter gives
// a sample the predicted class, a digit another label (the whole selection, when several are
// selected), → keeps its label. Every edit, undo and redo moves the samples between the cells at
// once (scanViews.follow); the grid keeps the list it shows until another cell is chosen.

// What the confusion matrix adds to browsing, checked when the package builds: a review's, and
// the chart in the grid's place, which follows the state.
var _ interface {
	mode.Mode
	mode.Preparer
	mode.KeyTaker
	mode.AppendDropper
	mode.Marker
	mode.DoneCounter
	mode.StatusSayer
	mode.Describer
	mode.Follower
	mode.OwnView
	mode.StateShower
} = (*confusionMode)(nil)

// confusionMode is the mode: a review of the chosen cell's samples, and the chart.
type confusionMode struct {
	review.Mode
	c     mode.Controller
	views *scan.Views
	view  *confusionView
	d     *scan.Data // the scan the list and the chart are of
	// cell is the cell the grid shows (given label, predicted class); all: every sample off the
	// diagonal.
	cell   [2]int
	all    bool
	hide   bool // the chart hides the diagonal
	drawn  int  // d.Edits when the chart was drawn; -1: to draw
	picked int  // d.Edits when the list was made
}

// newConfusion builds the mode of the window whose controller is c, the scan's data kept by
// views, its chart beside grid: a click on a cell lists its samples (an input of the person's,
// after the inputs that wait), "Every confusion" all off the diagonal.
func newConfusion(c mode.Controller, views *scan.Views, grid fyne.CanvasObject) *confusionMode {
	m := &confusionMode{
		Mode: review.Mode{Kind: review.Suspects, Name: "Confusion matrix",
			Why: func() string { return "The CNN scan did not see this sample (added or restored since)" }},
		c: c, views: views, all: true, drawn: -1}
	m.view = newConfusionView(grid, confusionInput{
		onCell: func(label, class int) { c.Input(func() { m.choose(c, false, label, class) }) },
		onAll:  func() { m.choose(c, true, 0, 0) },
		onHide: func(on bool) { m.setHide(c, on) },
	})
	return m
}

// start opens the mode (open), with the controller of its views.
func (m *confusionMode) Start() { m.open(m.c) }

// ready reports whether the scan the chart shows is still the one to show.
func (m *confusionMode) Ready() bool {
	return m.List != nil && m.d != nil && m.views.Current() == m.d
}

// open is Tools → Confusion Matrix and the Show list's entry: the scan (run first when there is
// none, its progress on the status bar), then the mode with every sample off the diagonal.
func (m *confusionMode) open(c mode.Controller) {
	m.views.Open(func(d *scan.Data) {
		m.d, m.drawn = d, -1
		m.pick(true, 0, 0)
		c.Enter(m)
	})
}

// pick makes the list of the cell of label and class (all: every sample off the diagonal), most
// suspicious first (the lowest out-of-fold probability of its label), with the model's verdict
// on each: its predicted class, how sure, and how sure of the label. O(k log k) for k samples.
func (m *confusionMode) pick(all bool, label, class int) {
	d := m.d
	var rows []int
	if all {
		for _, l := range d.Matrix.Rows {
			for _, k := range d.Matrix.Cols {
				if l != k {
					rows = append(rows, d.Matrix.Cell(l, k)...)
				}
			}
		}
	} else {
		rows = d.Matrix.Cell(label, class)
	}
	r := &review.List{Kind: review.Suspects, Of: make(map[int]suspect.Suspect, len(rows)), Neighbours: map[int][]int{}, Method: "CNN, out of fold"}
	for _, row := range rows {
		i := d.Sample[row]
		st, ok := d.DS.StateAt(i)
		if i < 0 || !ok {
			continue
		}
		pred, p, pl, _ := d.Predicted(i, st.Label)
		r.Of[i] = suspect.Suspect{Index: i, Label: st.Label, Suggested: pred, Score: 1 - pl, Support: p, Confidence: p}
		r.Order = append(r.Order, i)
	}
	slices.SortFunc(r.Order, func(a, b int) int {
		if c := cmp.Compare(r.Of[b].Score, r.Of[a].Score); c != 0 {
			return c
		}
		return a - b
	})
	m.List, m.all, m.cell, m.picked = r, all, [2]int{label, class}, d.Edits
}

// choose shows cell (label, class) in the grid (all: every sample off the diagonal).
func (m *confusionMode) choose(c mode.Controller, all bool, label, class int) {
	if c.Showing() != mode.Mode(m) || m.d == nil {
		return
	}
	m.pick(all, label, class)
	c.Changed(m)
	c.Focus()
}

// label relabels the selection when several samples are selected (one undoable step), and
// otherwise decides the cursor's sample as a review does.
func (m *confusionMode) Label(c mode.Controller, l int) {
	if c.State().View.SelectionSize() > 1 {
		c.Relabel(l)
		return
	}
	review.Decide(c, m.List, l)
}

func (m *confusionMode) Legend(digits bool) []mode.Key {
	other := mode.Key{Keys: "0–9", Does: "relabel"}
	if !digits {
		other = mode.Key{Keys: "Type a class", Does: "relabel"}
	}
	return []mode.Key{{Keys: "Click a cell", Does: "its samples"}, {Keys: "Enter", Does: "predicted class"}, other, {Keys: "→", Does: "keep label"}, {Keys: "Ctrl+A", Does: "select all"}, {Keys: "Ctrl+Z", Does: "undo"}}
}

// about says what the scan predicts for sample i.
func (m *confusionMode) About(s mode.State, i int) mode.About {
	if m.d == nil || i < 0 {
		return mode.About{}
	}
	st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
	if !ok {
		return mode.About{}
	}
	return mode.About{Text: predictionText(m.d, s.Classes, i, st.Label)}
}

// predictionText says what the scan's model predicts out of fold for sample i labelled label.
func predictionText(d *scan.Data, n classes.Names, i, label int) string {
	pred, p, pl, ok := d.Predicted(i, label)
	switch {
	case !ok:
		return "The CNN scan did not see this sample (added or restored since)."
	case label == sample.NoLabel:
		return fmt.Sprintf("The model predicts %s (%.0f%%).", n.Long(pred), 100*p)
	case pred == label:
		return fmt.Sprintf("The model agrees out of fold: %s (%.0f%%).", n.Long(pred), 100*p)
	}
	return fmt.Sprintf("Out of fold the model predicts %s (%.0f%%); the label %s has %.0f%%.", n.Long(pred), 100*p, n.Long(label), 100*pl)
}

// follow keeps the list through a save, and ends it after a replayed journal (the scan is
// dropped then).
func (m *confusionMode) Follow(renumber []int) {
	m.Mode.Follow(renumber)
	if renumber == nil {
		m.d = nil
	}
}

// center is the chart beside the grid. The mode is being entered (Show, Tools): a list made
// before edits moved samples between the cells is made again, so that the grid shows what the
// chosen cell holds now (while the person reviews it, the list stays as it was).
func (m *confusionMode) Center() fyne.CanvasObject {
	if m.d != nil && m.List != nil && m.picked != m.d.Edits {
		m.pick(m.all, m.cell[0], m.cell[1])
	}
	return m.view.root
}

// shown redraws the chart when the matrix changed since it was drawn, and says what the grid
// shows. O(classes²) for a redraw; nothing otherwise.
func (m *confusionMode) Shown(s mode.State) {
	d := m.d
	if d == nil {
		return
	}
	if m.drawn != d.Edits {
		m.drawn = d.Edits
		ch := plot.NewConfusion(d.Matrix, plot.ConfusionOptions{Name: s.Classes.Name, HideDiagonal: m.hide, Figures: true, Style: plotStyle()})
		m.view.setChart(ch, ch.Draw())
	}
	what := fmt.Sprintf("Every sample the model disagrees with: %s. Click a cell to list its samples.", numfmt.Plural(len(m.List.Order), "sample"))
	if !m.all {
		what = fmt.Sprintf("Given %s, predicted %s: %s (%d there now)", s.Classes.Long(m.cell[0]), s.Classes.Long(m.cell[1]),
			numfmt.Plural(len(m.List.Order), "sample"), d.Matrix.Count(m.cell[0], m.cell[1]))
	}
	m.view.showChosen(!m.all, m.cell[0], m.cell[1], what)
}

// setHide is the view's "Hide the diagonal".
func (m *confusionMode) setHide(c mode.Controller, on bool) {
	m.hide, m.drawn = on, -1
	c.Render()
	c.Focus()
}

// plotStyle returns the plot style of the current theme.
func plotStyle() plot.Style {
	if fyne.CurrentApp().Settings().ThemeVariant() == theme.VariantDark {
		return plot.Dark()
	}
	return plot.Light()
}

// confusionView is the chart beside the grid: the matrix as a picture (cells clickable), a
// toggle that hides the diagonal, a button back to every confusion, and a line saying what the
// grid shows. It draws what it is handed and reports the cell clicked.
type confusionView struct {
	root  fyne.CanvasObject
	chart *widgets.ChartImage
	// drawn is the chart shown and picture its picture (nil before the first).
	drawn   *plot.Confusion
	picture *image.RGBA
	hide    *widget.Check
	every   *widget.Button
	note    *widget.Label

	confusionInput
}

// confusionInput is what the confusion matrix's view reports.
type confusionInput struct {
	onCell func(label, class int) // a click on a cell
	onAll  func()                 // Every confusion
	onHide func(on bool)          // Hide the diagonal
}

// newConfusionView builds the view with grid beside the chart; it reports to in.
func newConfusionView(grid fyne.CanvasObject, in confusionInput) *confusionView {
	v := &confusionView{confusionInput: in, note: widget.NewLabel("")}
	v.chart = widgets.NewChartImage(func(label, class int) {
		if v.onCell != nil {
			v.onCell(label, class)
		}
	})
	v.note.Wrapping = fyne.TextWrapWord
	v.hide = widget.NewCheck("Hide the diagonal", func(on bool) {
		if v.onHide != nil {
			v.onHide(on)
		}
	})
	v.every = widget.NewButton("Every confusion", func() {
		if v.onAll != nil {
			v.onAll()
		}
	})
	// The help is the note's (it wraps): in this row it asked for 480 pixels and was cut off.
	top := container.NewHBox(v.hide, v.every)
	left := container.NewBorder(top, v.note, nil, nil, container.NewScroll(v.chart))
	v.root = container.New(&widgets.Beside{Want: func() float32 { return v.chart.Width() + chartMargin }, Rest: minGridWidth}, left, grid)
	return v
}

// The chart's side: the chart's width plus room for the scroll bar and padding; the grid keeps
// at least minGridWidth (two columns of tiles at the default zoom).
const (
	chartMargin  = 28
	minGridWidth = 200
)

// setChart shows chart c, drawn as img.
func (v *confusionView) setChart(c *plot.Confusion, img *image.RGBA) {
	v.drawn, v.picture = c, img
	if v.chart.SetChart(c, img) {
		v.root.Refresh() // the chart's side follows its width
	}
}

// showChosen outlines the cell (label, class) when on, and says what the grid shows.
func (v *confusionView) showChosen(on bool, label, class int, what string) {
	v.chart.ShowChosen(on, label, class)
	v.note.SetText(what)
}
