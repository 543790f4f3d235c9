// Package mapview is the window's map of the dataset (Tools → Map of the Dataset, Ctrl+M): every
// sample as a point of the 2-D map of the window's CNN scan's features (widgets.MapView) beside
// the grid, laid out once per scan in the background (Mapper) and kept in step with every edit;
// a lasso makes the grid show the samples inside it, all selected, so that one digit relabels
// them all.
package mapview

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/plot"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
	"idxlabel/ui/widgets"
)

// The map mode: every sample as a point of the 2-D map of the last CNN scan's features
// (Mapper lays it out the first time, with progress and Cancel), beside the grid. Points are
// coloured by given label or by the label the model suggests; suspects (the label is not the
// model's out-of-fold prediction) are ringed, edited samples boxed, the grid's selection haloed
// and its cursor crossed. Drag pans, the wheel zooms, the pointer shows a point's tile, a click
// moves the grid's cursor to the point; a lasso (Shift+drag, or a drag with the lasso tool on;
// Ctrl adds to the last) makes the grid show the samples inside it, all selected, so that one
// digit relabels them all in one undoable step. Escape shows every sample again.

// What the map adds to browsing, checked when the package builds.
var _ interface {
	mode.Mode
	mode.Preparer
	mode.KeyTaker
	mode.AppendDropper
	mode.StatusSayer
	mode.Describer
	mode.Follower
	mode.OwnView
	mode.StateShower
	mode.WideView
} = (*Mode)(nil)

// Mode is the mode: what the grid shows beside the map, and the map's frame.
type Mode struct {
	mode.Browse
	// Outliers returns the samples a health check flagged as outliers (nil: none, or no check).
	Outliers func() []int
	views    *scan.Views
	Maps     *Mapper // lays out the map of the scan and places samples on it
	Panel    *Panel
	D        *scan.Data // the scan the map is of (nil: none yet)
	// Lassoed holds the samples the last lasso took, ascending: the grid shows them; nil: every
	// sample the filter selects.
	Lassoed []int
	ByModel bool // colour by the suggested label
	// The frame's parts kept between frames: the static marks, made again when the layout (lay
	// at version, coloured by the model when frameByModel) changes, and the marks of the
	// selection and the cursor, made each time in place.
	lay          *Layout
	version      int
	frameByModel bool
	frames       int             // the frame version handed to the view
	out          []int           // the outliers marked
	Static       []plot.Marked   // the suspects and the outliers
	edited       [][]plot.Marked // the edited points by palette index (the last: no colour)
	Over         []plot.Marked   // the selection's and the cursor's marks
	s            mode.State      // the state last shown (the hover card reads the samples from it)
}

// wide: the map takes the detail panel's room (its hover card shows the sample under the mouse;
// the grid beside it the cursor's).
func (m *Mode) Wide() bool { return true }

// New builds the map's mode of the window whose controller is c, its jobs j, the scan's data
// kept by views, beside grid; outliers returns the samples a health check flagged (the map marks
// them). The map's layout follows the scan's data through views.Watch. A point picked, a lasso
// are inputs of the person's (after the inputs that wait).
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, views *scan.Views, grid fyne.CanvasObject, outliers func() []int) *Mode {
	m := &Mode{views: views, Outliers: outliers}
	m.Maps = &Mapper{c: c, jobs: j, d: d, views: views}
	views.Watch(m.Maps.follow, m.Maps.stop)
	m.Panel = newPanel(grid, panelInput{
		onColour: func(byModel bool) { m.setColour(c, byModel) },
		onCancel: m.Maps.cancelLayout,
		onRetry: func() {
			if m.D != nil {
				m.Maps.layOut(m.D)
				c.Render()
			}
		},
		onDone: c.Focus,
	}, widgets.MapInput{
		OnPick:  func(pt int) { c.Input(func() { m.pick(c, pt) }) },
		OnLasso: func(points []int, add bool) { c.Input(func() { m.lasso(c, points, add) }) },
		OnDone:  c.Focus,
		Tile:    m.tile,
	})
	return m
}

func (m *Mode) Title() string { return "Map" }
func (m *Mode) Start()        { m.open(m.Maps.c) }

// ready reports whether the scan the map is of is still the one to show (its layout may still
// be running: the view shows its progress).
func (m *Mode) Ready() bool { return m.D != nil && m.views.Current() == m.D }

// open is Tools → Map of the Dataset and the Show list's entry: the scan (run first when there
// is none, its progress on the status bar), then the mode, whose view shows the layout's
// progress until the map is laid out.
func (m *Mode) open(c mode.Controller) {
	m.views.Open(func(d *scan.Data) {
		if m.D != d {
			m.Lassoed = nil
		}
		m.D = d
		m.Maps.layOut(d)
		c.Enter(m)
	})
}

// order returns the lassoed samples the filter selects, or, without a lasso, every sample it
// selects.
func (m *Mode) Order(s mode.State, f store.Filter) []int {
	if m.Lassoed == nil {
		return s.DS.Select(f)
	}
	var out []int
	for _, i := range m.Lassoed {
		if st, _, ok := s.DS.SampleAt(s.View.Gen(), i); ok && selects(f, st) {
			out = append(out, i)
		}
	}
	return out
}

// selects reports whether filter f selects a sample of state st (as store.Dataset.Select does).
func selects(f store.Filter, st store.State) bool {
	if f.Class != nil && st.Label != *f.Class {
		return false
	}
	switch f.Subset {
	case store.Live:
		return !st.Deleted
	case store.Edited:
		return st.Edited
	case store.Added:
		return st.Added
	case store.Deleted:
		return st.Deleted
	}
	return true
}

func (m *Mode) KeepsAppended() bool { return m.Lassoed == nil }

// key takes Escape while a lasso's samples are shown: every sample is shown again.
func (m *Mode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape || m.Lassoed == nil {
		return false
	}
	m.showLasso(c, nil, false)
	return true
}

func (m *Mode) Legend(digits bool) []mode.Key {
	relabel := mode.Key{Keys: "0–9", Does: "relabel selection"}
	if !digits {
		relabel = mode.Key{Keys: "Type a class", Does: "relabel selection"}
	}
	return []mode.Key{{Keys: "Shift+drag", Does: "lasso"}, {Keys: "Drag", Does: "pan"}, {Keys: "Wheel", Does: "zoom"}, {Keys: "Click", Does: "go to sample"}, relabel, {Keys: "Esc", Does: "every sample"}, {Keys: "Ctrl+Z", Does: "undo"}}
}

// status says what the grid shows beside the map.
func (m *Mode) Status(s mode.State) string {
	if m.Lassoed != nil {
		return numfmt.Sprintf("   |   lasso: %d samples", len(m.Lassoed))
	}
	return ""
}

func (m *Mode) About(s mode.State, i int) mode.About {
	st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
	if m.D == nil || !ok {
		return mode.About{}
	}
	return mode.About{Text: m.D.Prediction(s.Classes, i, st.Label)}
}

// follow keeps the lasso's samples through a save; a replayed journal ends the map.
func (m *Mode) Follow(renumber []int) {
	if renumber == nil {
		m.D, m.Lassoed, m.lay = nil, nil, nil
		return
	}
	if m.Lassoed == nil {
		return
	}
	kept := make([]int, 0, len(m.Lassoed))
	for _, i := range m.Lassoed {
		if i >= 0 && i < len(renumber) && renumber[i] >= 0 {
			kept = append(kept, renumber[i])
		}
	}
	m.Lassoed = kept
}

func (m *Mode) Center() fyne.CanvasObject { return m.Panel.Root }

// shown hands the panel the map's frame (or the layout's progress) for the state s: the static
// marks are made again only when the layout changed (O(marked points)); the selection's and the
// cursor's marks each time (O(selected)).
func (m *Mode) Shown(s mode.State) {
	m.s = s
	d, p := m.D, m.Panel
	if d == nil {
		return
	}
	mp := m.Maps
	l := mp.layOf(d)
	if l == nil {
		p.showBusy(d, mp)
		return
	}
	colour := l.Given
	if m.ByModel {
		colour = l.ByModel
	}
	var out []int
	if m.Outliers != nil {
		out = m.Outliers()
	}
	if l != m.lay || l.version != m.version || m.frameByModel != m.ByModel || !sameList(out, m.out) {
		m.lay, m.version, m.frameByModel, m.out = l, l.version, m.ByModel, out
		m.frames++
		m.Static = m.Static[:0]
		for k := range m.edited {
			m.edited[k] = m.edited[k][:0]
		}
		for len(m.edited) < len(l.palette)+1 {
			m.edited = append(m.edited, nil)
		}
		for _, pt := range l.marked {
			mk := l.Static[pt]
			if mk&plot.Suspect != 0 {
				m.Static = append(m.Static, plot.Marked{Index: int(pt), Marks: plot.Suspect})
			}
			if mk&plot.Edited != 0 {
				k := min(int(colour[pt]), len(l.palette))
				m.edited[k] = append(m.edited[k], plot.Marked{Index: int(pt), Marks: plot.Edited})
			}
		}
		for _, i := range out {
			if i >= 0 && i < len(l.Point) && l.Point[i] >= 0 {
				m.Static = append(m.Static, plot.Marked{Index: int(l.Point[i]), Marks: plot.Outlier})
			}
		}
		p.SetKey(l.Classes, l.palette, s.Classes)
	}
	m.Over = m.Over[:0]
	pointOf := func(i int) int {
		if i < 0 || i >= len(l.Point) {
			return -1
		}
		return int(l.Point[i])
	}
	for _, i := range s.View.Marked() {
		if pt := pointOf(i); pt >= 0 && s.View.IsSelected(i) {
			m.Over = append(m.Over, plot.Marked{Index: pt, Marks: plot.Selected})
		}
	}
	if pt := pointOf(s.View.Current()); pt >= 0 {
		m.Over = append(m.Over, plot.Marked{Index: pt, Marks: plot.Cursor})
	}
	p.showMap(widgets.MapFrame{Map: l.PM, Points: plot.Layer{Colour: colour, Palette: l.palette, Marked: m.Static},
		Edited: m.edited[:len(l.palette)+1], Version: m.frames, Over: m.Over, Style: widgets.PlotStyle()})
}

// sameList reports whether a and b are the same list (the same elements of the same array): a
// list the health check made again, or that grew, is not.
func sameList(a, b []int) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// tile is what the hover card shows of a point: the sample's tile and its number, label and the
// model's suggestion.
func (m *Mode) tile(pt int) (image.Image, string, bool) {
	s, l := m.s, m.lay
	if s.DS == nil || l == nil || pt < 0 || pt >= len(l.Sample) {
		return nil, "", false
	}
	i := l.Sample[pt]
	st, px, ok := s.DS.SampleAt(s.View.Gen(), i)
	if !ok {
		return nil, "", false
	}
	h, w := s.DS.Size()
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, sample.Upright(px, h, w, s.DS.Transposed(), nil))
	text := "#" + strconv.Itoa(i) + "  " + s.Classes.Short(st.Label)
	if sg := l.suggest[pt]; sg != st.Label {
		text += " → " + s.Classes.Short(sg) + "?"
	}
	return img, text, true
}

// pick is a click on point pt: the grid's cursor goes to its sample (every sample shown again
// first when the lasso's list does not hold it).
func (m *Mode) pick(c mode.Controller, pt int) {
	l := m.lay
	if c.Showing() != mode.Mode(m) || l == nil || pt < 0 || pt >= len(l.Sample) || l.Sample[pt] < 0 {
		return
	}
	i := l.Sample[pt]
	if !c.State().View.Shows(i) && m.Lassoed != nil {
		m.Lassoed = nil
		c.Rebuild(false)
	}
	v := c.State().View
	if !v.Shows(i) {
		c.Say(fmt.Sprintf("Sample %d is not shown (deleted, or another class is chosen)", i))
		return
	}
	c.MoveCursor(v.Pos(i))
	c.Focus()
}

// lasso takes the points inside a lasso (add: joined to the last lasso's): the grid shows their
// samples, all selected, so one digit relabels them all.
func (m *Mode) lasso(c mode.Controller, points []int, add bool) {
	l := m.lay
	if c.Showing() != mode.Mode(m) || l == nil {
		return
	}
	var samples []int
	if add {
		samples = slices.Clone(m.Lassoed)
	}
	for _, pt := range points {
		if pt >= 0 && pt < len(l.Sample) && l.Sample[pt] >= 0 {
			samples = append(samples, l.Sample[pt])
		}
	}
	slices.Sort(samples)
	samples = slices.Compact(samples)
	if len(samples) == 0 {
		c.Say("The lasso holds no sample")
		return
	}
	m.showLasso(c, samples, true)
}

// showLasso shows samples in the grid (nil: every sample), selected when sel.
func (m *Mode) showLasso(c mode.Controller, samples []int, sel bool) {
	m.Lassoed = samples
	c.Rebuild(sel)
	c.Focus()
	if n := c.State().View.SelectionSize(); sel && n > 0 {
		c.Say(numfmt.Sprintf("Lasso: %d samples selected — type a class to relabel them all (Ctrl+Z undoes it)", n))
	}
}

// setColour colours the points by the suggested label (byModel) or by the given one.
func (m *Mode) setColour(c mode.Controller, byModel bool) {
	m.ByModel = byModel
	c.Render()
	c.Focus()
}

// Panel is the map beside the grid: a toolbar (colour by given or suggested label, fit the
// whole map, the lasso tool), the key of the class colours, the map, and while the layout runs
// its progress and Cancel in the map's place.
type Panel struct {
	Root   fyne.CanvasObject
	View   *widgets.MapView
	Colour *widgets.PassingSelect // colour by given or suggested label
	tool   *widgets.PassingCheck
	key    *fyne.Container
	Busy   *fyne.Container // the layout's progress and Cancel, shown in the map's place
	text   *widget.Label
	bar    *widget.ProgressBar
	button *widgets.PassingButton
	shown  []int // the classes the key shows

	panelInput
}

// panelInput is what the map's controls report.
type panelInput struct {
	onColour func(byModel bool)
	onCancel func() // Cancel the layout
	onRetry  func() // lay the map out again after a Cancel
	onDone   func() // a control was used: the grid takes the keys again
}

// Choices of the colour toggle.
const (
	ColourGiven     = "Given label"
	ColourSuggested = "Suggested label"
)

// newPanel builds the map (reporting to view) and its controls (reporting to in) beside grid.
func newPanel(grid fyne.CanvasObject, in panelInput, view widgets.MapInput) *Panel {
	p := &Panel{panelInput: in, View: widgets.NewMapView(view), text: widget.NewLabel(""), bar: widget.NewProgressBar()}
	// The first choice is made before the person's choices are reported: it is nobody's.
	p.Colour = widgets.NewPassingSelect([]string{ColourGiven, ColourSuggested}, nil)
	p.Colour.SetSelected(ColourGiven)
	p.Colour.OnChanged = func(s string) {
		if p.onColour != nil {
			p.onColour(s == ColourSuggested)
		}
		p.done()
	}
	p.tool = widgets.NewPassingCheck("Lasso tool (or Shift+drag)", func(on bool) {
		p.View.SetLassoTool(on)
		p.done()
	})
	fit := widgets.NewPassingButton("Fit", func() { p.View.FitAll(); p.done() })
	p.key = container.NewGridWrap(fyne.NewSize(64, KeyRow))
	p.text.Alignment = fyne.TextAlignCenter
	p.text.Wrapping = fyne.TextWrapWord
	p.button = widgets.NewPassingButton("Cancel", func() {
		if p.button.Text == "Cancel" {
			if p.onCancel != nil {
				p.onCancel()
			}
		} else if p.onRetry != nil {
			p.onRetry()
		}
		p.done()
	})
	// The progress spans the map's width (its text wraps there), centred from top to bottom.
	p.Busy = container.NewPadded(container.NewVBox(layout.NewSpacer(), p.text, p.bar, container.NewCenter(p.button), layout.NewSpacer()))
	p.Busy.Hide()
	// One row: the map takes the detail panel's room (Mode.wide), so the row fits beside the
	// grid without widening the window, and the map gets the row's height.
	bar := container.NewHBox(widget.NewLabel("Colour:"), p.Colour, p.tool, layout.NewSpacer(), fit)
	marks := widget.NewLabel("○ suspect (the model disagrees)   □ edited   × outlier (health check)   ◎ cursor")
	marks.Wrapping = fyne.TextWrapWord
	// The key scrolls beyond KeyRows rows (256 classes made it 32 rows, taller than a screen).
	key := container.New(&widgets.CappedHeight{Full: p.key, Max: KeyRows*KeyRow + (KeyRows-1)*theme.Padding()}, container.NewVScroll(p.key))
	top := container.NewVBox(bar, key, marks)
	left := container.NewBorder(top, nil, nil, nil, container.NewStack(p.View, p.Busy))
	split := container.NewHSplit(left, grid)
	split.Offset = 0.65
	p.Root = split
	return p
}

// The key of the class colours: rows of KeyRow pixels, KeyRows of them shown at most.
const (
	KeyRow  = 22
	KeyRows = 3
)

func (p *Panel) done() {
	if p.onDone != nil {
		p.onDone()
	}
}

// showBusy shows, in the map's place, the layout's progress and Cancel, or why there is no map
// and a button to lay it out again.
func (p *Panel) showBusy(d *scan.Data, mp *Mapper) {
	p.View.SetFrame(widgets.MapFrame{Style: widgets.PlotStyle()})
	switch {
	case mp.job != nil && mp.laying:
		p.text.SetText(fmt.Sprintf("Laying out %s by their CNN features…", numfmt.Plural(len(d.Sample), "sample")))
		p.bar.SetValue(mp.progress)
		p.bar.Show()
		p.button.SetText("Cancel")
	default:
		p.text.SetText(mp.stopped + " The map is laid out once per scan.")
		p.bar.Hide()
		p.button.SetText("Lay out the map")
	}
	p.Busy.Show()
}

// showMap shows frame f.
func (p *Panel) showMap(f widgets.MapFrame) {
	p.Busy.Hide()
	p.View.SetFrame(f)
}

// SetKey shows the class colours (palette, in the order of classes) when the classes changed.
func (p *Panel) SetKey(classes []int, palette []color.RGBA, n classes.Names) {
	if slices.Equal(classes, p.shown) {
		return
	}
	p.shown = slices.Clone(classes)
	var items []fyne.CanvasObject
	for k, c := range classes {
		sw := canvas.NewRectangle(palette[k])
		sw.SetMinSize(fyne.NewSize(12, 12))
		t := canvas.NewText(n.Short(c), nil)
		if name := n.Name(c); name != "" {
			t.Text = widgets.Clip(name, 8)
		}
		items = append(items, container.NewHBox(container.NewCenter(sw), t))
	}
	p.key.Objects = items
	p.key.Refresh()
}
