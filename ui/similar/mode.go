package similar

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/widgets"
)

// What the mode adds to browsing, checked when the package builds: a method renamed or dropped
// would otherwise leave the mode acting as browsing does, silently.
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
} = (*Mode)(nil)

// Title is the mode's entry in the Show list.
const Title = "More like this"

// Badge colours: the query's tile, and a near-copy of it.
var (
	queryColour = color.NRGBA{255, 220, 90, 255}
	copyColour  = color.NRGBA{255, 150, 150, 255}
)

// Mode shows a List in the grid, reviewed as suspects are: a digit (or the class picker) sets
// the cursor's sample's label, a journaled decision that marks it reviewed, and moves on; with
// more than one sample selected (Ctrl+A) it relabels them all as one undoable step, as
// browsing does; → keeps the label (a decision) or skips a sample without one. Each tile's badge
// carries its similarity.
type Mode struct {
	mode.Browse
	List  *List  // nil before the first query
	Begin func() // asks for the samples like the cursor's (the Show list's choice with no list yet)
}

func (m *Mode) Title() string       { return Title }
func (m *Mode) Ready() bool         { return m.List != nil }
func (m *Mode) Start()              { m.Begin() }
func (m *Mode) KeepsAppended() bool { return false }

// Marks hands the grid each sample's similarity.
func (m *Mode) Marks() mode.Badger {
	if m.List == nil {
		return nil
	}
	return m.List
}

// Order returns the list's samples under a class filter (f's subset is the list itself).
func (m *Mode) Order(s mode.State, f store.Filter) []int {
	var out []int
	for _, i := range m.List.Order {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		if ok && (f.Class == nil || st.Label == *f.Class) {
			out = append(out, i)
		}
	}
	return out
}

// Label relabels the selection when more than one sample is selected (Ctrl+A, then a digit:
// one undoable step), else records the decision on the cursor's sample and moves on.
func (m *Mode) Label(c mode.Controller, l int) {
	if c.State().View.SelectionSize() > 1 {
		c.Relabel(l)
		return
	}
	review.DecideAs(c, store.HowManual, l)
}

// Key takes →: the cursor's sample keeps its label (a decision) and the cursor moves on.
func (m *Mode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	if m.List == nil || k.Name != fyne.KeyRight || c.State().View.Current() < 0 {
		return false
	}
	review.Keep(c, func(int) store.How { return store.HowManual })
	return true
}

// IsDone counts a sample done once a person decided its label in a review.
func (m *Mode) IsDone(s mode.State) func(int) bool {
	return func(i int) bool {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		return ok && st.Reviewed
	}
}

// Legend is the mode's keys.
func (m *Mode) Legend(digits bool) []mode.Key {
	label := mode.Key{Keys: "0–9", Does: "label, next"}
	if !digits {
		label.Keys = "Type a class"
	}
	return []mode.Key{label, {Keys: "Ctrl+A, then a label", Does: "relabel all"}, {Keys: "→", Does: "keep label"}, {Keys: "Ctrl+F", Does: "more like the cursor's"}, {Keys: "Ctrl+Z", Does: "undo"}}
}

// Status is "   |   like #123 by CNN features: reviewed 3 / 101" (where the features came from
// is said when the list is made, and in the detail panel).
func (m *Mode) Status(s mode.State) string {
	if m.List == nil {
		return ""
	}
	what := "the drawing"
	if m.List.Query >= 0 {
		what = "#" + strconv.Itoa(m.List.Query)
	}
	return numfmt.Sprintf("   |   like %s by %s: reviewed %d / %d", what, m.List.Space, s.View.Done(), s.View.Len())
}

// About says the similarity of sample i to the query and shows the query beside it.
func (m *Mode) About(s mode.State, i int) mode.About {
	l := m.List
	if l == nil || i < 0 {
		return mode.About{}
	}
	x, ok := l.Of[i]
	if !ok {
		return mode.About{}
	}
	var a mode.About
	switch {
	case i == l.Query:
		a.Text = fmt.Sprintf("The sample asked about: the others are the most like it by %s (%s).", l.Space, l.From)
		return a
	case x.Copy:
		a.Text = fmt.Sprintf("A near-copy of the query: pixel similarity %.3f (shift-aligned).", x.Similarity)
	default:
		a.Text = fmt.Sprintf("Similarity %.3f to the query (the cosine of their %s: %s).", x.Similarity, l.Space, l.From)
	}
	h, w := s.DS.Size()
	switch {
	case l.Query >= 0:
		st, px, ok := s.DS.SampleAt(s.View.Gen(), l.Query)
		if ok {
			a.Thumbs = append(a.Thumbs, mode.Thumb{I: l.Query, Link: true, Px: sample.Upright(px, h, w, s.DS.Transposed(), nil), H: h, W: w,
				Caption: "query " + s.Classes.Short(st.Label) + "  #" + strconv.Itoa(l.Query)})
		}
	case l.Drawn != nil:
		a.Thumbs = append(a.Thumbs, mode.Thumb{I: -1, Px: l.Drawn, H: l.H, W: l.W, Caption: "the drawing"})
	}
	return a
}

// Follow renumbers the list after a save, or ends it after a replayed journal or another
// dataset.
func (m *Mode) Follow(renumber []int) {
	if renumber == nil || m.List == nil {
		m.List = nil
		return
	}
	m.List = m.List.Renumbered(renumber)
}

// Badge is sample i's label badge b with its similarity ("7  0.973"), the query's "7  query", a
// near-copy's in its colour; a ✓ once reviewed. On a tile too narrow for that (the smallest
// tiles), the badge says the label alone (and the ✓), in the same colour: the cursor's
// similarity is in the detail panel.
func (l *List) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	x, ok := l.Of[i]
	if ok {
		b.Short = b.Text
		if st.Reviewed {
			b.Short += " ✓"
		}
	}
	switch {
	case !ok:
		return b
	case i == l.Query:
		b.Text += "  query"
		b.Color = recolour(st, b.Color, queryColour)
	case x.Copy:
		b.Text += fmt.Sprintf("  ≈%.3f", x.Similarity)
		b.Color = recolour(st, b.Color, copyColour)
	default:
		b.Text += fmt.Sprintf("  %.3f", x.Similarity)
	}
	if st.Reviewed {
		b.Text += " ✓"
	}
	return b
}

// recolour is a badge's colour: c, unless the sample is deleted (its badge keeps was).
func recolour(st store.State, was, c color.Color) color.Color {
	if st.Deleted {
		return was
	}
	return c
}
