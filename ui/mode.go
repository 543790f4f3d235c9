package ui

import (
	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// mode is what the window shows and how its keys act: the samples a filter selects, or a list to
// review one by one. The controller holds the mode (controller.mode); the side panel's Show list
// shows it and asks for another, and nothing reads it back from a widget.
//
// A new mode is a new file with its modeView (embedding browseMode for what it leaves as
// browsing does, and implementing the optional interfaces of what it adds), one value here, and
// its entry in newWindow's table of modes (window.go), where every mode is registered once it is
// built with what it needs.
type mode int

const (
	modeBrowse    mode = iota // the samples the filter selects, in sample order
	modeSuspects              // likely label errors, most suspicious first (review.go, scan.go)
	modeSuggested             // samples without a label, most confident suggestion first (suggest.go)
	modeCheck                 // the health check's findings, one kind at a time (checkmode.go, check.go)
	modeConfusion             // the confusion matrix and the samples of the cell chosen (confusion.go)
	modeMap                   // the 2-D map of the samples beside the grid (mapmode.go)
)

// modeView is what every mode says: its name, the samples it shows, what a label does, and the
// keys that act. What only some modes do (a list made first, keys of their own, badges,
// progress, a view in the grid's place) is an optional interface below, which the controller
// asks for by type assertion (the mode* functions); a mode without it acts as browsing does.
// Its methods run on the UI thread; those given the state only read it, those given the
// controller act through its methods.
type modeView interface {
	// title is the mode's entry in the side panel's Show list ("" for browsing, whose entries
	// are the subsets).
	title() string
	// order returns the samples the grid shows in the mode under filter f, in the mode's order.
	order(s *state, f store.Filter) []int
	// label applies a label the person chose (a digit, the class picker) to the selection.
	label(c *controller, l int)
	// legend lists the keys that act in the mode.
	legend(digits bool) []key
}

// preparer is a mode that shows what must be made first (a scan, the model's suggestions).
type preparer interface {
	// ready reports whether the mode has what it shows; start makes it, in the background, and
	// the mode is entered when it is done.
	ready() bool
	start()
}

// keyTaker is a mode with keys of its own.
type keyTaker interface {
	// key takes a key before the grid's navigation (a review's Enter, →) and reports whether it
	// did.
	key(c *controller, k *fyne.KeyEvent) bool
}

// appendDropper is a mode whose list does not take samples appended while it is shown (a
// review, a lasso): they join browsing only.
type appendDropper interface {
	// keepsAppended reports whether samples appended now join the grid.
	keepsAppended() bool
}

// marker is a mode that badges tiles beyond their labels (a review's verdicts).
type marker interface {
	// marks returns what the grid badges a tile with beyond its label (nil: nothing more).
	marks() badger
}

// doneCounter is a mode that counts some samples done (a review's decided ones) for the status
// bar's progress.
type doneCounter interface {
	// isDone says which samples the mode counts as done; nil when it counts none.
	isDone(s *state) func(i int) bool
}

// statusSayer is a mode with its part of the status bar ("   |   reviewed 37 / 299").
type statusSayer interface {
	status(s *state) string
}

// describer is a mode that says something of the sample in the detail panel.
type describer interface {
	// about is what the mode says of sample i.
	about(s *state, i int) about
}

// follower is a mode with data of its own about the samples.
type follower interface {
	// follow keeps the mode's data in step with a Reset of the dataset: after a save that
	// renumbered the samples (renumber maps old numbers to new, -1 for a sample left out) it
	// follows them; after a replayed journal (renumber nil) the samples changed and the data
	// no longer applies.
	follow(renumber []int)
}

// ownView is a mode with a view of its own in the grid's place.
type ownView interface {
	// center is the view the mode shows in the grid's place.
	center() fyne.CanvasObject
}

// stateShower is a mode whose own view follows the cursor, the selection and the samples (the
// map marks the cursor).
type stateShower interface {
	// shown hands the view the state after any change of them (controller.renderCursor).
	shown(s *state)
}

// wideView is a mode whose view takes the detail panel's room too (the map, whose hover card
// shows the sample under the mouse).
type wideView interface {
	wide() bool
}

// modeReady reports whether m has what it shows (a mode that makes nothing first always has).
func modeReady(m modeView) bool {
	p, ok := m.(preparer)
	return !ok || p.ready()
}

// modeStart has m make what it shows (nothing for a mode that makes nothing first).
func modeStart(m modeView) {
	if p, ok := m.(preparer); ok {
		p.start()
	}
}

// modeKey offers k to m's own keys; it reports whether m took it.
func modeKey(m modeView, c *controller, k *fyne.KeyEvent) bool {
	t, ok := m.(keyTaker)
	return ok && t.key(c, k)
}

// modeKeepsAppended reports whether samples appended while m is shown join the grid.
func modeKeepsAppended(m modeView) bool {
	d, ok := m.(appendDropper)
	return !ok || d.keepsAppended()
}

// modeMarks returns m's badges beyond the labels (nil: none).
func modeMarks(m modeView) badger {
	if k, ok := m.(marker); ok {
		return k.marks()
	}
	return nil
}

// modeIsDone returns which samples m counts as done (nil: none).
func modeIsDone(m modeView, s *state) func(int) bool {
	if d, ok := m.(doneCounter); ok {
		return d.isDone(s)
	}
	return nil
}

// modeStatus returns m's part of the status bar ("": none).
func modeStatus(m modeView, s *state) string {
	if t, ok := m.(statusSayer); ok {
		return t.status(s)
	}
	return ""
}

// modeAbout returns what m says of sample i in the detail panel (the zero about: nothing).
func modeAbout(m modeView, s *state, i int) about {
	if d, ok := m.(describer); ok {
		return d.about(s, i)
	}
	return about{}
}

// modeFollow keeps m's own data in step with a Reset (see follower).
func modeFollow(m modeView, renumber []int) {
	if f, ok := m.(follower); ok {
		f.follow(renumber)
	}
}

// modeCenter returns m's view in the grid's place (nil: the grid).
func modeCenter(m modeView) fyne.CanvasObject {
	if v, ok := m.(ownView); ok {
		return v.center()
	}
	return nil
}

// modeShown hands m's own view the state (nothing for a mode whose view does not follow it).
func modeShown(m modeView, s *state) {
	if v, ok := m.(stateShower); ok {
		v.shown(s)
	}
}

// modeWide reports whether m's view takes the detail panel's room too.
func modeWide(m modeView) bool {
	v, ok := m.(wideView)
	return ok && v.wide()
}

// What each mode adds to browsing, checked when the package builds: a method renamed or dropped
// here would otherwise leave its mode acting as browsing does, silently. A review (reviewing)
// adds all but a view of its own; the confusion matrix and the health check are reviews with
// one.
type reviewing interface {
	preparer
	keyTaker
	appendDropper
	marker
	doneCounter
	statusSayer
	describer
	follower
}

var (
	_ reviewing = (*reviewMode)(nil)
	_ interface {
		reviewing
		ownView
		stateShower
	} = (*confusionMode)(nil)
	_ interface {
		reviewing
		ownView
	} = (*checkMode)(nil)
	_ interface {
		preparer
		keyTaker
		appendDropper
		statusSayer
		describer
		follower
		ownView
		stateShower
		wideView
	} = (*mapMode)(nil)
)

// browseMode shows the samples the filter selects; digits relabel the selection. Other modes
// embed it for what they leave as it is.
type browseMode struct{}

func (browseMode) title() string                        { return "" }
func (browseMode) order(s *state, f store.Filter) []int { return s.ds.Select(f) }
func (browseMode) label(c *controller, l int)           { c.relabel(l) }

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
		c.refuse(err)
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
