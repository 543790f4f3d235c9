// Package confusion is the window's confusion matrix (Tools → Confusion Matrix, Ctrl+Shift+M):
// the window's CNN scan's matrix of the labels now against the classes the model predicts out of
// fold, as a chart beside the grid (widgets.ChartImage), whose cells list their samples, reviewed
// as suspects are (ui/review).
package confusion

import (
	"cmp"
	"fmt"
	"image"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/plot"
	"idxlabel/suspect"
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
} = (*Mode)(nil)

// Mode is the mode: a review of the chosen cell's samples, and the chart.
type Mode struct {
	review.Mode
	c     mode.Controller
	views *scan.Views
	View  *View
	D     *scan.Data // the scan the list and the chart are of
	// cell is the cell the grid shows (given label, predicted class); All: every sample off the
	// diagonal.
	cell   [2]int
	All    bool
	hide   bool // the chart hides the diagonal
	Drawn  int  // D.Edits when the chart was drawn; -1: to draw
	picked int  // d.Edits when the list was made
}

// New builds the mode of the window whose controller is c, the scan's data kept by
// views, its chart beside grid: a click on a cell lists its samples (an input of the person's,
// after the inputs that wait), "Every confusion" all off the diagonal.
func New(c mode.Controller, views *scan.Views, grid fyne.CanvasObject) *Mode {
	m := &Mode{
		Mode: review.Mode{Kind: review.Suspects, Name: "Confusion matrix",
			Why: func() string { return "The CNN scan did not see this sample (added or restored since)" }},
		c: c, views: views, All: true, Drawn: -1}
	m.View = newView(grid, viewInput{
		onCell: func(label, class int) { c.Input(func() { m.choose(c, false, label, class) }) },
		onAll:  func() { m.choose(c, true, 0, 0) },
		onHide: func(on bool) { m.setHide(c, on) },
	})
	return m
}

// start opens the mode (open), with the controller of its views.
func (m *Mode) Start() { m.Open(m.c) }

// ready reports whether the scan the chart shows is still the one to show.
func (m *Mode) Ready() bool {
	return m.List != nil && m.D != nil && m.views.Current() == m.D
}

// Open is Tools → Confusion Matrix and the Show list's entry: the scan (run first when there is
// none, its progress on the status bar), then the mode with every sample off the diagonal.
func (m *Mode) Open(c mode.Controller) {
	m.views.Open(func(d *scan.Data) {
		m.D, m.Drawn = d, -1
		m.pick(true, 0, 0)
		c.Enter(m)
	})
}

// pick makes the list of the cell of label and class (all: every sample off the diagonal), most
// suspicious first (the lowest out-of-fold probability of its label), with the model's verdict
// on each: its predicted class, how sure, and how sure of the label. O(k log k) for k samples.
func (m *Mode) pick(all bool, label, class int) {
	d := m.D
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
	m.List, m.All, m.cell, m.picked = r, all, [2]int{label, class}, d.Edits
}

// choose shows cell (label, class) in the grid (all: every sample off the diagonal).
func (m *Mode) choose(c mode.Controller, all bool, label, class int) {
	if c.Showing() != mode.Mode(m) || m.D == nil {
		return
	}
	m.pick(all, label, class)
	c.Changed(m)
	c.Focus()
}

// label relabels the selection when several samples are selected (one undoable step), and
// otherwise decides the cursor's sample as a review does.
func (m *Mode) Label(c mode.Controller, l int) {
	if c.State().View.SelectionSize() > 1 {
		c.Relabel(l)
		return
	}
	review.Decide(c, m.List, l)
}

func (m *Mode) Legend(digits bool) []mode.Key {
	other := mode.Key{Keys: "0–9", Does: "relabel"}
	if !digits {
		other = mode.Key{Keys: "Type a class", Does: "relabel"}
	}
	return []mode.Key{{Keys: "Click a cell", Does: "its samples"}, {Keys: "Enter", Does: "predicted class"}, other, {Keys: "→", Does: "keep label"}, {Keys: "Ctrl+A", Does: "select all"}, {Keys: "Ctrl+Z", Does: "undo"}}
}

// about says what the scan predicts for sample i.
func (m *Mode) About(s mode.State, i int) mode.About {
	if m.D == nil || i < 0 {
		return mode.About{}
	}
	st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
	if !ok {
		return mode.About{}
	}
	return mode.About{Text: m.D.Prediction(s.Classes, i, st.Label)}
}

// follow keeps the list through a save, and ends it after a replayed journal (the scan is
// dropped then).
func (m *Mode) Follow(renumber []int) {
	m.Mode.Follow(renumber)
	if renumber == nil {
		m.D = nil
	}
}

// center is the chart beside the grid. The mode is being entered (Show, Tools): a list made
// before edits moved samples between the cells is made again, so that the grid shows what the
// chosen cell holds now (while the person reviews it, the list stays as it was).
func (m *Mode) Center() fyne.CanvasObject {
	if m.D != nil && m.List != nil && m.picked != m.D.Edits {
		m.pick(m.All, m.cell[0], m.cell[1])
	}
	return m.View.root
}

// shown redraws the chart when the matrix changed since it was drawn, and says what the grid
// shows. O(classes²) for a redraw; nothing otherwise.
func (m *Mode) Shown(s mode.State) {
	d := m.D
	if d == nil {
		return
	}
	if m.Drawn != d.Edits {
		m.Drawn = d.Edits
		ch := plot.NewConfusion(d.Matrix, plot.ConfusionOptions{Name: s.Classes.Name, HideDiagonal: m.hide, Figures: true, Style: widgets.PlotStyle()})
		m.View.setChart(ch, ch.Draw())
	}
	what := fmt.Sprintf("Every sample the model disagrees with: %s. Click a cell to list its samples.", numfmt.Plural(len(m.List.Order), "sample"))
	if !m.All {
		what = fmt.Sprintf("Given %s, predicted %s: %s (%d there now)", s.Classes.Long(m.cell[0]), s.Classes.Long(m.cell[1]),
			numfmt.Plural(len(m.List.Order), "sample"), d.Matrix.Count(m.cell[0], m.cell[1]))
	}
	m.View.showChosen(!m.All, m.cell[0], m.cell[1], what)
}

// setHide is the view's "Hide the diagonal".
func (m *Mode) setHide(c mode.Controller, on bool) {
	m.hide, m.Drawn = on, -1
	c.Render()
	c.Focus()
}

// View is the chart beside the grid: the matrix as a picture (cells clickable), a
// toggle that hides the diagonal, a button back to every confusion, and a line saying what the
// grid shows. It draws what it is handed and reports the cell clicked.
type View struct {
	root  fyne.CanvasObject
	Chart *widgets.ChartImage // the chart's picture, cells to tap
	// Drawn is the chart shown and Picture its picture (nil before the first).
	Drawn   *plot.Confusion
	Picture *image.RGBA
	Hide    *widgets.PassingCheck  // Hide the diagonal
	Every   *widgets.PassingButton // Every confusion
	Note    *widget.Label          // what the grid shows

	viewInput
}

// viewInput is what the confusion matrix's view reports.
type viewInput struct {
	onCell func(label, class int) // a click on a cell
	onAll  func()                 // Every confusion
	onHide func(on bool)          // Hide the diagonal
}

// newView builds the view with grid beside the chart; it reports to in.
func newView(grid fyne.CanvasObject, in viewInput) *View {
	v := &View{viewInput: in, Note: widget.NewLabel("")}
	v.Chart = widgets.NewChartImage(func(label, class int) {
		if v.onCell != nil {
			v.onCell(label, class)
		}
	})
	v.Note.Wrapping = fyne.TextWrapWord
	v.Hide = widgets.NewPassingCheck("Hide the diagonal", func(on bool) {
		if v.onHide != nil {
			v.onHide(on)
		}
	})
	v.Every = widgets.NewPassingButton("Every confusion", func() {
		if v.onAll != nil {
			v.onAll()
		}
	})
	// The help is the note's (it wraps): in this row it asked for 480 pixels and was cut off.
	top := container.NewHBox(v.Hide, v.Every)
	left := container.NewBorder(top, v.Note, nil, nil, container.NewScroll(v.Chart))
	v.root = container.New(&widgets.Beside{Want: func() float32 { return v.Chart.Width() + chartMargin }, Rest: minGridWidth}, left, grid)
	return v
}

// The chart's side: the chart's width plus room for the scroll bar and padding; the grid keeps
// at least minGridWidth (two columns of tiles at the default zoom).
const (
	chartMargin  = 28
	minGridWidth = 200
)

// setChart shows chart c, drawn as img.
func (v *View) setChart(c *plot.Confusion, img *image.RGBA) {
	v.Drawn, v.Picture = c, img
	if v.Chart.SetChart(c, img) {
		v.root.Refresh() // the chart's side follows its width
	}
}

// showChosen outlines the cell (label, class) when on, and says what the grid shows.
func (v *View) showChosen(on bool, label, class int, what string) {
	v.Chart.ShowChosen(on, label, class)
	v.Note.SetText(what)
}
