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

	"idxlabel/store"
)

// subsets are the choices of the "Show" radio group, in order.
var subsets = []struct {
	name   string
	subset store.Subset
}{
	{"All", store.All}, {"Not deleted", store.Live}, {"Edited", store.Edited}, {"Added", store.Added}, {"Deleted", store.Deleted},
	{suspectsText, store.Live}, {suggestedText, store.Live},
}

// The "Show" choices of the reviews (review.go): likely label errors, most suspicious first; the
// samples without a label with the model's suggestion, most confident first.
const (
	suspectsText  = "Suspects"
	suggestedText = "Suggested"
)

// sidePanel is the left column: which samples to show (subset, class), the class histogram
// (clicking a class filters the grid to it), go to a sample, and the tile size.
type sidePanel struct {
	root    fyne.CanvasObject
	show    *showSelect
	list    *classList
	gotoBox *promptEntry
	zoom    *zoomSlider
	total   *widget.Label

	counts []store.ClassCount
	most   int
	class  *int // the class filter, nil: all

	onFilter func(f store.Filter) // subset or class changed
	onGoto   func(i int)
	onZoom   func(z int)
	onKey    func(k *fyne.KeyEvent) // keys the focused Show list, class list or slider does not use
	onRune   func(r rune)           // characters they do not use
	onDone   func()                 // a click in the panel is done: the grid takes the keys again
	quiet    bool                   // set while the panel itself updates its widgets
}

func newSidePanel() *sidePanel {
	s := &sidePanel{total: widget.NewLabel("")}
	names := make([]string, len(subsets))
	for k, sub := range subsets {
		names[k] = sub.name
	}
	s.show = newShowSelect(names, s.showChanged)
	s.show.SetSelected("All")
	s.show.onKey = func(k *fyne.KeyEvent) { s.onKey(k) }
	s.show.onRune = func(r rune) { s.onRune(r) }
	s.list = newClassList(func() int { return len(s.counts) + 1 }, newClassRow, s.updateRow)
	s.list.onKey = func(k *fyne.KeyEvent) { s.onKey(k) }
	s.list.onRune = func(r rune) { s.onRune(r) }
	s.list.OnSelected = func(id widget.ListItemID) {
		if s.quiet {
			return
		}
		if id == 0 {
			s.class = nil
		} else {
			c := s.counts[id-1].Class
			s.class = &c
		}
		s.changed()
		s.done()
	}
	s.gotoBox = newPromptEntry(func() { s.done() })
	s.gotoBox.SetPlaceHolder("Go to sample #")
	s.gotoBox.OnSubmitted = func(text string) {
		if i, err := strconv.Atoi(text); err == nil && s.onGoto != nil {
			s.onGoto(i)
		}
	}
	s.zoom = newZoomSlider(minZoom, maxZoom)
	s.zoom.SetValue(defaultZoom)
	s.zoom.OnChanged = func(v float64) {
		if !s.quiet && s.onZoom != nil {
			s.onZoom(int(v))
		}
	}
	s.zoom.OnChangeEnded = func(float64) { s.done() }
	s.zoom.onKey = func(k *fyne.KeyEvent) { s.onKey(k) }
	s.zoom.onRune = func(r rune) { s.onRune(r) }
	s.total.Alignment = fyne.TextAlignTrailing
	top := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Show", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.show),
		widget.NewSeparator(),
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Classes", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.total),
	)
	bottom := container.NewVBox(widget.NewSeparator(), s.gotoBox,
		container.NewBorder(nil, nil, widget.NewLabel("Tile size"), nil, s.zoom))
	s.root = container.NewBorder(top, bottom, nil, nil, s.list)
	return s
}

// showChanged follows a choice of what to show (even of the choice already shown: the grid
// takes the keys back either way).
func (s *sidePanel) showChanged(string) {
	s.changed()
	s.done()
}

// done gives the keys back to the grid after a click in the panel.
func (s *sidePanel) done() {
	if !s.quiet && s.onDone != nil {
		s.onDone()
	}
}

// changed reports the current filter.
func (s *sidePanel) changed() {
	if s.quiet || s.onFilter == nil {
		return
	}
	s.onFilter(s.filter())
}

// filter returns the filter the panel shows.
func (s *sidePanel) filter() store.Filter {
	f := store.Filter{Class: s.class}
	for _, sub := range subsets {
		if sub.name == s.show.Selected {
			f.Subset = sub.subset
		}
	}
	return f
}

// reset shows every sample of every class.
func (s *sidePanel) reset() {
	s.quiet = true
	s.class = nil
	s.show.SetSelected("All")
	s.list.Select(0)
	s.quiet = false
}

// setCounts shows the class histogram (deleted samples left out) and the number of samples.
func (s *sidePanel) setCounts(counts []store.ClassCount, samples int) {
	s.counts, s.most = counts, 1
	for _, c := range counts {
		s.most = max(s.most, c.Count)
	}
	s.total.SetText(samplesText(samples))
	s.list.Refresh()
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
	case c.Class == store.NoLabel:
		return "unlabelled"
	case c.Name != "" && c.Name != strconv.Itoa(c.Class):
		return fmt.Sprintf("%d  %s", c.Class, clip(c.Name, maxClassText))
	}
	return strconv.Itoa(c.Class)
}

// maxClassText is the most characters of a class name the histogram shows (a class-name file's
// names can be any length; the row must leave room for the bar and the count).
const maxClassText = 12

// clip shortens s to at most n characters, ending in "…" when it was longer.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

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
	if c.Class == store.NoLabel {
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
