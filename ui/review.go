package ui

import (
	"fmt"
	"image/color"
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

// reviewKind names a review's source.
type reviewKind int

const (
	reviewSuspects  reviewKind = iota // labelled samples whose label is likely wrong
	reviewSuggested                   // samples without a label
)

// review is a list of samples to decide, with the model's verdict on each.
type review struct {
	kind       reviewKind
	order      []int                   // samples to review, in sample indices: most suspicious or most confident first
	of         map[int]suspect.Suspect // verdict by sample index (Index is the sample index)
	neighbours map[int][]int           // nearest samples by sample index (suspects only)
	took       time.Duration
	method     string // what made the verdicts: the kNN, or the CNN and what it learnt from
	// few: the model that made the verdicts learnt from fewer than suspect.FewLabels labelled
	// samples, so its confidences, calibrated on few held-out labels, deserve little trust.
	few bool
	// pending: the model is still training or predicting (suggested only); order is in sample
	// order and of is empty until it is done.
	pending bool
	// The Suggested list's samples asked for (ask.go), with the suggestions made for them,
	// scored but not shown; suggestsNone: no suggestion yet (labels of fewer than two classes).
	asked        map[int]bool
	hidden       map[int]suspect.Suspect
	suggestsNone bool
}

// suspectScore is the smallest score a sample needs to enter the review: most of its neighbours
// (distance-weighted) disagree with its label.
const suspectScore = suspect.DoubtScore

// Badge colours of the samples a review has not decided yet: a suspect ("7→1?"), a suggestion
// for a sample without a label ("7? 93%").
var (
	badgeSuspect   = color.NRGBA{200, 150, 255, 255}
	badgeSuggested = color.NRGBA{110, 200, 255, 255}
)

// decided reports whether the review has decided sample st: a suspect once a person reviewed
// it, a sample without a label once it has one.
func (r *review) decided(st store.State) bool {
	if r.kind == reviewSuggested {
		return st.Label != sample.NoLabel
	}
	return st.Reviewed
}

// how is how a decision on sample i chose label, for the change log: the review's suggestion
// accepted (Enter, or typing the suggested class) is suspect-accepted in a review of suspects
// and suggested-accepted in one of samples without a label; any other label is set by hand (a
// label kept is no change).
func (r *review) how(i, label int) store.How {
	if s, ok := r.of[i]; ok && s.Suggested == label {
		if r.kind == reviewSuggested {
			return store.HowSuggestedAccepted
		}
		return store.HowSuspectAccepted
	}
	return store.HowManual
}

// badge is the badge of sample i (state st) in the review: a suspect "7→1?", a sample without a
// label "7? 93%" (the suggestion and the model's confidence; "7?" alone when the model learnt
// from too few labels for its confidence to be trusted), until decided; then its label badge b
// with a tick.
func (r *review) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	s, ok := r.of[i]
	switch {
	case st.Reviewed && (r.kind == reviewSuggested || ok):
		b.Text += " ✓"
	case r.kind == reviewSuggested && st.Label == sample.NoLabel && r.asked[i]:
		return r.askedBadge()
	case r.kind == reviewSuggested && st.Label == sample.NoLabel && ok && r.few:
		return widgets.Badge{Text: n.Short(s.Suggested) + "?", Color: badgeSuggested}
	case r.kind == reviewSuggested && st.Label == sample.NoLabel && ok:
		return widgets.Badge{Text: fmt.Sprintf("%s? %d%%", n.Short(s.Suggested), int(100*s.Confidence)), Color: badgeSuggested}
	case r.kind == reviewSuspects && ok && s.Score >= suspectScore && s.Suggested != st.Label:
		return widgets.Badge{Text: n.Short(st.Label) + "→" + n.Short(s.Suggested) + "?", Color: badgeSuspect}
	}
	return b
}

// renumbered returns the review as it stands after a save that renumbered the samples (to maps
// each old number to the new one, -1 for a deleted sample, now gone): the same order and
// verdicts, without the deleted samples.
func (r *review) renumbered(to []int) *review {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &review{kind: r.kind, of: map[int]suspect.Suspect{}, neighbours: map[int][]int{}, took: r.took, method: r.method, pending: r.pending, few: r.few,
		asked: map[int]bool{}, hidden: map[int]suspect.Suspect{}, suggestsNone: r.suggestsNone}
	for i := range r.asked {
		if k, ok := at(i); ok {
			out.asked[k] = true
		}
	}
	for i, x := range r.hidden {
		if k, ok := at(i); ok {
			x.Index = k
			out.hidden[k] = x
		}
	}
	for _, i := range r.order {
		if k, ok := at(i); ok {
			out.order = append(out.order, k)
		}
	}
	for i, x := range r.of {
		if k, ok := at(i); ok {
			x.Index = k
			out.of[k] = x
		}
	}
	for i, nb := range r.neighbours {
		if k, ok := at(i); ok {
			var m []int
			for _, j := range nb {
				if jk, ok := at(j); ok {
					m = append(m, jk)
				}
			}
			out.neighbours[k] = m
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
} = (*reviewMode)(nil)

// reviewMode is the mode that reviews a list: the suspects or the suggested labels.
type reviewMode struct {
	mode.Browse
	kind  reviewKind
	name  string  // its entry in the Show list
	r     *review // nil before the first scan or suggestions
	begin func()  // starts making r (scan.go's findSuspects, suggest.go's suggestLabels)
	// why says why there is no suggestion for a sample ("the model is training").
	why func() string
	// The Suggested list's: why the cursor's sample has no suggestion to accept (noSuggestion),
	// its part of the status bar (progressNote), and what is told of each decision (the tally).
	whyNot   func(i int) string
	progress func(s mode.State) string
	decided  func(r *review, i, label int, how store.How)
}

func (m *reviewMode) Title() string       { return m.name }
func (m *reviewMode) Ready() bool         { return m.r != nil }
func (m *reviewMode) Start()              { m.begin() }
func (m *reviewMode) KeepsAppended() bool { return false }

// marks hands the grid the review's verdicts.
func (m *reviewMode) Marks() mode.Badger {
	if m.r == nil {
		return nil
	}
	return m.r
}

// order returns the review's samples under a class filter: a sample is of class c when its label
// is c or, having no label, when c is its suggestion (the histogram's "unlabelled" row shows
// those still without a label).
func (m *reviewMode) Order(s mode.State, f store.Filter) []int {
	var out []int
	for _, i := range m.r.order {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		if !ok {
			continue
		}
		x, suggested := m.r.of[i]
		if f.Class == nil || st.Label == *f.Class || st.Label == sample.NoLabel && suggested && x.Suggested == *f.Class {
			out = append(out, i)
		}
	}
	return out
}

// key handles the review keys before the grid: Enter or Space accepts the suggestion, Right
// keeps the label (a decision) or skips a sample without one; each moves on.
func (m *reviewMode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	i := c.State().View.Current()
	if m.r == nil || i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		s, ok := m.r.of[i]
		switch {
		case !ok && m.whyNot != nil:
			c.Say(m.whyNot(i))
		case !ok:
			c.Say(m.why() + ": type its label, or → to skip it")
		default:
			m.decide(c, s.Suggested)
		}
	case fyne.KeyRight:
		keep(c, func(label int) store.How { return m.r.how(i, label) })
	default:
		return false
	}
	return true
}

// decide records a person's decision in review r on the cursor's sample: its label becomes
// label (the suggestion accepted, another label set, or the label it has kept), as one
// undoable, journaled edit that marks it reviewed and tells the change log how (review.how);
// then the cursor moves to the next sample.
func decide(c mode.Controller, r *review, label int) {
	i := c.State().View.Current()
	if i < 0 || r == nil {
		return
	}
	decideAs(c, r.how(i, label), label)
}

// decideAs records a decision on the cursor's sample, made as how says: its label becomes
// label, as one undoable, journaled edit that marks it reviewed; then the cursor moves to the
// next sample.
func decideAs(c mode.Controller, how store.How, label int) {
	i := c.State().View.Current()
	if i < 0 {
		return
	}
	if c.Edit(func(ds *store.Dataset) error { return ds.DecideAs(how, i, label) }) {
		c.Next()
	}
}

// keep is → in a review: the cursor's sample keeps its label, a decision made as how says (of
// that label), and the cursor moves on; a sample without a label is skipped (no edit).
func keep(c mode.Controller, how func(label int) store.How) {
	s := c.State()
	st, _, ok := s.DS.SampleAt(s.View.Gen(), s.View.Current())
	switch {
	case !ok:
	case st.Label == sample.NoLabel:
		c.Next() // nothing to keep: skipped, no edit
	default:
		decideAs(c, how(st.Label), st.Label)
	}
}

// label records the decision: the label chosen for the cursor's sample.
func (m *reviewMode) Label(c mode.Controller, l int) { m.decide(c, l) }

// decide is decide in this review, telling decided of a decision made (the label is the
// sample's now).
func (m *reviewMode) decide(c mode.Controller, label int) {
	i, r := c.State().View.Current(), m.r
	if i < 0 || r == nil {
		return
	}
	how := r.how(i, label)
	decide(c, r, label)
	if m.decided != nil && c.State().DS.Label(i) == label {
		m.decided(r, i, label, how)
	}
}

func (m *reviewMode) IsDone(s mode.State) func(int) bool {
	return func(i int) bool {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		return ok && m.r.decided(st)
	}
}

func (m *reviewMode) Legend(digits bool) []mode.Key {
	other, right := mode.Key{Keys: "0–9", Does: "other label"}, mode.Key{Keys: "→", Does: "keep label"}
	if !digits {
		other = mode.Key{Keys: "Type a class", Does: "other label"}
	}
	if m.kind == reviewSuggested {
		right.Does = "skip"
		return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, other, right, {Keys: "Ctrl+Shift+A", Does: "accept its class ≥ its confidence"}, {Keys: "←", Does: "back"}, {Keys: "Ctrl+Z", Does: "undo"}}
	}
	return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, other, right, {Keys: "←", Does: "back"}, {Keys: "Ctrl+Z", Does: "undo"}, {Keys: "Show → All", Does: "end the review"}}
}

// status is "reviewed 37 / 299" or "labelled 12 / 1,000": the shown samples decided so far.
func (m *reviewMode) Status(s mode.State) string {
	verb := "reviewed"
	if m.kind == reviewSuggested {
		verb = "labelled"
	}
	text := numfmt.Sprintf("   |   %s %d / %d", verb, s.View.Done(), s.View.Len())
	if m.progress != nil {
		text = m.progress(s)
	}
	if m.r != nil && m.r.few {
		text += ", " + fewLabelsNote
	}
	return text
}

// fewLabelsNote is said of suggestions made by a model that learnt from fewer than
// suspect.FewLabels labelled samples: their confidence is not to be trusted.
const fewLabelsNote = "few labels: low confidence"

// fewLabels reports whether model learnt from fewer than suspect.FewLabels labelled samples.
func fewLabels(model *suspect.Model) bool {
	return model != nil && model.Labelled() < suspect.FewLabels
}

// about says what the review knows of sample i: the suggestion and how sure the model is, and
// for a suspect up to 8 of its nearest samples with their labels.
func (m *reviewMode) About(s mode.State, i int) mode.About {
	if m.r == nil || i < 0 {
		return mode.About{}
	}
	x, ok := m.r.of[i]
	n := s.Classes
	var a mode.About
	switch {
	case !ok && m.r.asked[i]:
		a.Text = "Asked: its label would help the suggestions most. Type it."
	case !ok:
		a.Text = m.why() + "."
	case m.kind == reviewSuggested:
		a.Text = fmt.Sprintf("Suggested %s, %d%% confident (%s).", n.Long(x.Suggested), int(100*x.Confidence), m.r.method)
	case strings.HasPrefix(m.r.method, "CNN"):
		a.Text = fmt.Sprintf("Suggested %s (%.0f%% confident; the label %.0f%%).", n.Long(x.Suggested), 100*x.Confidence, 100*(1-x.Score))
	default:
		a.Text = fmt.Sprintf("Suggested %s (%.0f%% of neighbours disagree).", n.Long(x.Suggested), 100*x.Score)
	}
	if ok && m.r.few {
		a.Text += " Few labels: low confidence."
	}
	if len(m.r.neighbours[i]) > 0 {
		a.Text += " Nearest:"
	}
	nb := m.r.neighbours[i]
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

// toFirstUndecided puts the cursor on the first sample shown that the review has not decided.
func (m *reviewMode) toFirstUndecided(c mode.Controller) {
	s := c.State()
	for p := range s.View.Len() {
		if st, _, ok := s.DS.SampleAt(s.View.Gen(), s.View.At(p)); ok && !m.r.decided(st) {
			c.MoveCursor(p)
			return
		}
	}
}

// follow renumbers the review after a save, or ends it after a replayed journal.
func (m *reviewMode) Follow(renumber []int) {
	if renumber == nil || m.r == nil {
		m.r = nil
		return
	}
	m.r = m.r.renumbered(renumber)
}
