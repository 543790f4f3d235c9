package health

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	suspecthealth "idxlabel/suspect/health"
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

// Item is what the check found of one sample in one kind.
type Item struct {
	// Others are the finding's other samples: a duplicate's copies (sample indices of this
	// dataset), a leak's copies in the other set (positions in its snapshot, OtherSet.Snap).
	Others     []int
	Label      int     // the sample's label when it was checked (sample.NoLabel: none)
	Suggested  int     // the CNN's most probable class for it (sample.NoLabel: none)
	confidence float64 // the CNN's probability of Suggested (label errors; 0 when unknown)
	score      float64 // the kind's score (see suspecthealth.Kind)
}

// ListState is how far a kind's list is.
type ListState int

const (
	Waiting ListState = iota // not found yet
	Found                    // found: the list is complete
	Stopped                  // the check ended before finding it (cancelled, failed)
)

// List is one kind's findings: the samples to review, most severe first, each once.
type List struct {
	State   ListState
	Order   []int        // sample indices
	Of      map[int]Item // by sample index
	Flagged int          // the findings that pass the kind's bar (suspecthealth.Result.Flagged)
	Found   int          // the findings the check kept (suspecthealth.Options.Top bounds them)
}

// OtherSet is the set the leak kind compared with, opened read-only: never locked, never
// written.
type OtherSet struct {
	ds   *store.Dataset
	Snap sample.Set // what was compared: sample k of the comparison is Snap.Index[k]
	name string     // its image file's name
}

// Findings is what a health check found, as the mode shows it: the kinds it runs, in list
// order, each kind's list, and the other set (nil when leakage was not checked).
type Findings struct {
	Kinds     []suspecthealth.Kind
	Lists     map[suspecthealth.Kind]*List
	Other     *OtherSet
	threshold float64 // the similarity from which duplicates and leaks are listed
}

// newFindings makes the findings of a check of kinds, none found yet.
func newFindings(kinds []suspecthealth.Kind, threshold float64) *Findings {
	f := &Findings{Kinds: kinds, Lists: map[suspecthealth.Kind]*List{}, threshold: threshold}
	for _, k := range kinds {
		f.Lists[k] = &List{Of: map[int]Item{}}
	}
	return f
}

// renumbered returns the findings after a save that renumbered the samples (to maps each old
// number to the new one, -1 for a deleted sample, now gone): the same lists without the deleted
// samples, counted without them too (the tab's count is the tiles'), a duplicate's copies
// renumbered. The other set's positions stay.
func (f *Findings) renumbered(to []int) *Findings {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &Findings{Kinds: f.Kinds, Lists: map[suspecthealth.Kind]*List{}, Other: f.Other, threshold: f.threshold}
	for k, l := range f.Lists {
		m := &List{State: l.State, Of: make(map[int]Item, len(l.Of)), Flagged: l.Flagged, Found: l.Found}
		for p, i := range l.Order {
			j, ok := at(i)
			if !ok {
				m.Found--
				if p < l.Flagged { // the list holds the flagged findings first
					m.Flagged--
				}
				continue
			}
			x := l.Of[i]
			if k == suspecthealth.Duplicate {
				var others []int
				for _, o := range x.Others {
					if oj, ok := at(o); ok {
						others = append(others, oj)
					}
				}
				x.Others = others
			}
			m.Order = append(m.Order, j)
			m.Of[j] = x
		}
		out.Lists[k] = m
	}
	return out
}

// KindTitle names kind k in the view: "Label errors", "Outliers", "Duplicates", "Leaks".
func KindTitle(k suspecthealth.Kind) string {
	switch k {
	case suspecthealth.Label:
		return "Label errors"
	case suspecthealth.Outlier:
		return "Outliers"
	case suspecthealth.Duplicate:
		return "Duplicates"
	case suspecthealth.Leak:
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
	mode.Emptier
} = (*Mode)(nil)

// Mode is the mode that reviews a health check's findings.
type Mode struct {
	F      *Findings          // nil before a check
	kind   suspecthealth.Kind // the kind shown
	picked bool               // the person picked the kind (a later list does not switch it)
	View   *View              // the view in the grid's place: the kinds, the progress, the grid
	begin  func()             // asks for a check (Checker.Ask)
	// followed tells the check running that the samples were renumbered (renumber non-nil)
	// or replaced by a replayed journal (nil).
	followed func(renumber []int)
}

func (m *Mode) Title() string             { return "Health check" }
func (m *Mode) Ready() bool               { return m.F != nil }
func (m *Mode) Start()                    { m.begin() }
func (m *Mode) KeepsAppended() bool       { return false }
func (m *Mode) Center() fyne.CanvasObject { return m.View.root }
func (m *Mode) list() *List               { return m.listOf(m.kind) }
func (m *Mode) item(i int) (Item, bool)   { x, ok := m.list().Of[i]; return x, ok }

// listOf returns kind k's list; an empty one when the check does not run k.
func (m *Mode) listOf(k suspecthealth.Kind) *List {
	if m.F != nil {
		if l := m.F.Lists[k]; l != nil {
			return l
		}
	}
	return &List{State: Found}
}

// order returns the kind's samples under a class filter (their labels now).
func (m *Mode) Order(s mode.State, f store.Filter) []int {
	var out []int
	for _, i := range m.list().Order {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		if ok && (f.Class == nil || st.Label == *f.Class) {
			out = append(out, i)
		}
	}
	return out
}

// marks hands the grid the kind's badges.
func (m *Mode) Marks() mode.Badger {
	if m.F == nil {
		return nil
	}
	return badges{kind: m.kind, list: m.list(), other: m.F.Other}
}

// badges badges the tiles of one kind's list: a label error "7→1?", an outlier "7 ?", a
// duplicate "7 =#4821" (its first copy's sample number), a leak "7 =#53210" (its copy's number
// in the other set); a decided sample (reviewed in a review, or deleted) its label badge, with
// a tick when reviewed.
type badges struct {
	kind  suspecthealth.Kind
	list  *List
	other *OtherSet
}

func (c badges) Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge {
	x, ok := c.list.Of[i]
	switch {
	case !ok || st.Deleted:
		return b
	case st.Reviewed:
		b.Text += " ✓"
		return b
	}
	label := n.Short(st.Label)
	switch c.kind {
	case suspecthealth.Label:
		if x.Suggested != st.Label && x.Suggested != sample.NoLabel {
			return widgets.Badge{Text: label + "→" + n.Short(x.Suggested) + "?", Color: review.SuspectColour}
		}
	case suspecthealth.Outlier:
		return widgets.Badge{Text: label + " ?", Color: badgeOutlier}
	case suspecthealth.Duplicate:
		if len(x.Others) > 0 {
			return widgets.Badge{Text: label + " =#" + strconv.Itoa(x.Others[0]), Color: badgeDuplicate}
		}
	case suspecthealth.Leak:
		if len(x.Others) > 0 && c.other != nil {
			return widgets.Badge{Text: label + " =#" + strconv.Itoa(c.other.Snap.Index[x.Others[0]]), Color: badgeLeak}
		}
	}
	return b
}

// key handles the check's keys before the grid: Delete (or Backspace) deletes the selection,
// the cursor's sample, and moves on (again on a deleted sample: restores it); → keeps the
// sample as it is (a review decision; a sample without a label is skipped); Enter or Space
// accepts a label error's suggestion. With no sample shown (the kind's list not found yet, or
// found empty) → and a label error's Enter or Space say on the status bar that they changed
// nothing, and why (Empty); Delete does so in the grid.
func (m *Mode) Key(c mode.Controller, k *fyne.KeyEvent) bool {
	i := c.State().View.Current()
	if m.F == nil {
		return false
	}
	if i < 0 {
		var what string
		label := m.kind == suspecthealth.Label
		switch {
		case k.Name == fyne.KeyRight:
			what = "→"
		case label && (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter):
			what = "Enter"
		case label && k.Name == fyne.KeySpace:
			what = "Space"
		default:
			return false
		}
		c.Say(mode.NothingShown(what, m.Empty(c.State())))
		return true
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
		if m.kind != suspecthealth.Label || !ok || x.Suggested == sample.NoLabel {
			return false
		}
		review.DecideAs(c, store.HowSuspectAccepted, x.Suggested)
	default:
		return false
	}
	return true
}

// Empty says why the kind shown lists no sample: "Duplicates: not found yet, the check runs",
// "Duplicates: none found", "Duplicates: not checked, the check stopped", or none of the class
// picked; then the first kind that lists some ("Label errors lists 369"), to be picked above.
// With no findings (a replayed journal ended them) it says how to check again. O(kinds).
func (m *Mode) Empty(s mode.State) string {
	if m.F == nil {
		return "no findings: Tools → Check Dataset… checks again"
	}
	l, title := m.list(), KindTitle(m.kind)
	var why string
	switch class := s.View.Filter().Class; {
	case l.State == Waiting:
		why = title + ": not found yet, the check runs"
	case l.State == Stopped:
		why = title + ": not checked, the check stopped"
	case len(l.Order) > 0 && class != nil:
		why = title + ": none of class " + s.Classes.Long(*class) + numfmt.Sprintf(" (%d of every class)", len(l.Order))
	default:
		why = title + ": none found"
	}
	for _, k := range m.F.Kinds {
		if o := m.listOf(k); k != m.kind && len(o.Order) > 0 {
			return why + "; " + KindTitle(k) + numfmt.Sprintf(" lists %d", len(o.Order))
		}
	}
	return why
}

// label records the decision to give the cursor's sample label l: the suggestion accepted,
// among label errors, when l is it; set by hand otherwise.
func (m *Mode) Label(c mode.Controller, l int) {
	how := store.HowManual
	if x, ok := m.item(c.State().View.Current()); ok && m.kind == suspecthealth.Label && x.Suggested == l {
		how = store.HowSuspectAccepted
	}
	review.DecideAs(c, how, l)
}

// isDone counts a finding decided once its sample is deleted or reviewed.
func (m *Mode) IsDone(s mode.State) func(int) bool {
	return func(i int) bool {
		st, _, ok := s.DS.SampleAt(s.View.Gen(), i)
		return ok && (st.Deleted || st.Reviewed)
	}
}

func (m *Mode) Legend(digits bool) []mode.Key {
	digit := mode.Key{Keys: "0–9", Does: "relabel"}
	if !digits {
		digit = mode.Key{Keys: "Type a class", Does: "relabel"}
	}
	del, undo := mode.Key{Keys: "Del", Does: "delete"}, mode.Key{Keys: "Ctrl+Z", Does: "undo"}
	switch m.kind {
	case suspecthealth.Label:
		digit.Does = "other label"
		return []mode.Key{{Keys: "Enter", Does: "accept suggestion"}, digit, {Keys: "→", Does: "keep label"}, del, undo}
	case suspecthealth.Duplicate:
		return []mode.Key{{Keys: "Del", Does: "delete this copy"}, {Keys: "→", Does: "keep both"}, digit, undo}
	case suspecthealth.Leak:
		return []mode.Key{{Keys: "Del", Does: "delete this set's copy"}, {Keys: "→", Does: "keep it"}, digit, undo}
	}
	return []mode.Key{del, digit, {Keys: "→", Does: "keep it"}, undo}
}

// status is "   |   decided 3 / 20": the shown findings decided so far.
func (m *Mode) Status(s mode.State) string {
	return numfmt.Sprintf("   |   decided %d / %d", s.View.Done(), s.View.Len())
}

// about says what the check found of sample i: its score, the suggestion, and a duplicate's or
// a leak's copies, shown large beside it (up to four).
func (m *Mode) About(s mode.State, i int) mode.About {
	x, ok := m.item(i)
	if m.F == nil || !ok {
		return mode.About{}
	}
	n := s.Classes
	var a mode.About
	switch m.kind {
	case suspecthealth.Label:
		a.Text = fmt.Sprintf("Label error? The CNN suggests %s, %.0f%% confident; the given label %s has %.0f%% (out of fold).",
			n.Long(x.Suggested), 100*x.confidence, n.Long(x.Label), 100*(1-x.score))
	case suspecthealth.Outlier:
		a.Text = fmt.Sprintf("Outlier: unlike every class (score %.1f; from %.0f surely not a digit).", x.score, suspecthealth.FlagOutlier)
		if x.Suggested != sample.NoLabel {
			a.Text += " The CNN's closest class: " + n.Long(x.Suggested) + "."
		}
	case suspecthealth.Duplicate:
		a.Text = fmt.Sprintf("Near-duplicate (similarity %.3f) of:", x.score)
		if len(x.Others) == 0 {
			a.Text = fmt.Sprintf("Near-duplicate (similarity %.3f) of a sample deleted and saved away since.", x.score)
		}
		h, w := s.DS.Size()
		for _, j := range x.Others[:min(4, len(x.Others))] {
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
	case suspecthealth.Leak:
		o := m.F.Other
		if o == nil {
			return mode.About{}
		}
		a.Text = fmt.Sprintf("Also in %s (read-only; similarity %.3f):", o.name, x.score)
		h, w := o.ds.Size()
		set := dialogs.BaseName(o.name) // the other set's number, named so as not to be read as one of this set's
		for _, k := range x.Others[:min(4, len(x.Others))] {
			j := o.Snap.Index[k]
			a.Thumbs = append(a.Thumbs, mode.Thumb{Px: sample.Upright(o.Snap.Pixels(k), h, w, o.ds.Transposed(), nil), H: h, W: w,
				Caption: n.Short(o.Snap.Labels[k]) + "  " + set + " #" + strconv.Itoa(j)})
		}
	}
	a.Large = len(a.Thumbs) > 0
	return a
}

// Outliers returns the samples the last check flagged as outliers (sample indices now), most
// unusual first; nil before a check. The map marks them.
func (m *Mode) Outliers() []int {
	if m.F == nil {
		return nil
	}
	l := m.F.Lists[suspecthealth.Outlier]
	if l == nil {
		return nil
	}
	return l.Order[:min(l.Flagged, len(l.Order))]
}

// Follow renumbers the findings after a save, or ends them after a replayed journal; the check
// running follows too.
func (m *Mode) Follow(renumber []int) {
	if m.F != nil {
		if renumber == nil {
			m.F = nil
		} else {
			m.F = m.F.renumbered(renumber)
		}
	}
	if m.followed != nil {
		m.followed(renumber)
	}
}
