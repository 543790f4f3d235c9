package mode

import "fyne.io/fyne/v2"

// What only some modes do is an optional interface here, which the controller asks for through
// the function beside it; a mode without it acts as browsing does.

// Preparer is a mode that shows what must be made first (a scan, the model's suggestions).
type Preparer interface {
	// Ready reports whether the mode has what it shows; Start makes it, in the background, and
	// the mode is entered when it is done.
	Ready() bool
	Start()
}

// Ready reports whether m has what it shows (a mode that makes nothing first always has).
func Ready(m Mode) bool {
	p, ok := m.(Preparer)
	return !ok || p.Ready()
}

// Start has m make what it shows (nothing for a mode that makes nothing first).
func Start(m Mode) {
	if p, ok := m.(Preparer); ok {
		p.Start()
	}
}

// KeyTaker is a mode with keys of its own.
type KeyTaker interface {
	// Key takes a key before the grid's navigation (a review's Enter, →) and reports whether it
	// did.
	Key(c Controller, k *fyne.KeyEvent) bool
}

// TakeKey offers k to m's own keys; it reports whether m took it.
func TakeKey(m Mode, c Controller, k *fyne.KeyEvent) bool {
	t, ok := m.(KeyTaker)
	return ok && t.Key(c, k)
}

// AppendDropper is a mode whose list does not take samples appended while it is shown (a review,
// a lasso): they join browsing only.
type AppendDropper interface {
	// KeepsAppended reports whether samples appended now join the grid.
	KeepsAppended() bool
}

// KeepsAppended reports whether samples appended while m is shown join the grid.
func KeepsAppended(m Mode) bool {
	d, ok := m.(AppendDropper)
	return !ok || d.KeepsAppended()
}

// Marker is a mode that badges tiles beyond their labels (a review's verdicts).
type Marker interface {
	// Marks returns what the grid badges a tile with beyond its label (nil: nothing more).
	Marks() Badger
}

// Marks returns m's badges beyond the labels (nil: none).
func Marks(m Mode) Badger {
	if k, ok := m.(Marker); ok {
		return k.Marks()
	}
	return nil
}

// DoneCounter is a mode that counts some samples done (a review's decided ones) for the status
// bar's progress.
type DoneCounter interface {
	// IsDone says which samples the mode counts as done; nil when it counts none.
	IsDone(s State) func(i int) bool
}

// IsDone returns which samples m counts as done (nil: none).
func IsDone(m Mode, s State) func(int) bool {
	if d, ok := m.(DoneCounter); ok {
		return d.IsDone(s)
	}
	return nil
}

// StatusSayer is a mode with its part of the status bar ("   |   reviewed 37 / 299").
type StatusSayer interface {
	Status(s State) string
}

// Status returns m's part of the status bar ("": none).
func Status(m Mode, s State) string {
	if t, ok := m.(StatusSayer); ok {
		return t.Status(s)
	}
	return ""
}

// Describer is a mode that says something of the sample in the detail panel.
type Describer interface {
	// About is what the mode says of sample i.
	About(s State, i int) About
}

// Describe returns what m says of sample i in the detail panel (the zero About: nothing).
func Describe(m Mode, s State, i int) About {
	if d, ok := m.(Describer); ok {
		return d.About(s, i)
	}
	return About{}
}

// Follower is a mode with data of its own about the samples.
type Follower interface {
	// Follow keeps the mode's data in step with a Reset of the dataset: after a save that
	// renumbered the samples (renumber maps old numbers to new, -1 for a sample left out) it
	// follows them; after a replayed journal or another dataset (renumber nil) the samples
	// changed and the data no longer applies.
	Follow(renumber []int)
}

// Follow keeps m's own data in step with a Reset (see Follower).
func Follow(m Mode, renumber []int) {
	if f, ok := m.(Follower); ok {
		f.Follow(renumber)
	}
}

// OwnView is a mode with a view of its own in the grid's place (the grid inside it, or beside).
type OwnView interface {
	// Center is the view the mode shows in the grid's place.
	Center() fyne.CanvasObject
}

// Center returns m's view in the grid's place (nil: the grid).
func Center(m Mode) fyne.CanvasObject {
	if v, ok := m.(OwnView); ok {
		return v.Center()
	}
	return nil
}

// StateShower is a mode whose own view follows the cursor, the selection and the samples (the
// map marks the cursor).
type StateShower interface {
	// Shown hands the view the state after any change of it (the controller's render).
	Shown(s State)
}

// Shown hands m's own view the state (nothing for a mode whose view does not follow it).
func Shown(m Mode, s State) {
	if v, ok := m.(StateShower); ok {
		v.Shown(s)
	}
}

// WideView is a mode whose view takes the detail panel's room too (the map, whose hover card
// shows the sample under the mouse).
type WideView interface {
	Wide() bool
}

// Wide reports whether m's view takes the detail panel's room too.
func Wide(m Mode) bool {
	v, ok := m.(WideView)
	return ok && v.Wide()
}
