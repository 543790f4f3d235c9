package ui

import (
	"idxlabel/store"
	"idxlabel/ui/build"
	"idxlabel/ui/classes"
	"idxlabel/ui/convert"
	"idxlabel/ui/draw"
	"idxlabel/ui/mode"
	"idxlabel/ui/sheets"
)

// modeHost is the controller as a mode sees it (mode.Controller): what a mode reads of the state
// and may ask for, and nothing of the window. Each method is the controller's own, on the UI
// thread.
type modeHost struct{ c *controller }

var _ mode.Controller = modeHost{}

// State is what a mode reads now.
func (h modeHost) State() mode.State { return h.c.modeState() }

// Showing is the mode shown.
func (h modeHost) Showing() mode.Mode { return h.c.mode }

// Enter shows m from its start.
func (h modeHost) Enter(m mode.Mode) { h.c.enter(m) }

// Choose is the Show list's choice of m.
func (h modeHost) Choose(m mode.Mode) { h.c.choose(m, store.Live) }

// Changed shows m's new list if m is shown.
func (h modeHost) Changed(m mode.Mode) { h.c.modeChanged(m) }

// Rebuild makes the mode's list again under the filter shown (every sample selected when
// selectAll) and shows it.
func (h modeHost) Rebuild(selectAll bool) {
	c := h.c
	c.rebuild(c.v.filter)
	if selectAll {
		c.v.selectAll()
	}
	c.refresh()
	c.follow()
}

// MoveCursor puts the cursor at position p.
func (h modeHost) MoveCursor(p int) { h.c.moveCursor(p, false) }

// Next moves the cursor one further.
func (h modeHost) Next() { h.c.next() }

// Edit makes f's edit now, or says why not on the status bar (cannotEdit, refuse).
func (h modeHost) Edit(f func(ds *store.Dataset) error) bool {
	c := h.c
	if c.cannotEdit() {
		return false
	}
	if err := c.edit(func() error { return f(c.ds) }); err != nil {
		c.refuse(err)
		return false
	}
	return true
}

// Relabel is browsing's edit of the selection.
func (h modeHost) Relabel(label int) { h.c.relabel(label) }

// ToggleDelete deletes the selection, or restores it.
func (h modeHost) ToggleDelete() { h.c.toggleDelete() }

// Held reports whether a job holds edits, queueing the input being made (or saying what waits).
func (h modeHost) Held(what string) bool {
	c := h.c
	if !c.jobs.EditsHeld() {
		return false
	}
	if !c.in.holdAsked() {
		c.say("Busy (saving, opening or importing): " + what + " when it is done")
	}
	return true
}

// Input runs f as an input of the person's, after the inputs that wait.
func (h modeHost) Input(f func()) { h.c.in.input(f) }

// Say puts a message on the status bar.
func (h modeHost) Say(text string) { h.c.say(text) }

// Note puts a background job's report on the status bar, unless a message said still holds.
func (h modeHost) Note(text string) { tell(h.c, text, true) }

// Render shows again what depends on the cursor and the mode.
func (h modeHost) Render() { h.c.renderCursor() }

// Progress shows the jobs' progress again.
func (h modeHost) Progress() { h.c.showProgress() }

// Focus gives the grid the keys.
func (h modeHost) Focus() { h.c.out.focus() }

// Resets counts the renumbering changes since the window opened.
func (h modeHost) Resets() int { return h.c.resets }

// drawHost is the main window as the draw window sees it (draw.Host): the dataset's size and
// classes, adding a drawn sample through the controller, whether edits wait, saving and quitting
// as the main window does, the keys back to its grid, and the main menu's shortcuts.
type drawHost struct{ w *window }

var _ draw.Host = drawHost{}

// Size is one sample's height and width.
func (h drawHost) Size() (int, int) { return h.w.c.ds.Size() }

// Classes names the dataset's classes.
func (h drawHost) Classes() classes.Names { return h.w.c.classes }

// Add appends the drawing as one undoable, journaled step of added samples.
func (h drawHost) Add(px []byte, label int) (int, error) {
	return h.w.c.add(store.HowAddedDrawn, []store.Sample{{Pixels: px, Label: label}})
}

// Busy reports whether a job holds edits.
func (h drawHost) Busy() bool { return h.w.jobs.Busy() }

// Save is Ctrl+S, as in the main window.
func (h drawHost) Save() { h.w.save.save() }

// Quit is Ctrl+Q: the question about unsaved edits opens in the main window, raised first.
func (h drawHost) Quit() {
	h.w.win.RequestFocus()
	h.w.save.quit()
}

// Closed gives the main window and its grid the keys again.
func (h drawHost) Closed() {
	h.w.win.RequestFocus()
	h.w.keys.focusGrid()
}

// MoreLike lists the samples most like the drawing px (h×w display pixels) in the main window,
// raised first, as the person's input (after the inputs that wait).
func (h drawHost) MoreLike(px []byte, height, width int) {
	h.w.win.RequestFocus()
	h.w.c.in.input(func() { h.w.like.LikeDrawing(px, height, width) })
}

// Shortcuts are the main menu's shortcuts the draw window passes on (menuShortcuts).
func (h drawHost) Shortcuts() []draw.Shortcut { return menuShortcuts(h.w.menu.menu, h.w.win) }

// buildHost is the controller and the window's files as the building workflows see them
// (build.Host, and sheets.Host: File → Import Sheets… asks a part of it): the state to read, the status bar, the inputs' order, adding samples, the class
// names shown again, and starting, saving and opening a dataset as the File menu does.
type buildHost struct{ w *window }

var (
	_ build.Host  = buildHost{}
	_ sheets.Host = buildHost{}
)

// State is the dataset, the view model and the class names.
func (h buildHost) State() mode.State { return h.w.c.modeState() }

// Name is the name the dataset is shown by, "" when nothing is open.
func (h buildHost) Name() string {
	if n := h.w.c.name; n != nothingOpen {
		return n
	}
	return ""
}

// Demo says the dataset is the demo.
func (h buildHost) Demo() bool { return h.w.c.demo }

// CannotEdit reports whether an edit cannot be made now, and says why.
func (h buildHost) CannotEdit() bool { return h.w.c.cannotEdit() }

// Say puts a message on the status bar.
func (h buildHost) Say(text string) { h.w.c.say(text) }

// Input runs f as an input of the person's.
func (h buildHost) Input(f func()) { h.w.c.in.input(f) }

// AfterInputs runs f after the inputs that wait.
func (h buildHost) AfterInputs(f func()) { h.w.c.in.afterInputs(f) }

// Add appends samples as one undoable step.
func (h buildHost) Add(how store.How, samples []store.Sample) (int, error) {
	return h.w.c.add(how, samples)
}

// ClassesChanged shows the class names again.
func (h buildHost) ClassesChanged() {
	c := h.w.c
	c.classes = classes.Of(c.ds)
	c.refresh()
}

// StartNew starts a new dataset as File → New Dataset… does, then runs then with it.
func (h buildHost) StartNew(height, width int, cls []int, names map[int]string, then func(*store.Dataset)) {
	h.w.files.startNew(height, width, cls, names, then)
}

// Save saves the dataset over its files, then runs then.
func (h buildHost) Save(then func()) { h.w.save.run(h.w.c.ds.SaveContext, then) }

// Open opens files as File → Open does.
func (h buildHost) Open(paths []string) { h.w.files.open(paths) }

// convertHost is the window as the converter of Parquet, CSV and NumPy files sees it
// (convert.Host): opening the pair it wrote as File → Open does, and the status bar.
type convertHost struct{ w *window }

var _ convert.Host = convertHost{}

// OpenPair opens images and labels as File → Open does.
func (h convertHost) OpenPair(images, labels string) { h.w.files.open([]string{images, labels}) }

// Say puts a message on the status bar.
func (h convertHost) Say(text string) { h.w.c.say(text) }

// Release closes the pair on screen when its image file is images (after the question about its
// unsaved edits), then runs then.
func (h convertHost) Release(images string, then func()) {
	h.w.files.release(images, "Convert again", then)
}
