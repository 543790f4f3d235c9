package ui

import (
	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// mode is what the window shows and how its keys act: the samples a filter selects, or a list to
// review one by one. The controller holds the mode (controller.mode); the side panel's Show list
// shows it and asks for another, and nothing reads it back from a widget.
//
// A new mode is a new file with its modeView (embedding browseMode and overriding what it
// changes), one value here, and its line in newWindow (window.go), where every mode is registered
// with what it needs.
type mode int

const (
	modeBrowse    mode = iota // the samples the filter selects, in sample order
	modeSuspects              // likely label errors, most suspicious first (review.go, scan.go)
	modeSuggested             // samples without a label, most confident suggestion first (suggest.go)
	modeCheck                 // the health check's findings, one kind at a time (checkmode.go, check.go)
	modeConfusion             // the confusion matrix and the samples of the cell chosen (confusion.go)
	modeMap                   // the 2-D map of the samples beside the grid (mapmode.go)
)

// modeView is what a mode changes in the window. Its methods run on the UI thread; those given
// the state only read it, those given the controller act through its methods.
type modeView interface {
	// title is the mode's entry in the side panel's Show list ("" for browsing, whose entries
	// are the subsets).
	title() string
	// ready reports whether the mode has what it shows; start makes it (a scan, the model's
	// suggestions), in the background, and the mode is entered when it is done.
	ready() bool
	start()
	// order returns the samples the grid shows in the mode under filter f, in the mode's order.
	order(s *state, f store.Filter) []int
	// keepsAppended reports whether samples appended in the mode join the grid.
	keepsAppended() bool
	// marks returns what the grid badges a tile with beyond its label (nil: nothing more).
	marks() badger
	// key takes a key before the grid's navigation (a review's Enter, →) and reports whether it
	// did.
	key(c *controller, k *fyne.KeyEvent) bool
	// label applies a label the person chose (a digit, the class picker) to the selection.
	label(c *controller, l int)
	// isDone says which samples the mode counts as done (a review's decided ones) for the status
	// bar's progress; nil when it counts none.
	isDone(s *state) func(i int) bool
	// legend lists the keys that act in the mode.
	legend(digits bool) []key
	// status is the mode's part of the status bar ("   |   reviewed 37 / 299").
	status(s *state) string
	// about is what the mode says of sample i in the detail panel.
	about(s *state, i int) about
	// follow keeps the mode's data in step with a Reset of the dataset: after a save that
	// renumbered the samples (renumber maps old numbers to new, -1 for a sample left out) it
	// follows them; after a replayed journal (renumber nil) the samples changed and the data
	// no longer applies.
	follow(renumber []int)
	// center is the view the mode shows in the grid's place; nil for the grid.
	center() fyne.CanvasObject
	// wide reports whether the mode's view takes the detail panel's room too (the map, whose
	// hover card shows the sample under the mouse).
	wide() bool
	// shown hands the mode's own view (center) the state after any change of the cursor, the
	// selection or the samples (controller.renderCursor); browsing has none.
	shown(s *state)
}

// browseMode shows the samples the filter selects; digits relabel the selection. Other modes
// embed it for what they leave as it is.
type browseMode struct{}

func (browseMode) title() string                        { return "" }
func (browseMode) ready() bool                          { return true }
func (browseMode) start()                               {}
func (browseMode) order(s *state, f store.Filter) []int { return s.ds.Select(f) }
func (browseMode) keepsAppended() bool                  { return true }
func (browseMode) marks() badger                        { return nil }
func (browseMode) key(*controller, *fyne.KeyEvent) bool { return false }
func (browseMode) label(c *controller, l int)           { c.relabel(l) }
func (browseMode) isDone(*state) func(int) bool         { return nil }
func (browseMode) status(*state) string                 { return "" }
func (browseMode) about(*state, int) about              { return about{} }
func (browseMode) follow([]int)                         {}
func (browseMode) center() fyne.CanvasObject            { return nil }
func (browseMode) wide() bool                           { return false }
func (browseMode) shown(*state)                         {}

func (browseMode) legend(digits bool) []key {
	if digits {
		return []key{{"0–9", "relabel"}, {"Del", "delete"}, {"Ctrl+A", "select all"}, {"Ctrl+Z", "undo"}, {"Ctrl+K", "suspects"}, {"Ctrl+S", "save"}}
	}
	return []key{{"Type a class", "to relabel"}, {"Del", "delete"}, {"Ctrl+A", "select all"}, {"Ctrl+Z", "undo"}, {"Ctrl+K", "suspects"}, {"Ctrl+S", "save"}}
}

// relabel gives every selected sample (the cursor's when none is) the label, as one undoable
// step, then moves the cursor to the next sample after them.
func (c *controller) relabel(label int) {
	sel := c.v.selection()
	if len(sel) == 0 || c.cannotEdit() {
		return
	}
	err := c.edit(func() error { return c.ds.Relabel(sel, label) })
	if err != nil {
		c.d.showError(err)
		return
	}
	last := c.v.cursor
	for _, i := range sel {
		last = max(last, c.v.pos[i])
	}
	if last+1 < c.v.Len() {
		c.moveCursor(last+1, false)
	} else {
		c.clearSelection()
	}
	if note := largeEditNote(len(sel), "Relabelled"); note != "" {
		c.say(note)
	}
}

// about is what a mode says of one sample in the detail panel: a line of text and some
// thumbnails (a suspect's nearest samples), large ones two to a row (a duplicate's copies). The
// zero about shows nothing.
type about struct {
	text   string
	thumbs []thumb
	large  bool
}

// thumb is one small sample shown in the detail panel: its pixels in display order, h×w, and a
// caption. When it shows sample i of the dataset (link), a click on it goes to the sample; a
// sample of another set (a leak's copy) has no link.
type thumb struct {
	i       int
	link    bool
	px      []byte
	h, w    int
	caption string
}
