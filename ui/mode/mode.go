// Package mode is the contract between the window's controller (package ui) and its modes: what
// the window shows and how its keys act (browsing, a review of suspects, the Suggested list, the
// health check, the confusion matrix, the map). A mode is a Mode; what only some modes have is an
// optional interface the controller asks for (Preparer, KeyTaker, …), through the functions
// here, so a mode without it acts as browsing does. A mode reads the window's state through the
// State it is handed and acts through the Controller, never through the window or the view
// model itself; a mode lives in a package of its own (ui/review, ui/health, …) that imports this
// one and never ui (layers_test.go).
package mode

import (
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/widgets"
)

// Mode is what every mode says: its name, the samples it shows, what a label does, and the
// keys that act. Its methods run on the UI thread; those given the state only read it, those
// given the controller act through it.
type Mode interface {
	// Title is the mode's entry in the side panel's Show list ("" for browsing, whose entries
	// are the subsets).
	Title() string
	// Order returns the samples the grid shows in the mode under filter f, in the mode's order.
	Order(s State, f store.Filter) []int
	// Label applies a label the person chose (a digit, the class picker) to the selection.
	Label(c Controller, l int)
	// Legend lists the keys that act in the mode (digits: the classes are 0–9).
	Legend(digits bool) []Key
}

// State is what a mode reads of the window: the dataset, the view model (read-only, at the
// generation its positions reflect: read samples with DS.SampleAt(View.Gen(), i)) and the class
// names. The controller hands a State to each call; a mode keeps none.
type State struct {
	DS      *store.Dataset
	View    View
	Classes classes.Names
}

// View is the view model as a mode reads it: the samples the grid shows, in order (positions),
// the cursor, the selection, and how many shown samples the mode counts done. Positions are
// places in the order; indices are sample numbers. Only the controller changes it.
type View interface {
	Gen() uint64           // the dataset generation (store.Dataset.Gen) the positions reflect
	Len() int              // the samples shown
	At(p int) int          // the sample at position p
	Current() int          // the sample at the cursor, -1 when none
	Cursor() int           // the cursor's position, -1 when none
	Shows(i int) bool      // sample i is shown
	Pos(i int) int         // sample i's position, -1 when not shown
	IsSelected(i int) bool // sample i is selected
	// Marked returns the samples selected since the selection was last cleared (some may have
	// been unselected since: IsSelected says), O(selected), where Selection sorts them.
	Marked() []int
	Selection() []int     // the selected samples in view order (the cursor's when none is)
	SelectionSize() int   // len(Selection()) without making it
	Done() int            // the shown samples the mode counts done (DoneCounter)
	DoneAt(i int) bool    // sample i is shown and counted done
	Filter() store.Filter // the filter the samples are shown under
}

// Controller is what a mode asks of the window's controller, the one writer of the state. Each
// method runs on the UI thread and shows its result.
type Controller interface {
	State() State
	// Showing returns the mode the window is in.
	Showing() Mode
	// Enter shows m from its start (its list made again), every class shown, the grid with the
	// keys; Choose is the Show list's choice of m (made first when m is not ready, Preparer);
	// Changed shows m's list made again if m is shown (a scan's better ranking), else only
	// refreshes.
	Enter(m Mode)
	Choose(m Mode)
	Changed(m Mode)
	// Rebuild makes the list of the mode shown again under the filter shown, with every sample
	// selected when selectAll (a lasso), and shows it.
	Rebuild(selectAll bool)
	// MoveCursor puts the cursor at position p; Next one further.
	MoveCursor(p int)
	Next()
	// Edit makes an edit of the store now (f, journaled by the store, its change applied to the
	// view model at once), unless edits cannot be made now (read-only, a job holds them: the
	// input that asked waits for it), and reports whether it was made; an edit not made is said
	// on the status bar, never in a dialog.
	Edit(f func(ds *store.Dataset) error) bool
	// Relabel gives the selection a label as browsing does (one step) and moves on; ToggleDelete
	// deletes the selection, or restores it when all of it is deleted.
	Relabel(label int)
	ToggleDelete()
	// Held reports whether a job holds edits now (a save, an import): the input being made waits
	// for it, or, when there is none to queue, the status bar says what (a verb phrase: "find
	// suspects") is done when it ends.
	Held(what string) bool
	// Input runs f as an input of the person's (a click in a mode's own view): now, or, when
	// inputs already wait for a job, after them.
	Input(f func())
	// Say puts a message on the status bar, where it stays until the cursor moves or the state
	// changes (an edit, an undo, a save, a mode, filter or selection changed), whatever redraws
	// meanwhile, or a later message replaces it; Note puts a background job's report there (a
	// round's summary, a layout's time), unless a message said still holds; Render shows again what depends on the cursor and the
	// mode (the detail panel, the status bar, the mode's own view); Progress shows the jobs'
	// progress beside the status bar again (a job's note changed), and nothing else; Focus gives
	// the grid the keys.
	Say(text string)
	Note(text string)
	Render()
	Progress()
	Focus()
	// Resets counts the changes that renumbered the samples since the window opened (a save that
	// left some out, a replayed journal): work begun at another count describes samples whose
	// numbers are gone.
	Resets() int
}

// Key is one key of the legend or the keyboard reference: the keys and what they do.
type Key struct{ Keys, Does string }

// About is what a mode says of one sample in the detail panel: a line of text and some
// thumbnails (a suspect's nearest samples), Large ones two to a row (a duplicate's copies). The
// zero About shows nothing.
type About struct {
	Text   string
	Thumbs []Thumb
	Large  bool
}

// Thumb is one small sample shown in the detail panel: its pixels in display order, H×W, and a
// caption. When it shows sample I of the dataset (Link), a click on it goes to the sample; a
// sample of another set (a leak's copy) has no link.
type Thumb struct {
	I       int
	Link    bool
	Px      []byte
	H, W    int
	Caption string
}

// Badger is a mode's verdicts on the samples, which turn a tile's label badge b (sample i, in
// state st) into the mode's (a review's "7→1?"); n names the classes.
type Badger interface {
	Badge(i int, st store.State, b widgets.Badge, n classes.Names) widgets.Badge
}

// Browse shows the samples the filter selects, in sample order; a label relabels the selection.
// Other modes embed it for what they leave as it is.
type Browse struct{}

// Title is "": browsing's entries in the Show list are the subsets.
func (Browse) Title() string { return "" }

// Order is the samples f selects.
func (Browse) Order(s State, f store.Filter) []int { return s.DS.Select(f) }

// Label relabels the selection.
func (Browse) Label(c Controller, l int) { c.Relabel(l) }

// Legend is browsing's keys.
func (Browse) Legend(digits bool) []Key {
	if digits {
		return []Key{{"0–9", "relabel"}, {"Del", "delete"}, {"Ctrl+A", "select all"}, {"Ctrl+Z", "undo"}, {"Ctrl+K", "suspects"}, {"Ctrl+S", "save"}}
	}
	return []Key{{"Type a class", "to relabel"}, {"Del", "delete"}, {"Ctrl+A", "select all"}, {"Ctrl+Z", "undo"}, {"Ctrl+K", "suspects"}, {"Ctrl+S", "save"}}
}
