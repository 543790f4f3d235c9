package annotators

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"

	"idxlabel/annotate"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// What the Disagreements mode adds to a review, checked when the package builds: a method
// renamed or dropped would otherwise leave the mode acting as the review does, silently.
var _ interface {
	mode.Mode
	mode.Preparer
	mode.KeyTaker
	mode.Marker
	mode.DoneCounter
	mode.StatusSayer
	mode.Describer
	mode.Follower
	mode.OwnView
	mode.StateShower
} = (*Mode)(nil)

// Mode is the Disagreements mode: a review (ui/review) of the samples where the annotators
// compared (Cmp, the open labels among them) gave different labels, each tile badged with every
// annotator's label. A digit adjudicates (the open label becomes it: one undoable, journaled
// decision, store.Dataset.DecideAs), Enter takes the majority where there is one, → keeps the
// open label; each moves on. The status bar gives the annotators' agreement with the open
// labels as they are now (Figures), made again off the UI thread after the labels change; the
// chart beside the grid the confusion matrix of two annotators (Pair, by default the open labels
// and the first file), made with them: a click on a cell lists its samples in the grid (Cell),
// adjudicated as the rest.
type Mode struct {
	*review.Mode
	Cmp *Comparison // nil before a comparison

	c    mode.Controller
	jobs *jobs.Jobs
	// The figures shown, of the dataset at generation figGen; figuring: they are being made
	// again (one computation at a time; a newer generation starts another when it ends).
	figs      Figures
	figGen    uint64
	figuring  bool
	figsFresh bool // figs describe Cmp (false: none yet for it)
	// Pair is the two annotators whose confusion matrix the chart shows; cell the cell the grid
	// lists (all: every disagreement).
	Pair [2]int
	cell [2]int
	all  bool
	view *pairView
}

// newMode makes the Disagreements mode of the window whose controller is c and jobs j, its
// chart beside grid; begin is what choosing it before any comparison does (File → Compare
// Annotations…). A click on a cell and a choice of the pair are inputs of the person's (after
// the inputs that wait).
func newMode(c mode.Controller, j *jobs.Jobs, begin func(), grid fyne.CanvasObject) *Mode {
	m := &Mode{c: c, jobs: j, Pair: [2]int{0, 1}, all: true}
	m.Mode = &review.Mode{Kind: review.Suspects, Name: "Disagreements", Begin: begin,
		Why: func() string { return "no majority" }}
	m.view = newPairView(grid, pairInput{
		onCell: func(x, y int) { c.Input(func() { m.Cell(x, y) }) },
		onPair: func(a, b int) { c.Input(func() { m.SetPair(a, b) }) },
		onAll:  func() { c.Input(m.Every) },
	})
	return m
}

// set makes cmp the comparison shown, with its figures of the dataset at generation gen.
func (m *Mode) set(cmp *Comparison, f Figures, gen uint64) {
	m.Cmp = cmp
	m.List = &review.List{Kind: review.Suspects, Order: cmp.Order, Method: "annotators"}
	m.figs, m.figGen, m.figsFresh = f, gen, true
	m.all, m.Pair = true, f.Pair
}

// Center is the chart beside the grid.
func (m *Mode) Center() fyne.CanvasObject { return m.view.root }

// Shown makes the figures again when the labels changed since they were made (refigure: here,
// on every render, so that they follow the labels even while a message holds the status bar and
// Status is not asked), draws the chart when the figures hold another table than the one drawn
// (O(C²)), and says what the grid shows.
func (m *Mode) Shown(s mode.State) {
	if !m.Ready() {
		return
	}
	if m.figsFresh {
		m.refigure(s.DS)
	}
	m.view.setNames(m.Cmp.Names, m.Pair)
	if m.figsFresh {
		m.view.setTable(m.figs.Table, m.Cmp.Names, m.figs.Pair, s.Classes.Name)
	}
	what := numfmt.Sprintf("Every sample where the annotators differ: %d. Click a cell to list the samples where these two gave those labels.", len(m.Cmp.Order))
	if !m.all {
		what = cellNote(m.Cmp.Names, m.Pair, s.Classes.Long(m.cell[0]), s.Classes.Long(m.cell[1]), len(m.List.Order))
	}
	if m.figs.Pair != m.Pair || m.figuring {
		what += " The matrix is being made again…"
	}
	m.view.showChosen(!m.all && m.figs.Pair == m.Pair, m.cell[0], m.cell[1], what)
}

// Cell lists in the grid the samples where the pair's first annotator gave label x and the
// second y, as the labels are now (O(N), once per click), to adjudicate as usual.
func (m *Mode) Cell(x, y int) {
	if !m.Ready() || m.c.Showing() != mode.Mode(m) {
		return
	}
	s := m.c.State()
	m.List = &review.List{Kind: review.Suspects, Order: cellOf(s.DS, m.Cmp, m.Pair, int32(x), int32(y)), Method: "annotators"}
	m.all, m.cell = false, [2]int{x, y}
	m.c.Changed(m)
	m.c.Focus()
}

// Every lists every disagreement again.
func (m *Mode) Every() {
	if !m.Ready() || m.c.Showing() != mode.Mode(m) {
		return
	}
	m.List = &review.List{Kind: review.Suspects, Order: m.Cmp.Order, Method: "annotators"}
	m.all = true
	m.c.Changed(m)
	m.c.Focus()
}

// SetPair makes the chart the confusion matrix of annotators a and b (made off the UI thread
// with the figures); the grid lists every disagreement again.
func (m *Mode) SetPair(a, b int) {
	if !m.Ready() || a == b || a < 0 || b < 0 || a >= len(m.Cmp.Names) || b >= len(m.Cmp.Names) {
		return
	}
	if m.Pair != [2]int{a, b} {
		m.Pair, m.all = [2]int{a, b}, true
		m.List = &review.List{Kind: review.Suspects, Order: m.Cmp.Order, Method: "annotators"}
		m.c.Changed(m)
	}
	m.c.Render()
	m.c.Focus()
}

// cellOf returns the samples (increasing) where annotator pair[0] gave x and pair[1] gave y,
// the open labels (annotator 0) read as they are now. O(N).
func cellOf(ds *store.Dataset, cmp *Comparison, pair [2]int, x, y int32) []int {
	label := func(i, a int) int32 {
		if a > 0 {
			return cmp.Label(i, a)
		}
		return openLabel(ds, i)
	}
	var out []int
	for i := range cmp.N {
		if label(i, pair[0]) == x && label(i, pair[1]) == y {
			out = append(out, i)
		}
	}
	return out
}

// Ready reports whether a comparison is there to show.
func (m *Mode) Ready() bool { return m.Cmp != nil && m.List != nil }

// Marks badges each tile with every annotator's label.
func (m *Mode) Marks() mode.Badger {
	if !m.Ready() {
		return nil
	}
	return m
}

// Disagreement badge colours: not adjudicated yet (the open label differs from another), and
// adjudicated.
var (
	undecidedColour = color.NRGBA{255, 170, 90, 255}
	decidedColour   = color.NRGBA{120, 220, 140, 255}
)

// Badge is "3|5|5": the open label now, then each other annotator's ("–" for none), with a tick
// once adjudicated.
func (m *Mode) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	if m.Cmp == nil || i >= m.Cmp.N {
		return b
	}
	var sb strings.Builder
	sb.WriteString(short(n, st.Label))
	for a := 1; a <= len(m.Cmp.Others); a++ {
		sb.WriteByte('|')
		sb.WriteString(short(n, int(m.Cmp.Label(i, a))))
	}
	if st.Reviewed {
		return widgets.Badge{Text: sb.String() + " ✓", Color: decidedColour}
	}
	return widgets.Badge{Text: sb.String(), Color: undecidedColour}
}

// short is a label's short name, "–" for none.
func short(n classes.Names, l int) string {
	if l == sample.NoLabel || int32(l) == annotate.NoLabel {
		return "–"
	}
	return n.Short(l)
}

// Key takes Enter (or Space: the majority label of the sample's votes now, the open label as
// adjudicated being one, where there is one) and → (the open label kept, a decision) before the
// grid; each moves on. O(k log k) a key for k annotators.
func (m *Mode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	i := c.State().View.Current()
	if !m.Ready() || i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		if i >= m.Cmp.N {
			c.Say(numfmt.Sprintf("Sample %d was added after the comparison: no other annotator labelled it: type its label", i))
			return true
		}
		v := m.Cmp.Vote(i, openLabel(c.State().DS, i))
		if v.Label == annotate.NoLabel {
			c.Say(numfmt.Sprintf("Sample %d has no majority (at most %d of %d annotators agree): type its label, or → to keep it", i, v.Votes, v.Annotators))
			return true
		}
		m.Label(c, int(v.Label))
	case fyne.KeyRight:
		review.Keep(c, func(int) store.How { return store.HowManual })
	default:
		return false
	}
	return true
}

// Label adjudicates the cursor's sample: its label becomes l (a decision by hand), and the
// cursor moves on.
func (m *Mode) Label(c mode.Controller, l int) {
	if m.Ready() {
		review.DecideAs(c, store.HowManual, l)
	}
}

// Legend is the mode's keys.
func (m *Mode) Legend(digits bool) []mode.Key {
	other := mode.Key{Keys: "0–9", Does: "adjudicate"}
	if !digits {
		other = mode.Key{Keys: "Type a class", Does: "adjudicate"}
	}
	return []mode.Key{other, {Keys: "Enter", Does: "take the majority"}, {Keys: "→", Does: "keep label"}, {Keys: "←", Does: "back"}, {Keys: "Ctrl+Z", Does: "undo"}}
}

// Status is "   |   adjudicated 3 / 120   |   3 annotators: 97.31% agree …": the decisions
// made and the figures (made again when the labels changed since; "…" while they are).
func (m *Mode) Status(s mode.State) string {
	text := numfmt.Sprintf("   |   adjudicated %d / %d", s.View.Done(), s.View.Len())
	if !m.figsFresh {
		return text
	}
	m.refigure(s.DS)
	text += "   |   " + m.figs.Line()
	if m.figuring || m.figGen != s.DS.Gen() || m.figs.Pair != m.Pair {
		text += " …"
	}
	return text
}

// About names every annotator's label of sample i, the majority of them as they are now (the
// open label as adjudicated being one: Cmp.Vote, the one Enter takes), and each annotator's κ
// with the open labels. O(k log k) for k annotators.
func (m *Mode) About(s mode.State, i int) mode.About {
	if !m.Ready() || i < 0 || i >= m.Cmp.N {
		return mode.About{}
	}
	st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
	if !ok {
		return mode.About{}
	}
	n := s.Classes
	parts := []string{fmt.Sprintf("%s (open) %s", m.Cmp.Names[0], long(n, st.Label))}
	for a := 1; a <= len(m.Cmp.Others); a++ {
		parts = append(parts, fmt.Sprintf("%s %s", m.Cmp.Names[a], long(n, int(m.Cmp.Label(i, a)))))
	}
	text := "Annotators: " + strings.Join(parts, ", ") + "."
	if v := m.Cmp.Vote(i, int32(st.Label)); v.Label != annotate.NoLabel {
		text += fmt.Sprintf(" Majority %s (%d of %d): Enter takes it.", long(n, int(v.Label)), v.Votes, v.Annotators)
	} else {
		text += " No majority: type its label."
	}
	if m.figsFresh {
		var ks []string
		for a, k := range m.figs.WithOpen {
			ks = append(ks, fmt.Sprintf("%s %s (κ %s)", m.Cmp.Names[a+1], percent(k.Observed), three(k.Value)))
		}
		text += "\nAgreement with the open labels as adjudicated (Cohen's κ): " + strings.Join(ks, ", ") + "."
	}
	return mode.About{Text: text}
}

// long is a label's long name, "no label" for none.
func long(n classes.Names, l int) string {
	if l == sample.NoLabel {
		return "no label"
	}
	return n.Long(l)
}

// Follow keeps the comparison with its samples after a save that renumbered them, or ends it
// after a replayed journal or another dataset (renumber nil): the other annotators' labels
// no longer name these samples.
func (m *Mode) Follow(renumber []int) {
	if renumber == nil || m.Cmp == nil {
		m.Cmp, m.List, m.figsFresh = nil, nil, false
		return
	}
	m.Mode.Follow(renumber)
	m.Cmp = m.Cmp.Renumbered(renumber)
	m.figGen = 0 // made again for the samples kept
}

// refigure makes the figures again, off the UI thread, when the dataset changed since they
// were made and none is being made: the open labels read there (store.Dataset.StateAt, as the
// edits go on), the panel and its summary made anew (O(N·k·log k), 4·N·k bytes), then shown.
// Nothing of it runs per key on the UI thread; edits never wait for it.
func (m *Mode) refigure(ds *store.Dataset) {
	gen := ds.Gen()
	if m.figuring || gen == m.figGen && m.figs.Pair == m.Pair || m.Cmp == nil {
		return
	}
	m.figuring = true
	cmp, pair := m.Cmp, m.Pair
	job := m.jobs.Start(jobs.Checking, "")
	m.jobs.Run(func() {
		f, err := cmp.Figures(openLabels(ds, cmp.N), pair)
		testhook.WaitGate(job.Ctx, testhook.AgreeGate) // a test's hook (edits made after the labels were read); nothing otherwise
		m.jobs.Schedule(func() {
			cancelled := job.Ctx.Err() != nil
			m.jobs.Finish(job)
			m.figuring = false
			if cancelled || err != nil || m.Cmp != cmp {
				return // the window quits, or the comparison changed: nothing to show
			}
			m.figs, m.figGen = f, gen
			if m.c.Showing() == mode.Mode(m) {
				m.c.Render() // the status bar shows them (and asks again if the labels changed since)
			}
		})
	})
}

// openLabels reads the first n samples' labels of ds as they are now (annotate.NoLabel for none,
// and for a sample gone); safe off the UI thread. O(n).
func openLabels(ds *store.Dataset, n int) []int32 {
	out := make([]int32, n)
	for i := range n {
		out[i] = openLabel(ds, i)
	}
	return out
}

// openLabel reads sample i's label of ds as it is now (annotate.NoLabel for none, and for a
// sample gone); safe off the UI thread. O(1).
func openLabel(ds *store.Dataset, i int) int32 {
	st, ok := ds.StateAt(i)
	if !ok {
		return annotate.NoLabel
	}
	return int32(st.Label)
}
