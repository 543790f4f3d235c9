package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/widgets"
)

// gridAsks records what a grid reports, for testing the grid alone.
type gridAsks struct {
	moves  [][2]int // to, extend (1) or not (0)
	clicks []int
	runes  []rune
}

func (a *gridAsks) TypedRune(r rune)                   { a.runes = append(a.runes, r) }
func (a *gridAsks) TypedKey(*fyne.KeyEvent, bool) bool { return false }
func (a *gridAsks) Click(p int, _, _ bool)             { a.clicks = append(a.clicks, p) }
func (a *gridAsks) ContextMenu(int, fyne.Position)     {}
func (a *gridAsks) KeyHandled(fyne.KeyName)            {}
func (a *gridAsks) MoveCursor(to int, extend bool) {
	e := 0
	if extend {
		e = 1
	}
	a.moves = append(a.moves, [2]int{to, e})
}

// The grid alone: it reports the keys and clicks as the positions they ask for and changes no
// view model; its renderer draws what it is handed.
func TestGridReportsWhatThePersonAsked(t *testing.T) {
	test.NewTempApp(t)
	ds, _ := demoStore(t, true)
	v := newView(ds.Select(store.Filter{}), ds.Len())
	v.gen = ds.Gen()
	v.move(5, false)
	asks := &gridAsks{}
	g := widgets.NewTileGrid(asks, nil)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 400))
	g.SetSource(gridFrame{ds: ds, v: v, marks: tileMarks{classes: classes.Of(ds)}})
	cols := g.Geometry().Cols

	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if want := [][2]int{{5 + cols, 0}, {ds.Len() - 1, 0}}; !slices.Equal(asks.moves, want) {
		t.Fatalf("the grid reported %v, want %v", asks.moves, want)
	}
	if v.cursor != 5 {
		t.Fatalf("the grid moved the cursor itself, to %d", v.cursor)
	}
	test.TapAt(g, tileCenter(g, 7))
	test.Type(g, "3")
	if !slices.Equal(asks.clicks, []int{7}) || !slices.Equal(asks.runes, []rune{'3'}) || v.IsSelected(v.At(7)) {
		t.Fatalf("clicks %v, runes %v, tile 7 selected %v", asks.clicks, asks.runes, v.IsSelected(v.At(7)))
	}
	// The badges come from the frame's marks: the demo's labels.
	if b := badgeTexts(g); len(b) < cols || b[0] != strconv.Itoa(ds.Label(0)) {
		t.Fatalf("badges %v", b)
	}
	// Laying out keeps the offset the grid scrolled to: TestGridLayoutKeepsTheOffset (widgets).
}

// The side panel alone: it shows the state it is given without reporting it, and reports what
// the person chooses.
func TestSidePanelAlone(t *testing.T) {
	test.NewTempApp(t)
	var shown []string
	var classes []*int
	suspects := &review.Mode{Name: "Suspects"}
	names := map[mode.Mode]string{browsing: "browse", suspects: "suspects"}
	s := newSidePanel([]showChoice{{name: "Suspects", mode: suspects, subset: store.Live}}, sideInput{
		input:   func(f func()) { f() },
		onShow:  func(m mode.Mode, sub store.Subset) { shown = append(shown, names[m]+strconv.Itoa(int(sub))) },
		onClass: func(c *int) { classes = append(classes, c) },
		onDone:  func() {},
	})
	three := 3
	counts := []store.ClassCount{{Class: 1, Count: 5}, {Class: 3, Count: 2}}
	s.show(sideState{mode: suspects, filter: store.Filter{Subset: store.Live, Class: &three}, counts: counts, total: 7})
	if s.showList.Selected != "Suspects" || s.total.Text != "7 samples" || len(shown) != 0 || len(classes) != 0 {
		t.Fatalf("shown %q, total %q; reported %v %v", s.showList.Selected, s.total.Text, shown, classes)
	}
	s.show(sideState{mode: browsing, filter: store.Filter{Subset: store.Edited}, counts: counts, total: 7})
	if s.showList.Selected != "Edited" || len(shown) != 0 {
		t.Fatalf("shown %q; reported %v", s.showList.Selected, shown)
	}
	s.showList.SetSelected("Deleted")
	s.list.Select(2)
	if !slices.Equal(shown, []string{"browse4"}) || len(classes) != 1 || classes[0] == nil || *classes[0] != 3 {
		t.Fatalf("reported %v and %v", shown, classes)
	}
}

// The footer alone: the status, the keys and the position it is given; a text field's focus
// replaces the keys until it goes.
func TestFooterAlone(t *testing.T) {
	test.NewTempApp(t)
	f := newFooter()
	keys := []mode.Key{{Keys: "0–9", Does: "relabel"}}
	f.show("status", "", keys, "sample 1 of 2")
	f.setTyping(true)
	if f.status.Text != "status" || f.position.Text != "sample 1 of 2" || !slices.Equal(f.shown, typingKeys) {
		t.Fatalf("%q %q %v", f.status.Text, f.position.Text, f.shown)
	}
	f.setTyping(false)
	if !slices.Equal(f.shown, keys) {
		t.Fatalf("after typing the legend shows %v", f.shown)
	}
}

// spotMode is a mode as a new package would add one (mode.Mode and its optional interfaces): it
// shows every third sample in its own view in the grid's place, and a digit there relabels as
// browsing does.
type spotMode struct {
	mode.Browse
	view fyne.CanvasObject
}

func (m spotMode) Title() string              { return "Spot" }
func (m spotMode) KeepsAppended() bool        { return false }
func (m spotMode) Center() fyne.CanvasObject  { return m.view }
func (m spotMode) Status(s mode.State) string { return numfmt.Sprintf("   |   spot %d", s.View.Len()) }
func (m spotMode) Order(s mode.State, _ store.Filter) []int {
	var out []int
	for i := 0; i < s.DS.Len(); i += 3 {
		out = append(out, i)
	}
	return out
}

// A mode is a mode.Mode and one line in the table of modes: entering it shows its order and its
// view in the middle of the window, its status, and the edits act through the same controller.
func TestAModeIsAViewAndAValue(t *testing.T) {
	w, ds := demoWindow(t, true)
	was := ds.Label(3)
	spot := widget.NewLabel("spot view")
	modeSpot := spotMode{view: spot}
	w.c.modes = append(w.c.modes, modeSpot)
	w.c.choose(modeSpot, store.Live)
	// The window's middle: the centre of the window's border, below the banner line.
	middle := w.win.Content().(*fyne.Container).Objects[0].(*fyne.Container).Objects[0].(*fyne.Container)
	if w.c.mode != modeSpot || w.c.v.Len() != 100 || w.c.v.At(1) != 3 || middle.Objects[0] != spot {
		t.Fatalf("mode %v, %d shown, middle %T", w.c.mode, w.c.v.Len(), middle.Objects[0])
	}
	if got := w.footer.status.Text; !strings.Contains(got, "spot 100") {
		t.Fatalf("status %q", got)
	}
	w.c.moveCursor(1, false)
	test.Type(w.grid, string(rune('0'+(ds.Label(3)+1)%10)))
	if ds.Label(3) == was {
		t.Fatal("a digit in the mode did not relabel")
	}
	w.side.showList.SetSelected("All")
	if w.c.mode != browsing || middle.Objects[0] != w.grid || w.c.v.Len() != ds.Len() {
		t.Fatalf("back to browsing: mode %v, middle %T", w.c.mode, middle.Objects[0])
	}
}
