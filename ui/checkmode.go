package ui

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect/check"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/widgets"
)

// The health check's mode (Tools → Check Dataset, check.go): the grid shows one kind of finding
// at a time, picked in the view above it (checkview.go), each finding a tile, most severe first.
// The keys that fit the kind decide on the tile at the cursor, each decision one undoable,
// journaled edit that moves on: Delete removes the sample (a duplicate's tile, a leak's copy in
// this set; the other set is read-only), a digit sets its label (the class picker for classes
// above 9), → keeps it as it is (a duplicate: keeps both), and among label errors Enter accepts
// the suggestion. The lists are in sample indices; a save renumbers them (follow).

// checkItem is what the check found of one sample in one kind.
type checkItem struct {
	// others are the finding's other samples: a duplicate's copies (sample indices of this
	// dataset), a leak's copies in the other set (positions in its snapshot, otherSet.snap).
	others     []int
	label      int     // the sample's label when it was checked (sample.NoLabel: none)
	suggested  int     // the CNN's most probable class for it (sample.NoLabel: none)
	confidence float64 // the CNN's probability of suggested (label errors; 0 when unknown)
	score      float64 // the kind's score (see check.Kind)
}

// checkState is how far a kind's list is.
type checkState int

const (
	checkWaiting checkState = iota // not found yet
	checkFound                     // found: the list is complete
	checkStopped                   // the check ended before finding it (cancelled, failed)
)

// checkList is one kind's findings: the samples to review, most severe first, each once.
type checkList struct {
	state   checkState
	order   []int             // sample indices
	of      map[int]checkItem // by sample index
	flagged int               // the findings that pass the kind's bar (check.Result.Flagged)
	found   int               // the findings the check kept (check.Options.Top bounds them)
}

// otherSet is the set the leak kind compared with, opened read-only: never locked, never
// written.
type otherSet struct {
	ds   *store.Dataset
	snap sample.Set // what was compared: sample k of the comparison is snap.Index[k]
	name string     // its image file's name
}

// checkFindings is what a health check found, as the mode shows it: the kinds it runs, in list
// order, each kind's list, and the other set (nil when leakage was not checked).
type checkFindings struct {
	kinds     []check.Kind
	lists     map[check.Kind]*checkList
	other     *otherSet
	threshold float64 // the similarity from which duplicates and leaks are listed
}

// newCheckFindings makes the findings of a check of kinds, none found yet.
func newCheckFindings(kinds []check.Kind, threshold float64) *checkFindings {
	f := &checkFindings{kinds: kinds, lists: map[check.Kind]*checkList{}, threshold: threshold}
	for _, k := range kinds {
		f.lists[k] = &checkList{of: map[int]checkItem{}}
	}
	return f
}

// renumbered returns the findings after a save that renumbered the samples (to maps each old
// number to the new one, -1 for a deleted sample, now gone): the same lists without the deleted
// samples, counted without them too (the tab's count is the tiles'), a duplicate's copies
// renumbered. The other set's positions stay.
func (f *checkFindings) renumbered(to []int) *checkFindings {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &checkFindings{kinds: f.kinds, lists: map[check.Kind]*checkList{}, other: f.other, threshold: f.threshold}
	for k, l := range f.lists {
		m := &checkList{state: l.state, of: make(map[int]checkItem, len(l.of)), flagged: l.flagged, found: l.found}
		for p, i := range l.order {
			j, ok := at(i)
			if !ok {
				m.found--
				if p < l.flagged { // the list holds the flagged findings first
					m.flagged--
				}
				continue
			}
			x := l.of[i]
			if k == check.Duplicate {
				var others []int
				for _, o := range x.others {
					if oj, ok := at(o); ok {
						others = append(others, oj)
					}
				}
				x.others = others
			}
			m.order = append(m.order, j)
			m.of[j] = x
		}
		out.lists[k] = m
	}
	return out
}

// checkKindTitle names kind k in the view: "Label errors", "Outliers", "Duplicates", "Leaks".
func checkKindTitle(k check.Kind) string {
	switch k {
	case check.Label:
		return "Label errors"
	case check.Outlier:
		return "Outliers"
	case check.Duplicate:
		return "Duplicates"
	case check.Leak:
		return "Leaks"
	}
	return string(k)
}

// Badge colours of the findings not decided yet (a label error takes the Suspects review's).
var (
	badgeOutlier   = color.NRGBA{255, 140, 210, 255}
	badgeDuplicate = color.NRGBA{110, 200, 255, 255}
	badgeLeak      = color.NRGBA{240, 220, 90, 255}
)

// What the health check's mode adds to browsing, checked when the package builds: a review's
// keys, badges, progress and detail, and a view of its own.
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
} = (*checkMode)(nil)

// checkMode is the mode that reviews a health check's findings.
type checkMode struct {
	f      *checkFindings // nil before a check
	kind   check.Kind     // the kind shown
	picked bool           // the person picked the kind (a later list does not switch it)
	view   *checkView     // the view in the grid's place: the kinds, the progress, the grid
	begin  func()         // asks for a check (checker.ask)
	// followed tells the check running that the samples were renumbered (renumber non-nil)
	// or replaced by a replayed journal (nil).
	followed func(renumber []int)
}

func (m *checkMode) Title() string                { return "Health check" }
func (m *checkMode) Ready() bool                  { return m.f != nil }
func (m *checkMode) Start()                       { m.begin() }
func (m *checkMode) KeepsAppended() bool          { return false }
func (m *checkMode) Center() fyne.CanvasObject    { return m.view.root }
func (m *checkMode) list() *checkList             { return m.listOf(m.kind) }
func (m *checkMode) item(i int) (checkItem, bool) { x, ok := m.list().of[i]; return x, ok }

// listOf returns kind k's list; an empty one when the check does not run k.
func (m *checkMode) listOf(k check.Kind) *checkList {
	if m.f != nil {
		if l := m.f.lists[k]; l != nil {
			return l
		}
	}
	return &checkList{state: checkFound}
}

// order returns the kind's samples under a class filter (their labels now).
func (m *checkMode) Order(s mode.State, f store.Filter) []int {
	var out []int
	for _, i := range m.list().order {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		if ok && (f.Class == nil || st.Label == *f.Class) {
			out = append(out, i)
		}
	}
	return out
}

// marks hands the grid the kind's badges.
func (m *checkMode) Marks() mode.Badger {
	if m.f == nil {
		return nil
	}
	return checkBadges{kind: m.kind, list: m.list(), other: m.f.other}
}

// checkBadges badges the tiles of one kind's list: a label error "7→1?", an outlier "7 ?", a
// duplicate "7 =#4821" (its first copy's sample number), a leak "7 =#53210" (its copy's number
// in the other set); a decided sample (reviewed in a review, or deleted) its label badge, with
// a tick when reviewed.
type checkBadges struct {
	kind  check.Kind
	list  *checkList
	other *otherSet
}

func (c checkBadges) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	x, ok := c.list.of[i]
	switch {
	case !ok || st.Deleted:
		return b
	case st.Reviewed:
		b.Text += " ✓"
		return b
	}
	label := n.Short(st.Label)
	switch c.kind {
	case check.Label:
		if x.suggested != st.Label && x.suggested != sample.NoLabel {
			return widgets.Badge{Text: label + "→" + n.Short(x.suggested) + "?", Color: review.SuspectColour}
		}
	case check.Outlier:
		return widgets.Badge{Text: label + " ?", Color: badgeOutlier}
	case check.Duplicate:
		if len(x.others) > 0 {
			return widgets.Badge{Text: label + " =#" + strconv.Itoa(x.others[0]), Color: badgeDuplicate}
		}
	case check.Leak:
		if len(x.others) > 0 && c.other != nil {
			return widgets.Badge{Text: label + " =#" + strconv.Itoa(c.other.snap.Index[x.others[0]]), Color: badgeLeak}
		}
	}
	return b
}

// key handles the check's keys before the grid: Delete (or Backspace) deletes the selection,
// the cursor's sample, and moves on (again on a deleted sample: restores it); → keeps the
// sample as it is (a review decision; a sample without a label is skipped); Enter or Space
// accepts a label error's suggestion.
func (m *checkMode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	i := c.State().View.Current()
	if m.f == nil || i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		c.ToggleDelete()
		if s := c.State(); s.View.Current() == i {
			if st, _, ok := s.DS.SampleAt(s.View.Gen(), i); ok && st.Deleted {
				c.Next()
			}
		}
	case fyne.KeyRight:
		review.Keep(c, func(int) store.How { return store.HowManual })
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		x, ok := m.item(i)
		if m.kind != check.Label || !ok || x.suggested == sample.NoLabel {
			return false
		}
		review.DecideAs(c, store.HowSuspectAccepted, x.suggested)
	default:
		return false
	}
	return true
}

// label records the decision to give the cursor's sample label l: the suggestion accepted,
// among label errors, when l is it; set by hand otherwise.
func (m *checkMode) Label(c mode.Controller, l int) {
	how := store.HowManual
	if x, ok := m.item(c.State().View.Current()); ok && m.kind == check.Label && x.suggested == l {
		how = store.HowSuspectAccepted
	}
	review.DecideAs(c, how, l)
}

// isDone counts a finding decided once its sample is deleted or reviewed.
func (m *checkMode) IsDone(s mode.State) func(int) bool {
	return func(i int) bool {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		return ok && (st.Deleted || st.Reviewed)
	}
}

func (m *checkMode) Legend(digits bool) []mode.Key {
	digit := mode.Key{Keys: "0–9", Does: "relabel"}
	if !digits {
		digit = mode.Key{Keys: "Type a class", Does: "relabel"}
	}
	del, undo := mode.Key{Keys: "Del", Does: "delete"}, mode.Key{Keys: "Ctrl+Z", Does: "undo"}
	switch m.kind {
	case check.Label:
		digit.Does = "other label"
		return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, digit, {Keys: "→", Does: "keep label"}, del, undo}
	case check.Duplicate:
		return []mode.Key{{Keys: "Del", Does: "delete this copy"}, {Keys: "→", Does: "keep both"}, digit, undo}
	case check.Leak:
		return []mode.Key{{Keys: "Del", Does: "delete this set's copy"}, {Keys: "→", Does: "keep it"}, digit, undo}
	}
	return []mode.Key{del, digit, {Keys: "→", Does: "keep it"}, undo}
}

// status is "   |   decided 3 / 20": the shown findings decided so far.
func (m *checkMode) Status(s mode.State) string {
	return numfmt.Sprintf("   |   decided %d / %d", s.View.Done(), s.View.Len())
}

// about says what the check found of sample i: its score, the suggestion, and a duplicate's or
// a leak's copies, shown large beside it (up to four).
func (m *checkMode) About(s mode.State, i int) mode.About {
	x, ok := m.item(i)
	if m.f == nil || !ok {
		return mode.About{}
	}
	n := s.Classes
	var a mode.About
	switch m.kind {
	case check.Label:
		a.Text = fmt.Sprintf("Label error? The CNN suggests %s, %.0f%% confident; the given label %s has %.0f%% (out of fold).",
			n.Long(x.suggested), 100*x.confidence, n.Long(x.label), 100*(1-x.score))
	case check.Outlier:
		a.Text = fmt.Sprintf("Outlier: unlike every class (score %.1f; from %.0f surely not a digit).", x.score, check.FlagOutlier)
		if x.suggested != sample.NoLabel {
			a.Text += " The CNN's closest class: " + n.Long(x.suggested) + "."
		}
	case check.Duplicate:
		a.Text = fmt.Sprintf("Near-duplicate (similarity %.3f) of:", x.score)
		if len(x.others) == 0 {
			a.Text = fmt.Sprintf("Near-duplicate (similarity %.3f) of a sample deleted and saved away since.", x.score)
		}
		h, w := s.DS.Size()
		for _, j := range x.others[:min(4, len(x.others))] {
			st, px, ok := s.DS.SampleAt(s.View.Gen(), j)
			if !ok {
				continue // the dataset changed since; the view catches up and shows them again
			}
			caption := n.Short(st.Label) + "  #" + strconv.Itoa(j)
			if st.Deleted {
				caption += " (deleted)"
			}
			a.Thumbs = append(a.Thumbs, mode.Thumb{I: j, Link: true, Px: sample.Upright(px, h, w, s.DS.Transposed(), nil), H: h, W: w, Caption: caption})
		}
	case check.Leak:
		o := m.f.other
		if o == nil {
			return mode.About{}
		}
		a.Text = fmt.Sprintf("Also in %s (read-only; similarity %.3f):", o.name, x.score)
		h, w := o.ds.Size()
		set := dialogs.BaseName(o.name) // the other set's number, named so as not to be read as one of this set's
		for _, k := range x.others[:min(4, len(x.others))] {
			j := o.snap.Index[k]
			a.Thumbs = append(a.Thumbs, mode.Thumb{Px: sample.Upright(o.snap.Pixels(k), h, w, o.ds.Transposed(), nil), H: h, W: w,
				Caption: n.Short(o.snap.Labels[k]) + "  " + set + " #" + strconv.Itoa(j)})
		}
	}
	a.Large = len(a.Thumbs) > 0
	return a
}

// follow renumbers the findings after a save, or ends them after a replayed journal; the check
// running follows too.
// outliers returns the samples the last check flagged as outliers (sample indices now), most
// unusual first; nil before a check. The map marks them.
func (m *checkMode) outliers() []int {
	if m.f == nil {
		return nil
	}
	l := m.f.lists[check.Outlier]
	if l == nil {
		return nil
	}
	return l.order[:min(l.flagged, len(l.order))]
}

func (m *checkMode) Follow(renumber []int) {
	if m.f != nil {
		if renumber == nil {
			m.f = nil
		} else {
			m.f = m.f.renumbered(renumber)
		}
	}
	if m.followed != nil {
		m.followed(renumber)
	}
}
