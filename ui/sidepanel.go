package ui

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// subsets are the Show list's choices for browsing, in order; the modes' titles follow them.
var subsets = []struct {
	name   string
	subset store.Subset
}{
	{"All", store.All}, {"Not deleted", store.Live}, {"Edited", store.Edited}, {"Added", store.Added}, {"Deleted", store.Deleted},
}

// showChoice is one entry of the Show list: a subset to browse, or a mode (which shows the
// samples not deleted).
type showChoice struct {
	name   string
	mode   mode.Mode
	subset store.Subset
}

// sideState is what the side panel shows: the mode and filter the grid shows, the class
// histogram (deleted samples left out) and the number of samples.
type sideState struct {
	mode   mode.Mode
	filter store.Filter
	counts []store.ClassCount
	total  int
}

// sidePanel is the left column: what to show (a subset or a mode), the class histogram
// (clicking a class filters the grid to it), go to a sample, and the tile size. It shows the
// state it is given (show) and reports what the person chose; it keeps none of the choices.
type sidePanel struct {
	root     fyne.CanvasObject
	showList *widgets.PassingSelect
	list     *widgets.PassingList
	gotoBox  *dialogs.PromptEntry
	zoom     *widgets.PassingSlider
	total    *widget.Label

	choices []showChoice
	counts  []store.ClassCount
	most    int

	sideInput
	quiet bool // set while the panel shows a state: its widgets' changes are not the person's
}

// sideInput is what the side panel reports: what the person chose in it.
type sideInput struct {
	// input runs the person's choice of what to show as an input (held.go: in order, behind the
	// inputs waiting for a job).
	input    func(func())
	onShow   func(m mode.Mode, subset store.Subset) // the Show list's choice
	onClass  func(class *int)                       // a class of the histogram (nil: every class)
	onGoto   func(i int)
	onZoom   func(z int)
	onDone   func()        // a click in the panel is done: the grid takes the keys again
	onTyping func(on bool) // the go-to box gained (true) or lost the keyboard focus
}

// newSidePanel builds the panel, which reports to in; modes are the titles of the modes the
// Show list offers after the subsets, in order.
func newSidePanel(modes []showChoice, in sideInput) *sidePanel {
	s := &sidePanel{sideInput: in, total: widget.NewLabel("")}
	for _, sub := range subsets {
		s.choices = append(s.choices, showChoice{name: sub.name, mode: browsing, subset: sub.subset})
	}
	s.choices = append(s.choices, modes...)
	names := make([]string, len(s.choices))
	for k, ch := range s.choices {
		names[k] = ch.name
	}
	// The panel's controls pass the keys and characters they do not use to the canvas's
	// handlers (keyRouter.canvasKey, canvasRune), which hand them to the grid.
	s.showList = widgets.NewPassingSelect(names, s.showChanged)
	s.quiet = true
	s.showList.SetSelected("All")
	s.quiet = false
	s.list = widgets.NewPassingList(func() int { return len(s.counts) + 1 }, newClassRow, s.updateRow)
	s.list.OnSelected = func(id widget.ListItemID) {
		if s.quiet {
			return
		}
		var class *int
		if id > 0 && id <= len(s.counts) {
			c := s.counts[id-1].Class
			class = &c
		}
		s.input(func() { s.onClass(class) })
		s.done()
	}
	s.gotoBox = dialogs.NewWatchedEntry(func() { s.done() }, in.onTyping)
	s.gotoBox.SetPlaceHolder("Go to sample #")
	s.gotoBox.OnSubmitted = func(text string) {
		if i, err := strconv.Atoi(text); err == nil && s.onGoto != nil {
			s.onGoto(i)
		}
	}
	s.zoom = widgets.NewPassingSlider(widgets.MinZoom, widgets.MaxZoom)
	s.zoom.SetValue(widgets.DefaultZoom)
	s.zoom.OnChanged = func(v float64) {
		if !s.quiet && s.onZoom != nil {
			s.onZoom(int(v))
		}
	}
	s.zoom.OnChangeEnded = func(float64) { s.done() }
	s.total.Alignment = fyne.TextAlignTrailing
	top := container.NewVBox(
		// "Show" above its list, which then has the column's width for its longest entry.
		widget.NewLabelWithStyle("Show", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), s.showList,
		widget.NewSeparator(),
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Classes", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.total),
	)
	bottom := container.NewVBox(widget.NewSeparator(), s.gotoBox,
		container.NewBorder(nil, nil, widget.NewLabel("Tile size"), nil, s.zoom))
	s.root = container.NewBorder(top, bottom, nil, nil, s.list)
	return s
}

// showChanged reports a choice of what to show (even of the choice already shown: the grid
// takes the keys back either way).
func (s *sidePanel) showChanged(name string) {
	if s.quiet {
		return
	}
	for _, ch := range s.choices {
		if ch.name == name {
			s.input(func() { s.onShow(ch.mode, ch.subset) })
		}
	}
	s.done()
}

// done gives the keys back to the grid after a click in the panel.
func (s *sidePanel) done() {
	if !s.quiet && s.onDone != nil {
		s.onDone()
	}
}

// show shows st: the choice of the Show list that names what the grid shows, the class
// selected, the histogram and the number of samples. It reports nothing.
func (s *sidePanel) show(st sideState) {
	s.quiet = true
	defer func() { s.quiet = false }()
	for _, ch := range s.choices {
		if ch.mode == st.mode && (st.mode != browsing || ch.subset == st.filter.Subset) {
			s.showList.SetSelected(ch.name)
			break
		}
	}
	s.counts, s.most = st.counts, 1
	for _, c := range st.counts {
		s.most = max(s.most, c.Count)
	}
	s.total.SetText(numfmt.Plural(st.total, "sample"))
	s.list.Refresh()
	row := 0
	for k, c := range st.counts {
		if st.filter.Class != nil && c.Class == *st.filter.Class {
			row = k + 1
		}
	}
	s.list.Select(row)
}

// focusGoto gives the go-to box the keys (Edit → Go to Sample…, Ctrl+G) with its text selected,
// so the number typed replaces the last one instead of following it.
func (s *sidePanel) focusGoto() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.gotoBox); c != nil {
		c.Focus(s.gotoBox)
	}
	s.gotoBox.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// setZoom moves the slider without reporting it.
func (s *sidePanel) setZoom(z int) {
	s.quiet = true
	s.zoom.SetValue(float64(z))
	s.quiet = false
}

// classText names a class for display: its name when it has one ("A", "T-shirt"), else its
// number; "unlabelled" for NoLabel.
func classText(c store.ClassCount) string {
	switch {
	case c.Class == sample.NoLabel:
		return "unlabelled"
	case c.Name != "" && c.Name != strconv.Itoa(c.Class):
		return fmt.Sprintf("%d  %s", c.Class, widgets.Clip(c.Name, maxClassText))
	}
	return strconv.Itoa(c.Class)
}

// maxClassText is the most characters of a class name the histogram shows (a class-name file's
// names can be any length; the row must leave room for the bar and the count).
const maxClassText = 12

// classRow is one line of the histogram: class, a bar proportional to its count, the count.
type classRow struct {
	widget.BaseWidget
	name, count *widget.Label
	bar         *canvas.Rectangle
	bars        *fyne.Container
	box         *fyne.Container
}

func newClassRow() fyne.CanvasObject {
	r := &classRow{name: widget.NewLabel("00  XXXX"), count: widget.NewLabel("000000"), bar: canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))}
	r.count.Alignment = fyne.TextAlignTrailing
	r.bars = container.New(&barLayout{}, r.bar)
	r.box = container.NewBorder(nil, nil, r.name, r.count, r.bars)
	r.ExtendBaseWidget(r)
	return r
}

func (r *classRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

func (s *sidePanel) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	r := o.(*classRow)
	bl := r.bars.Layout.(*barLayout)
	if id == 0 {
		r.name.SetText("All classes")
		r.count.SetText("")
		bl.frac = 0
		r.bars.Refresh()
		return
	}
	c := s.counts[id-1]
	r.name.SetText(classText(c))
	r.count.SetText(strconv.Itoa(c.Count))
	bl.frac = float32(c.Count) / float32(s.most)
	r.bar.FillColor = theme.Color(theme.ColorNamePrimary)
	if c.Class == sample.NoLabel {
		r.bar.FillColor = color.NRGBA{150, 150, 150, 255}
	}
	r.bars.Refresh()
}

// barLayout draws its one object as a bar frac of the width, vertically centred.
type barLayout struct{ frac float32 }

func (l *barLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	h := min(size.Height, 12)
	objs[0].Move(fyne.NewPos(0, (size.Height-h)/2))
	objs[0].Resize(fyne.NewSize(size.Width*l.frac, h))
}

func (l *barLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(40, 12) }

var _ fyne.Layout = (*barLayout)(nil)
