package ui

import (
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// controller owns the application state (state.go) and is its one writer: the dataset being
// edited, the mode, the jobs and the view model (order, cursor, selection, filter). Views report
// what the person asked for (gridReports, the side panel's and menus' callbacks); the controller
// applies it to the store and the view model in one step on the UI thread, then hands each view
// what it shows (refresh, follow). Changes made elsewhere (a save's renumbering, a replayed
// journal) come back through the store's subscription and are applied on the UI thread (drain).
type controller struct {
	state
	unsub func()

	// Changes of the store not applied to the view yet: queued by the subscription on the
	// goroutine that made them, applied on the UI thread by drain.
	pmu     sync.Mutex
	pending []pendingChange
	// inline: an edit made on the UI thread is under way (controller.edit), and drains what it
	// changed itself when it returns, so queue schedules no second drain for it.
	inline bool

	out screen
	d   *dialogs.Dialogs
	// replaced runs when the dataset is replaced: the work on the old one stops, its model goes.
	replaced []func()
	// shown runs once a new dataset is shown: the draw window starts afresh for it.
	shown []func()
	// places holds, for each mode the person left, the sample the cursor was on then: going back
	// to the mode (the Show list) puts the cursor there again unless it is on a sample the mode
	// shows. A Reset (a save, a replay) forgets them.
	places map[mode.Mode]int
	// follows keep what is made from the dataset beyond the view model (the scan's confusion
	// matrix and map) in step with each change of it, on the UI thread, before the view model
	// and the modes follow the change.
	follows []func(store.Change)
}

// screen is where the controller shows the state: the views, the window's title, and the middle
// of the window (the grid, or a mode's own view).
type screen struct {
	grid   *widgets.TileGrid
	side   *sidePanel
	detail *detailPanel
	footer *footer
	menu   *menuBar
	title  func(string)
	banner func(string)            // shows a line above the grid ("": none)
	wide   func(bool)              // gives the middle the detail panel's room too (or back)
	focus  func()                  // gives the grid the keys
	center func(fyne.CanvasObject) // shows a mode's view in the middle (nil: the grid)
}

// pendingChange is a change of ds not yet applied to the view.
type pendingChange struct {
	ds *store.Dataset
	ch store.Change
}

// newController builds the controller over the jobs j, its questions and errors shown by d. It
// shows nothing until attach hands it the views and the modes (setEmpty then gives it a dataset).
func newController(j *jobs.Jobs, d *dialogs.Dialogs) *controller {
	c := &controller{state: state{jobs: j, v: newView(nil, 0)}, d: d}
	c.in = inputs{jobs: j, cursor: func() int { return c.v.Current() }, covered: d.Covered, changed: func() {
		c.showProgress()
		writeTestState(c)
	}}
	return c
}

// controllerParts are what the controller is handed once the views and the workflows, which
// report to it, are built: where it shows the state, the modes (every mode the window has, by
// value), and what runs when the dataset is replaced (replaced), once a new one is shown
// (shown), and at every change of it before the view model follows (follows).
type controllerParts struct {
	out      screen
	modes    []mode.Mode
	replaced []func()
	shown    []func()
	follows  []func(store.Change)
}

// attach hands the controller its parts (newWindow, once, before anything is shown).
func (c *controller) attach(p controllerParts) {
	c.out, c.modes, c.replaced, c.shown, c.follows = p.out, p.modes, p.replaced, p.shown, p.follows
}

// idle applies the inputs that waited for a job (jobs.Jobs's idle) or behind a dialog
// (dialogs.Dialogs's done), and says how many on the status bar.
func (c *controller) idle() {
	if applied, lost := c.in.replay(); applied+lost > 0 {
		c.renderCursor()
		note := replayNote(applied, lost)
		c.say(strings.ToUpper(note[:1]) + note[1:])
	}
}

// setEmpty gives the window an empty dataset, so that it is never without one: every handler
// works (on nothing) before a first file opens, or when it fails to.
func (c *controller) setEmpty() {
	ds, err := store.New(28, 28, nil, nil, "")
	if err != nil {
		panic(err) // 28×28 is always a valid size
	}
	c.setDataset(ds, nothingOpen, false)
}

// setDataset makes ds the dataset the window edits (closing the previous one) and shows all of
// it, browsing.
func (c *controller) setDataset(ds *store.Dataset, name string, demo bool) {
	if c.unsub != nil {
		c.unsub()
	}
	if c.ds != nil {
		if c.demo {
			c.ds.Abandon()
		}
		c.ds.Close()
	}
	for _, f := range c.replaced {
		f()
	}
	for _, m := range c.modes {
		mode.Follow(m, nil)
	}
	c.ds, c.name, c.demo, c.mode = ds, name, demo, browsing
	c.places = map[mode.Mode]int{}
	c.out.center(nil)
	c.unsub = ds.Subscribe(func(ch store.Change) { c.queue(ds, ch) })
	c.v = newView(ds.Select(store.Filter{}), ds.Len())
	c.v.gen = ds.Gen()
	c.classes = classes.Of(ds)
	c.out.grid.ScrollTop()
	if c.v.Len() > 0 {
		c.v.move(0, false)
	}
	c.refresh()
	c.follow()
	c.out.focus()
	for _, f := range c.shown {
		f()
	}
	if name != nothingOpen {
		reportFirstTiles(ds.Len()) // the placeholder is not the first tiles anyone waits for
	}
}

// rename names the dataset name in the title (a save wrote it to files of that name); it is no
// demo any more.
func (c *controller) rename(name string) {
	c.name, c.demo = name, false
}

// queue takes a change of ds from the store's subscription, on the goroutine that made it, and
// has drain apply it on the UI thread: at the end of the edit that made it when an edit of the
// UI thread is under way (controller.edit), else by a drain scheduled on the UI thread. Each
// change is drained once.
func (c *controller) queue(ds *store.Dataset, ch store.Change) {
	c.pmu.Lock()
	c.pending = append(c.pending, pendingChange{ds, ch})
	later := !c.inline
	c.pmu.Unlock()
	if later {
		c.jobs.Schedule(c.drain)
	}
}

// edit runs f, which changes the store on the UI thread (the store delivers its changes
// synchronously into the queue), and drains them at once, so the view never lags the store by
// an edit the person made. It returns f's error.
func (c *controller) edit(f func() error) error {
	c.pmu.Lock()
	c.inline = true
	c.pmu.Unlock()
	err := f()
	c.drain()
	return err
}

// drain applies, in order and on the UI thread, every change of the dataset that the view has
// not applied yet: the changes of the edit under way (controller.edit), or those made elsewhere
// when the drain their queueing scheduled runs (one that finds them applied already does
// nothing).
func (c *controller) drain() {
	c.pmu.Lock()
	p := c.pending
	c.pending = nil
	c.inline = false
	c.pmu.Unlock()
	for _, x := range p {
		c.apply(x.ds, x.ch)
	}
}

// apply keeps the view model in step with one change of the store, then shows the state.
func (c *controller) apply(ds *store.Dataset, ch store.Change) {
	if ds != c.ds || ch.Gen <= c.v.gen {
		return
	}
	// The positions below are rebuilt for this generation before anything is drawn (drawing
	// runs on this thread, after this returns).
	c.v.gen = ch.Gen
	m := c.mode
	c.classes = classes.Of(ds) // an edit may bring a class
	for _, f := range c.follows {
		f(ch)
	}
	switch ch.Kind {
	case store.Appended:
		f := c.v.filter
		for _, i := range ch.Indices {
			if mode.KeepsAppended(m) && (f.Subset == store.All || f.Subset == store.Live || f.Subset == store.Added) && (f.Class == nil || *f.Class == ds.Label(i)) {
				c.v.order = append(c.v.order, i)
			}
		}
		c.v.grow(ds.Len())
		c.refresh()
		// Show what was just drawn or imported: the cursor goes to the last new sample.
		if last := ch.Indices[len(ch.Indices)-1]; c.v.Shows(last) {
			c.moveCursor(c.v.pos[last], false)
		}
		return
	case store.Truncated:
		if !c.v.shrink(ds.Len()) { // the order shows the samples dropped elsewhere than at its end
			keep := c.v.order[:0]
			for _, i := range c.v.order {
				if i < ds.Len() {
					keep = append(keep, i)
				}
			}
			c.v.order = keep
			c.v.reindex(ds.Len())
		}
	case store.Relabelled, store.DeletedChanged:
		if isDone := mode.IsDone(m, c.modeState()); isDone != nil {
			c.v.recountDone(ch.Indices, isDone)
		}
	case store.Reset:
		if !keepsNumbers(ch.Renumber) {
			c.resets++ // the scans describe samples by numbers that are gone
		}
		clear(c.places)
		for _, mv := range c.modes {
			mode.Follow(mv, ch.Renumber) // the reviews follow their samples (a save), or end (a replay)
		}
		f := c.v.filter
		if !mode.Ready(c.mode) {
			c.mode, f = browsing, store.Filter{}
			c.out.center(nil)
		}
		var sel []int
		if ch.Renumber != nil {
			// A save renumbered the samples: the cursor follows its sample (one the save left
			// out: the next one kept), the selection and the inputs waiting follow theirs.
			c.in.renumber(ch.Renumber)
			if c.v.nsel > 0 {
				for _, i := range c.v.Selection() {
					if i < len(ch.Renumber) && ch.Renumber[i] >= 0 {
						sel = append(sel, ch.Renumber[i])
					}
				}
			}
			if k := nextKept(ch.Renumber, c.v.Current()); k >= 0 {
				c.v.order, c.v.cursor = []int{k}, 0
			}
		}
		c.rebuild(f)
		c.v.reselect(sel)
		c.refresh()
		c.follow()
		return
	}
	c.refresh()
}

// refresh shows the whole state: the grid's frame, the side panel, the title, the menu, and what
// depends on the cursor. It does not scroll the grid.
func (c *controller) refresh() {
	c.out.side.show(c.sideState())
	c.out.grid.SetSource(c.gridFrame())
	c.renderCursor()
	c.out.title(c.title())
	c.out.banner(c.banner())
	c.out.wide(mode.Wide(c.mode))
	c.out.menu.show(c.ds.UndoName(), c.ds.RedoName())
}

// follow shows a moved cursor: the grid scrolls to it and redraws, and what depends on the
// cursor follows.
func (c *controller) follow() {
	c.out.grid.Reveal(c.v.cursor)
	c.renderCursor()
}

// renderCursor shows what depends on the cursor and the selection: the detail panel, the status
// bar, the legend, the position, and the mode's own view (the map marks the cursor). Its cost
// does not grow with the dataset (see state).
func (c *controller) renderCursor() {
	c.out.detail.show(c.detailOf(c.v.Current()))
	c.out.footer.show(c.statusLine(), c.progressText(), c.legend(), c.position())
	mode.Shown(c.mode, c.modeState())
	writeTestState(c)
}

// showProgress shows the jobs' progress beside the status bar, and nothing else: a message the
// status bar says (say) stays while a job ticks.
func (c *controller) showProgress() { c.out.footer.showProgress(c.progressText()) }

// say puts a message on the status bar until the cursor moves or the state changes, whatever
// redraws meanwhile, or a later message replaces it (said.go).
func (c *controller) say(text string) { tell(c, text, false) }

// tell shows text on the status bar as c's message (say), or, when note is true, as a background
// job's report, which a message the person was told and that still holds keeps off (said.go).
func tell(c *controller, text string, note bool) {
	if c.hold(text, note) {
		c.out.footer.say(c.statusLine())
		writeTestState(c) // the real-window tests read what it says; nothing otherwise
	}
}

// cannotEdit reports whether an edit (or a save) cannot be made now, and then says why on the
// status bar, never in a dialog (a key must not open one, and a burst of keys must not stack
// them): the dataset is open read-only, a journal found beside its files awaits the person's
// answer (replay or discard), or a job holds edits (a load, save, import or scan) and the input
// that asked for the edit waits until it is done (held.go). An edit the store refuses all the
// same (a journal that cannot be written) is said there too (refuse).
func (c *controller) cannotEdit() bool {
	switch {
	case c.ds.ReadOnly():
		c.say(mode.ReadOnlyNote)
	case c.ds.Recovery() != nil:
		c.refuse(store.ErrRecoveryPending)
	case c.jobs.EditsHeld():
		if !c.in.holdAsked() {
			c.say("Busy (saving, opening or importing): edits wait until it is done")
		}
	default:
		return false
	}
	return true
}

// refuse says on the status bar why the store did not make an edit (err, its error: mode.Refusal),
// never in a dialog, as cannotEdit says why an edit cannot be made: a key must not open one, and
// a burst of keys must not stack them.
func (c *controller) refuse(err error) { c.say(mode.Refusal(err)) }

// rebuild replaces the view's order by the samples the mode shows under f, keeping the cursor's
// sample when it is among them.
func (c *controller) rebuild(f store.Filter) {
	keep := c.v.Current()
	m := c.mode
	c.v.filter = f
	c.v.order = m.Order(c.modeState(), f)
	c.v.clearSelection()
	c.v.reindex(c.ds.Len())
	c.v.cursor, c.v.anchor = -1, -1
	c.v.countDone(mode.IsDone(m, c.modeState()))
	c.out.grid.ScrollTop()
	if c.v.Shows(keep) {
		c.v.move(c.v.pos[keep], false)
	} else if c.v.Len() > 0 {
		c.v.move(0, false)
	}
}

// choose is the side panel's Show list: browse subset, or enter mode m. A mode that has no list
// yet starts making it and is entered when it is done; meanwhile the Show list shows what the
// grid shows. The cursor stays on its sample when m shows it, else goes back to where it was
// when m was left (a review left for a neighbour's sample), else to the first.
func (c *controller) choose(m mode.Mode, subset store.Subset) {
	if !mode.Ready(m) {
		mode.Start(m)
		c.refresh()
		return
	}
	defer testhook.LogModeShown(m.Title())() // the real-window tests' hook
	cur := c.v.Current()
	c.entered++
	c.leave(m)
	c.out.center(mode.Center(m))
	c.rebuild(store.Filter{Subset: subset, Class: c.v.filter.Class})
	if p, ok := c.places[m]; ok && !c.v.Shows(cur) && c.v.Shows(p) {
		c.v.move(c.v.pos[p], false) // back in a review: where it was left
	}
	c.refresh()
	c.follow()
}

// leave switches to mode m, remembering where the cursor was in the mode it leaves.
func (c *controller) leave(m mode.Mode) {
	if m != c.mode && c.v.Current() >= 0 {
		c.places[c.mode] = c.v.Current()
	}
	c.mode = m
}

// enter shows mode m from its start, every class shown, and gives the grid the keys (a scan or
// the suggestions are ready).
func (c *controller) enter(m mode.Mode) {
	c.entered++
	c.leave(m)
	c.out.center(mode.Center(m))
	c.rebuild(store.Filter{Subset: store.Live})
	c.refresh()
	c.follow()
	c.out.focus()
}

// modeChanged shows mode m's new list (a scan's better ranking) if the window is in it.
func (c *controller) modeChanged(m mode.Mode) {
	if c.mode == m {
		c.rebuild(c.v.filter)
	}
	c.refresh()
	c.follow()
}

// setClass is the side panel's class list: only samples of class (nil: every class).
func (c *controller) setClass(class *int) {
	c.rebuild(store.Filter{Subset: c.v.filter.Subset, Class: class})
	c.refresh()
	c.follow()
}

// askGoto is the person asking for sample i (the go-to box, a neighbour's thumbnail): gotoSample
// now, or once the inputs waiting before it are applied (held.go).
func (c *controller) askGoto(i int) {
	if i < 0 || i >= c.ds.Len() {
		c.in.input(func() { c.gotoSample(i) }) // no such sample: gotoSample says so
		return
	}
	c.in.inputOf(heldInput{run: func() {
		if i >= 0 {
			c.gotoSample(i)
		}
	}, samples: []*int{&i}, click: true})
}

// gotoSample puts the cursor on sample i, browsing every sample first if the view hides it.
func (c *controller) gotoSample(i int) {
	if i < 0 || i >= c.ds.Len() {
		c.d.Inform("Go to sample", fmt.Sprintf("There is no sample %d: samples are numbered 0 to %d.", i, c.ds.Len()-1))
		return
	}
	left := ""
	if !c.v.Shows(i) {
		left = c.mode.Title()
		c.leave(browsing)
		c.out.center(nil)
		c.rebuild(store.Filter{})
		c.refresh()
	}
	c.moveCursor(c.v.pos[i], false)
	c.out.focus()
	if left != "" {
		c.say(numfmt.Sprintf("Sample %d is not listed in %s: all samples shown; Show → %s goes back to where you were", i, left, left))
	}
}

// moveCursor puts the cursor at position to (clamped) and shows it: a navigation key on the
// grid (extending the selection with Shift: extend), a review's "next", the sample after a
// relabel.
func (c *controller) moveCursor(to int, extend bool) {
	c.v.move(to, extend)
	c.follow()
}

// nextKept returns the number after a save (renumber, see store.Change) of sample i, or of the
// first sample after it the save kept; -1 when there is none (or i is -1).
func nextKept(renumber []int, i int) int {
	for ; i >= 0 && i < len(renumber); i++ {
		if renumber[i] >= 0 {
			return renumber[i]
		}
	}
	return -1
}

// keepsNumbers reports whether a Reset's renumbering (store.Change.Renumber) leaves every sample
// its number: a save that left none out (labels written, added samples kept). The scans of the
// samples then still describe them (the pixels the networks saw are unchanged), so they are kept
// across the save rather than run again. A replay's Reset (nil) renumbers. O(N), once a save.
func keepsNumbers(renumber []int) bool {
	if renumber == nil {
		return false
	}
	for i, to := range renumber {
		if to != i {
			return false
		}
	}
	return true
}
