// Package review is the review of a list of samples, each with a model's verdict, decided one by
// one: the base of the window's Suspects review (ui/suspects), the Suggested list (ui/suggest)
// and the confusion matrix's cells (ui/confusion). A List is what a model found; a Mode reviews
// it in the grid (mode.Mode): Enter accepts the suggestion, a digit sets another label, → keeps
// the label or skips, each one journaled, undoable decision (Decide, DecideAs, Keep) made through
// the mode.Controller.
package review

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// The review modes: the grid shows a list of samples, each with the label a model suggests, for
// a person to decide one by one. Two sources fill it: the suspects (likely label errors,
// scan.go) and the suggested labels of samples without one (suggest.go). In both, Enter (or
// Space) accepts the suggestion, a digit (or the class picker, for classes above 9) sets another
// label, → keeps the label a sample has or skips one without, and every decision is one
// undoable, journaled edit (controller.decide). The review keeps its order while decisions
// change the labels.

// Kind names a review's source.
type Kind int

const (
	Suspects  Kind = iota // labelled samples whose label is likely wrong
	Suggested             // samples without a label
)

// List is a list of samples to decide, with the model's verdict on each.
type List struct {
	Kind       Kind
	Order      []int                   // samples to review, in sample indices: most suspicious or most confident first
	Of         map[int]suspect.Suspect // verdict by sample index (Index is the sample index)
	Neighbours map[int][]int           // nearest samples by sample index (suspects only)
	Took       time.Duration
	Method     string // what made the verdicts: the kNN, or the CNN and what it learnt from
	// few: the model that made the verdicts learnt from fewer than suspect.FewLabels labelled
	// samples, so its confidences, calibrated on few held-out labels, deserve little trust.
	Few bool
	// pending: the model is still training or predicting (suggested only); order is in sample
	// order and of is empty until it is done.
	Pending bool
	// The Suggested list's samples asked for (ask.go), with the suggestions made for them,
	// scored but not shown; suggestsNone: no suggestion yet (labels of fewer than two classes).
	Asked        map[int]bool
	Hidden       map[int]suspect.Suspect
	SuggestsNone bool
}

// suspectScore is the smallest score a sample needs to enter the review: most of its neighbours
// (distance-weighted) disagree with its label.
const suspectScore = suspect.DoubtScore

// Badge colours of the samples a review has not decided yet: a suspect ("7→1?"), a suggestion
// for a sample without a label ("7? 93%"), an asked sample still without a label ("ask").
var (
	SuspectColour   = color.NRGBA{200, 150, 255, 255}
	suggestedColour = color.NRGBA{110, 200, 255, 255}
	askedColour     = color.NRGBA{255, 200, 90, 255}
)

// askedBadge is the badge of an asked sample still without a label.
func (r *List) askedBadge() widgets.Badge { return widgets.Badge{Text: "ask", Color: askedColour} }

// Decided reports whether the review has decided sample st: a suspect once a person reviewed
// it, a sample without a label once it has one.
func (r *List) Decided(st store.State) bool {
	if r.Kind == Suggested {
		return st.Label != sample.NoLabel
	}
	return st.Reviewed
}

// How is how a decision on sample i chose label, for the change log: the review's suggestion
// accepted (Enter, or in a review of suspects typing the suggested class) is suspect-accepted
// in a review of suspects and suggested-accepted in one of samples without a label; any other
// label is set by hand (a label kept is no change). In a review of samples without a label a
// typed class is the person's label even when it is the suggested one (Typed).
func (r *List) How(i, label int) store.How {
	if s, ok := r.Of[i]; ok && s.Suggested == label {
		if r.Kind == Suggested {
			return store.HowSuggestedAccepted
		}
		return store.HowSuspectAccepted
	}
	return store.HowManual
}

// Badge is the badge of sample i (state st) in the review: a suspect "7→1?", a sample without a
// label "7? 93%" (the suggestion and the model's confidence; "7?" alone when the model learnt
// from too few labels for its confidence to be trusted), until decided; then its label badge b
// with a tick.
func (r *List) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	s, ok := r.Of[i]
	switch {
	case st.Reviewed && (r.Kind == Suggested || ok):
		b.Text += " ✓"
	case r.Kind == Suggested && st.Label == sample.NoLabel && r.Asked[i]:
		return r.askedBadge()
	case r.Kind == Suggested && st.Label == sample.NoLabel && ok && r.Few:
		return widgets.Badge{Text: n.Short(s.Suggested) + "?", Color: suggestedColour}
	case r.Kind == Suggested && st.Label == sample.NoLabel && ok:
		return widgets.Badge{Text: fmt.Sprintf("%s? %d%%", n.Short(s.Suggested), int(100*s.Confidence)), Color: suggestedColour}
	case r.Kind == Suspects && ok && s.Score >= suspectScore && s.Suggested != st.Label:
		return widgets.Badge{Text: n.Short(st.Label) + "→" + n.Short(s.Suggested) + "?", Color: SuspectColour}
	}
	return b
}

// Renumbered returns the review as it stands after a save that renumbered the samples (to maps
// each old number to the new one, -1 for a deleted sample, now gone): the same order and
// verdicts, without the deleted samples.
func (r *List) Renumbered(to []int) *List {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &List{Kind: r.Kind, Of: map[int]suspect.Suspect{}, Neighbours: map[int][]int{}, Took: r.Took, Method: r.Method, Pending: r.Pending, Few: r.Few,
		Asked: map[int]bool{}, Hidden: map[int]suspect.Suspect{}, SuggestsNone: r.SuggestsNone}
	for i := range r.Asked {
		if k, ok := at(i); ok {
			out.Asked[k] = true
		}
	}
	for i, x := range r.Hidden {
		if k, ok := at(i); ok {
			x.Index = k
			out.Hidden[k] = x
		}
	}
	for _, i := range r.Order {
		if k, ok := at(i); ok {
			out.Order = append(out.Order, k)
		}
	}
	for i, x := range r.Of {
		if k, ok := at(i); ok {
			x.Index = k
			out.Of[k] = x
		}
	}
	for i, nb := range r.Neighbours {
		if k, ok := at(i); ok {
			var m []int
			for _, j := range nb {
				if jk, ok := at(j); ok {
					m = append(m, jk)
				}
			}
			out.Neighbours[k] = m
		}
	}
	return out
}

// What a review adds to browsing, checked when the package builds: a method renamed or dropped
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

// Mode is the mode that reviews a List: the suspects or the suggested labels (Kind), its entry
// in the Show list (Name). The package that makes the list sets List (nil before it is made) and
// says how the mode begins and what it says: its functions run on the UI thread.
type Mode struct {
	mode.Browse
	Kind  Kind
	Name  string // its entry in the Show list
	List  *List  // nil before the first scan or suggestions
	Begin func() // starts making List (the Suspects' scan, the Suggested list's first round)
	// Why says why there is no suggestion for a sample ("the model is training").
	Why func() string
	// The Suggested list's: why the cursor's sample has no suggestion to accept (WhyNot; nil:
	// Why), its part of the status bar (Progress; nil: "reviewed 37 / 299"), and what is told of
	// each decision made (Decided; nil: nothing).
	WhyNot   func(i int) string
	Progress func(s mode.State) string
	Decided  func(r *List, i, label int, how store.How)
}

func (m *Mode) Title() string       { return m.Name }
func (m *Mode) Ready() bool         { return m.List != nil }
func (m *Mode) Start()              { m.Begin() }
func (m *Mode) KeepsAppended() bool { return false }

// Marks hands the grid the review's verdicts.
func (m *Mode) Marks() mode.Badger {
	if m.List == nil {
		return nil
	}
	return m.List
}

// Order returns the review's samples under a class filter: a sample is of class c when its label
// is c or, having no label, when c is its suggestion (the histogram's "unlabelled" row shows
// those still without a label).
func (m *Mode) Order(s mode.State, f store.Filter) []int {
	var out []int
	for _, i := range m.List.Order {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		if !ok {
			continue
		}
		x, suggested := m.List.Of[i]
		if f.Class == nil || st.Label == *f.Class || st.Label == sample.NoLabel && suggested && x.Suggested == *f.Class {
			out = append(out, i)
		}
	}
	return out
}

// Key handles the review keys before the grid: Enter or Space accepts the suggestion, Right
// keeps the label (a decision) or skips a sample without one; each moves on.
func (m *Mode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	i := c.State().View.Current()
	if m.List == nil || i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		s, ok := m.List.Of[i]
		switch {
		case !ok && m.WhyNot != nil:
			c.Say(m.WhyNot(i))
		case !ok:
			c.Say(m.Why() + ": type its label, or → to skip it")
		default:
			m.decide(c, s.Suggested, m.List.How(i, s.Suggested))
		}
	case fyne.KeyRight:
		Keep(c, func(label int) store.How { return m.List.How(i, label) })
	default:
		return false
	}
	return true
}

// Decide records a person's decision in review r on the cursor's sample: its label becomes
// label (the suggestion accepted, another label set, or the label it has kept), as one
// undoable, journaled edit that marks it reviewed and tells the change log how (review.how);
// then the cursor moves to the next sample.
func Decide(c mode.Controller, r *List, label int) {
	i := c.State().View.Current()
	if i < 0 || r == nil {
		return
	}
	DecideAs(c, r.How(i, label), label)
}

// DecideAs records a decision on the cursor's sample, made as how says: its label becomes
// label, as one undoable, journaled edit that marks it reviewed; then the cursor moves to the
// next sample.
func DecideAs(c mode.Controller, how store.How, label int) {
	i := c.State().View.Current()
	if i < 0 {
		return
	}
	if c.Edit(func(ds *store.Dataset) error { return ds.DecideAs(how, i, label) }) {
		c.Next()
	}
}

// Keep is → in a review: the cursor's sample keeps its label, a decision made as how says (of
// that label), and the cursor moves on; a sample without a label is skipped (no edit).
func Keep(c mode.Controller, how func(label int) store.How) {
	s := c.State()
	st, _, ok := s.DS.SampleAt(s.View.Gen(), s.View.Current())
	switch {
	case !ok:
	case st.Label == sample.NoLabel:
		c.Next() // nothing to keep: skipped, no edit
	default:
		DecideAs(c, how(st.Label), st.Label)
	}
}

// Label records the decision: the label typed for the cursor's sample (Typed says how).
func (m *Mode) Label(c mode.Controller, l int) {
	if m.List == nil {
		return
	}
	m.decide(c, l, m.List.Typed(c.State().View.Current(), l))
}

// Typed is how a class typed for sample i is decided: in a review of samples without a label
// the person's own label (store.HowManual), even when it is the suggested class, for a label a
// person typed is one the next rounds learn from and hold out, where an accepted suggestion
// (Enter) is a pseudo-label they do neither with; in a review of suspects as How says (typing
// the suggested class accepts the suspect, for the change log).
func (r *List) Typed(i, label int) store.How {
	if r.Kind == Suggested {
		return store.HowManual
	}
	return r.How(i, label)
}

// decide records a decision made as how on the cursor's sample (DecideAs), telling decided of
// it (the label is the sample's now).
func (m *Mode) decide(c mode.Controller, label int, how store.How) {
	i, r := c.State().View.Current(), m.List
	if i < 0 || r == nil {
		return
	}
	DecideAs(c, how, label)
	if m.Decided != nil && c.State().DS.Label(i) == label {
		m.Decided(r, i, label, how)
	}
}

func (m *Mode) IsDone(s mode.State) func(int) bool {
	return func(i int) bool {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		return ok && m.List.Decided(st)
	}
}

func (m *Mode) Legend(digits bool) []mode.Key {
	other, right := mode.Key{Keys: "0–9", Does: "other label"}, mode.Key{Keys: "→", Does: "keep label"}
	if !digits {
		other = mode.Key{Keys: "Type a class", Does: "other label"}
	}
	if m.Kind == Suggested {
		right.Does = "skip"
		return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, other, right, {Keys: "Ctrl+Shift+A", Does: "accept its class ≥ its confidence"}, {Keys: "←", Does: "back"}, {Keys: "Ctrl+Z", Does: "undo"}}
	}
	return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, other, right, {Keys: "←", Does: "back"}, {Keys: "Ctrl+Z", Does: "undo"}, {Keys: "Show → All", Does: "end the review"}}
}

// Status is "reviewed 37 / 299" or "labelled 12 / 1,000": the shown samples decided so far.
func (m *Mode) Status(s mode.State) string {
	verb := "reviewed"
	if m.Kind == Suggested {
		verb = "labelled"
	}
	text := numfmt.Sprintf("   |   %s %d / %d", verb, s.View.Done(), s.View.Len())
	if m.Progress != nil {
		text = m.Progress(s)
	}
	if m.List != nil && m.List.Few {
		text += ", " + FewLabelsNote
	}
	return text
}

// FewLabelsNote is said of suggestions made by a model that learnt from fewer than
// suspect.FewLabels labelled samples: their confidence is not to be trusted.
const FewLabelsNote = "few labels: low confidence"

// FewLabels reports whether model learnt from fewer than suspect.FewLabels labelled samples.
func FewLabels(model *suspect.Model) bool {
	return model != nil && model.Labelled() < suspect.FewLabels
}

// About says what the review knows of sample i: the suggestion and how sure the model is, and
// for a suspect up to 8 of its nearest samples with their labels.
func (m *Mode) About(s mode.State, i int) mode.About {
	if m.List == nil || i < 0 {
		return mode.About{}
	}
	x, ok := m.List.Of[i]
	n := s.Classes
	var a mode.About
	switch {
	case !ok && m.List.Asked[i]:
		a.Text = "Asked: its label would help the suggestions most. Type it."
	case !ok:
		a.Text = m.Why() + "."
	case m.Kind == Suggested:
		a.Text = fmt.Sprintf("Suggested %s, %d%% confident (%s).", n.Long(x.Suggested), int(100*x.Confidence), m.List.Method)
	case strings.HasPrefix(m.List.Method, "CNN"):
		a.Text = fmt.Sprintf("Suggested %s (%.0f%% confident; the label %.0f%%).", n.Long(x.Suggested), 100*x.Confidence, 100*(1-x.Score))
	default:
		a.Text = fmt.Sprintf("Suggested %s (%.0f%% of neighbours disagree).", n.Long(x.Suggested), 100*x.Score)
	}
	if ok && m.List.Few {
		a.Text += " Few labels: low confidence."
	}
	if len(m.List.Neighbours[i]) > 0 {
		a.Text += " Nearest:"
	}
	nb := m.List.Neighbours[i]
	h, w := s.DS.Size()
	for _, j := range nb[:min(8, len(nb))] {
		st, px, ok := s.DS.SampleAt(s.View.Gen(), j)
		if !ok {
			continue // the dataset changed since; the view catches up and shows them again
		}
		a.Thumbs = append(a.Thumbs, mode.Thumb{I: j, Link: true, Px: sample.Upright(px, h, w, s.DS.Transposed(), nil), H: h, W: w,
			Caption: n.Short(st.Label) + "  #" + strconv.Itoa(j)})
	}
	return a
}

// Placement is where Refresh put the cursor.
type Placement int

const (
	NotShown       Placement = iota // the review is not shown: only its list changed
	Kept                            // on the sample it was on
	After                           // the new list leaves that sample out: on the nearest after it in the old list that the new one shows
	Before                          // the new list leaves it out, and every sample after it: on the nearest before it
	Top                             // the new list shows none of the old list: on its first
	FirstUndecided                  // start, or the cursor was on no sample of the old list: on the first not decided
)

// Refresh makes r the review's list and shows it (a Suggested round's new asks and suggestions,
// the CNN's ranking of the suspects): the cursor stays on the sample it was on when r shows it,
// wherever r puts it; else it goes to the nearest sample after it in the list it was in that r
// shows (else the nearest before it, else r's first). So a key typed just after the refresh lands
// on the sample the person had under the cursor, or on the next one, not on a sample elsewhere in
// the list: an edit is never applied to a sample the person was not shown. Only when start (the
// person asked for the list's start, or has not moved in it yet), or when the cursor was on no
// sample of the list, does it go to the first sample not decided (ToFirstUndecided). When the
// review is not shown, only the list changes. It returns where the cursor went, for the status
// bar to say. O(list), once a refresh, on the UI thread.
func (m *Mode) Refresh(c mode.Controller, r *List, start bool) Placement {
	old, cur := m.List, c.State().View.Current()
	m.List = r
	c.Changed(m)
	if c.Showing() != mode.Mode(m) {
		return NotShown
	}
	v := c.State().View
	k := -1
	if old != nil && cur >= 0 {
		k = slices.Index(old.Order, cur)
	}
	switch {
	case start || k < 0:
		m.ToFirstUndecided(c)
		return FirstUndecided
	case v.Shows(cur):
		if v.Current() != cur {
			c.MoveCursor(v.Pos(cur))
		}
		return Kept
	}
	for _, i := range old.Order[k+1:] {
		if v.Shows(i) {
			c.MoveCursor(v.Pos(i))
			return After
		}
	}
	for _, i := range slices.Backward(old.Order[:k]) {
		if v.Shows(i) {
			c.MoveCursor(v.Pos(i))
			return Before
		}
	}
	c.MoveCursor(0) // none of the old list is shown: a new list, from its start
	return Top
}

// ToFirstUndecided puts the cursor on the first sample shown that the review has not decided.
func (m *Mode) ToFirstUndecided(c mode.Controller) {
	s := c.State()
	for p := range s.View.Len() {
		if st, _, ok := s.DS.SampleAt(s.View.Gen(), s.View.At(p)); ok && !m.List.Decided(st) {
			c.MoveCursor(p)
			return
		}
	}
}

// Follow renumbers the review after a save, or ends it after a replayed journal.
func (m *Mode) Follow(renumber []int) {
	if renumber == nil || m.List == nil {
		m.List = nil
		return
	}
	m.List = m.List.Renumbered(renumber)
}
