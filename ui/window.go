package ui

import (
	"context"
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
	"idxlabel/suspect"
)

// Title is the window title's base.
const Title = "IDX Labeler"

// mainWindow is the application's one window: the grid of samples in the middle, the side panel
// on the left, the detail panel on the right, the status bar below; the dataset it edits and
// the view of it the grid shows.
type mainWindow struct {
	app    fyne.App
	win    fyne.Window
	grid   *tileGrid
	side   *sidePanel
	detail *detailPanel
	status *widget.Label

	ds       *store.Dataset
	name     string // shown in the title: the label (or image) file's name, or "demo"
	demo     bool   // a generated dataset: closing it loses nothing the user made
	v        *view
	unsub    func()
	busy     atomic.Bool // a load, save, import or scan runs: edits wait
	menu     *fyne.MainMenu
	items    menuItems
	recent   *fyne.MenuItem
	draw     *drawWindow    // the draw window, nil when closed
	sus      *review        // the last scan for suspects, nil before one
	cnn      *cnnJob        // the CNN scan refining sus, nil when none runs
	model    *suspect.Model // suggests labels (suggest.go); nil before one is trained
	training *cnnJob        // the model's training (and suggesting) in progress, nil when none
	saving   string         // the status of a save in progress ("Saving… 40%"), "" when none
	// An action asked for during a save (quit, open other files…) that waits for its end; its
	// name is on the status bar. Nil when none.
	afterSaving     func()
	afterSavingName string
	stopSave        context.CancelFunc // cancels the save in progress (File → Cancel Save); nil when none
	resets          int                // Reset changes applied (a save, a replay): a scan started before is stale
	bg              sync.WaitGroup     // the window's background work (load, save, import, export, scans, training)
	life            context.Context    // the parent of every cancellable background job's context
	end             context.CancelFunc

	// The suggestions for samples without a label (suggest.go).
	sugg      *review            // the last suggestions, nil before any
	modelFrom int                // the labelled samples the model learnt from
	cnnOpts   suspect.CNNOptions // how the CNNs train: zero for the recipe's defaults (tests shorten it)

	// Changes made off the UI thread (a save's rebase) wait here until drain applies them on
	// it; edits made on the UI thread are drained in the same step (edited).
	pmu      sync.Mutex
	pending  []pendingChange
	schedule func(func()) // runs a function on the UI thread later: fyne.Do (tests delay it)

	prompts prompts // open dialogs that answer Escape and Enter (prompt.go)
	footer  *footer // the key legend and the position (legend.go)
}

// newMainWindow builds the main window's widgets in win; it starts with an empty dataset, and
// setDataset gives it something to show.
func newMainWindow(a fyne.App, win fyne.Window) *mainWindow {
	life, end := context.WithCancel(context.Background())
	w := &mainWindow{app: a, win: win, schedule: fyne.Do, life: life, end: end, grid: newTileGrid(), side: newSidePanel(), detail: newDetailPanel(), status: widget.NewLabel("")}
	w.grid.badgeOf = w.badge
	w.grid.onChange = w.cursorMoved
	w.grid.onRune = w.typedRune
	w.grid.onKey = w.typedKey
	w.grid.keyFirst = w.reviewKey
	w.grid.onZoom = w.side.setZoom
	w.grid.onContext = w.showContextMenu
	w.side.onFilter = w.applyFilter
	w.side.onGoto = w.gotoSample
	w.side.onZoom = w.grid.setZoom
	w.status.Truncation = fyne.TextTruncateEllipsis

	left := container.NewPadded(w.side.root)
	right := container.NewPadded(w.detail.root)
	w.footer = newFooter(w.status)
	split := container.NewBorder(nil, container.NewPadded(w.footer.root), left, right, w.grid)
	w.win.SetContent(split)
	w.win.Resize(fyne.NewSize(1280, 820))
	w.buildMenu()
	w.win.SetCloseIntercept(w.quit)
	w.win.SetOnDropped(w.dropped)
	w.win.Canvas().SetOnTypedRune(w.canvasRune)
	w.win.Canvas().SetOnTypedKey(w.canvasKey)
	w.side.onKey, w.side.onRune, w.side.onDone = w.passKey, w.passRune, w.focusGrid
	w.side.gotoBox.onFocus = func(on bool) { w.footer.typing = on; w.footer.update(w) }
	w.setEmpty()
	return w
}

// setEmpty gives the window an empty dataset, so that it is never without one: every handler
// works (on nothing) before a first file opens, or when it fails to.
func (w *mainWindow) setEmpty() {
	ds, err := store.New(28, 28, nil, nil, "")
	if err != nil {
		panic(err) // 28×28 is always a valid size
	}
	w.setDataset(ds, nothingOpen, false)
}

// nothingOpen names the empty dataset the window starts with.
const nothingOpen = "nothing open"

// refuseWhileBusy reports whether a load, save, import or scan is running, and then says on the
// status bar that the edit waits, instead of dropping the key silently.
func (w *mainWindow) refuseWhileBusy() bool {
	if !w.busy.Load() {
		return false
	}
	w.status.SetText("Busy (saving, opening or importing): edits wait until it is done")
	return true
}

// setDataset makes ds the dataset the window edits (closing the previous one), shows all of
// it, and asks about a journal of unsaved edits or anything Open wants the user to know.
func (w *mainWindow) setDataset(ds *store.Dataset, name string, demo bool) {
	if w.unsub != nil {
		w.unsub()
	}
	if w.ds != nil {
		if w.demo {
			w.ds.Abandon()
		}
		w.ds.Close()
	}
	w.stopCNNScan()
	w.dropModel()
	w.ds, w.name, w.demo, w.sus, w.sugg = ds, name, demo, nil, nil
	w.unsub = ds.Subscribe(func(ch store.Change) {
		w.pmu.Lock()
		w.pending = append(w.pending, pendingChange{ds, ch})
		w.pmu.Unlock()
		w.schedule(w.drain)
	})
	w.side.reset()
	w.v = newView(ds.Select(store.Filter{}), ds.Len())
	w.v.gen = ds.Gen()
	w.grid.setData(ds, w.v)
	if w.v.Len() > 0 {
		w.grid.moveCursor(0)
	}
	w.refresh()
	w.win.Canvas().Focus(w.grid)
	if name != nothingOpen {
		reportFirstTiles(ds.Len()) // the placeholder is not the first tiles anyone waits for
	}
	for _, n := range ds.Notices() {
		w.inform("Note", n)
	}
	if rec := ds.Recovery(); rec != nil {
		w.offerRecovery(rec)
	}
}

// pendingChange is a change of ds not yet applied to the view.
type pendingChange struct {
	ds *store.Dataset
	ch store.Change
}

// drain applies, in order and on the UI thread, every change of the dataset that the view has
// not applied yet. Subscriptions queue changes and schedule drain with fyne.Do; an edit made on
// the UI thread calls edited, which drains at once, so the view never lags the store by an edit
// the person made.
func (w *mainWindow) drain() {
	w.pmu.Lock()
	p := w.pending
	w.pending = nil
	w.pmu.Unlock()
	for _, c := range p {
		w.storeChanged(c.ds, c.ch)
	}
}

// edited brings the view up to date after an edit made on the UI thread (the store delivered
// its Change synchronously into the queue).
func (w *mainWindow) edited() { w.drain() }

// storeChanged keeps the view in step with an edit (on the UI thread).
func (w *mainWindow) storeChanged(ds *store.Dataset, ch store.Change) {
	if ds != w.ds || ch.Gen <= w.v.gen {
		return
	}
	// The positions below are rebuilt for this generation before anything is drawn (drawing
	// runs on this thread, after this returns).
	w.v.gen = ch.Gen
	switch ch.Kind {
	case store.Appended:
		f := w.side.filter()
		for _, i := range ch.Indices {
			if !w.reviewing() && (f.Subset == store.All || f.Subset == store.Live || f.Subset == store.Added) && (f.Class == nil || *f.Class == ds.Label(i)) {
				w.v.order = append(w.v.order, i)
			}
		}
		w.v.reindex(ds.Len())
		// Show what was just drawn or imported: the cursor goes to the last new sample.
		if last := ch.Indices[len(ch.Indices)-1]; w.v.pos[last] >= 0 {
			w.grid.moveCursor(w.v.pos[last])
		}
	case store.Truncated:
		keep := w.v.order[:0]
		for _, i := range w.v.order {
			if i < ds.Len() {
				keep = append(keep, i)
			}
		}
		w.v.order = keep
		w.v.reindex(ds.Len())
	case store.Reset:
		w.resets++
		w.followReset(ch.Renumber) // the reviews follow their samples (a save), or end (a replay)
		if ch.Renumber != nil {
			// A save renumbered the samples: the cursor follows its sample.
			if c := w.v.current(); c >= 0 && c < len(ch.Renumber) && ch.Renumber[c] >= 0 {
				w.v.order = []int{ch.Renumber[c]}
				w.v.cursor = 0
			}
		}
		w.rebuildView(w.side.filter())
	}
	w.refresh()
}

// refresh redraws everything that shows the dataset's state.
func (w *mainWindow) refresh() {
	if w.ds == nil {
		return
	}
	w.side.setCounts(w.ds.Counts(), w.ds.Len())
	w.grid.Refresh()
	w.cursorMoved()
	w.updateTitle()
	w.updateMenu()
}

// cursorMoved updates what depends on the cursor and the selection.
func (w *mainWindow) cursorMoved() {
	w.detail.show(w.ds, w.v.gen, w.v.current(), w.className)
	w.detail.neighbours.show(w, w.v.current())
	w.updateStatus()
}

func (w *mainWindow) updateTitle() {
	title := Title + " — " + w.name
	if w.ds.Dirty() {
		title += " *"
	}
	w.win.SetTitle(title)
}

func (w *mainWindow) updateStatus() {
	c := w.ds.Counters()
	images, labels := w.ds.Paths()
	files := "not saved yet"
	if w.name == nothingOpen {
		files = nothingOpen
	}
	if images != "" {
		files = filepath.Base(images)
		if labels != "" {
			files += " + " + filepath.Base(labels)
		}
	}
	text := files + "   |   " + samplesText(c.Samples) + count(", %d shown   |   %d edited, %d added, %d deleted", w.v.Len(), c.Edited, c.Added, c.Deleted)
	if n := len(w.v.selection()); n > 1 {
		text += count("   |   %d selected", n)
	}
	text += w.reviewStatus()
	if w.ds.Dirty() {
		text += "   |   ● unsaved"
	}
	if w.ds.ReadOnly() {
		text += "   |   read-only"
	}
	text += w.jobsStatus()
	w.status.SetText(text)
	w.footer.update(w)
}

// className names class c for display: its name from the class-name file when it has one.
func (w *mainWindow) className(c int) string {
	if c == store.NoLabel {
		return "none"
	}
	if n := w.ds.ClassName(c); n != "" && n != strconv.Itoa(c) {
		return fmt.Sprintf("%d (%s)", c, n)
	}
	return strconv.Itoa(c)
}

// shortClass is the badge text of class c: its name when it is short, else its number.
func (w *mainWindow) shortClass(c int) string {
	if c == store.NoLabel {
		return "?"
	}
	if n := w.ds.ClassName(c); n != "" && len([]rune(n)) <= 2 {
		return n
	}
	return strconv.Itoa(c)
}

// Badge colours.
var (
	badgePlain   = color.NRGBA{255, 255, 255, 255}
	badgeEdited  = color.NRGBA{255, 170, 60, 255}
	badgeAdded   = color.NRGBA{110, 220, 130, 255}
	badgeDeleted = color.NRGBA{255, 110, 110, 255}
)

// badge is the corner text of sample i's tile: "7", or "3→7" when edited, "+7" when added.
func (w *mainWindow) badge(i int) badge {
	st, _, ok := w.ds.SampleAt(w.v.gen, i)
	if !ok {
		return badge{}
	}
	b := badge{text: w.shortClass(st.Label), color: badgePlain}
	switch {
	case st.Deleted:
		b.color = badgeDeleted
	case st.Edited:
		b.text = w.shortClass(st.Original) + "→" + b.text
		b.color = badgeEdited
	case st.Added:
		b.text = "+" + b.text
		b.color = badgeAdded
	}
	if w.reviewing() {
		b = w.reviewBadge(i, b)
	}
	return b
}

// applyFilter shows the samples f selects, keeping the cursor's sample when it is among them;
// a review (Suspects, Suggested) shows its samples (scanning or suggesting first when it has
// none).
func (w *mainWindow) applyFilter(f store.Filter) {
	if w.ds == nil || w.startReview() {
		return
	}
	w.rebuildView(f)
	w.refresh()
}

// rebuildView replaces the view's order by the samples f selects.
func (w *mainWindow) rebuildView(f store.Filter) {
	keep := w.v.current()
	if w.reviewing() {
		w.v.order = w.reviewOrder(f)
	} else {
		w.v.order = w.ds.Select(f)
	}
	w.v.clearSelection()
	w.v.reindex(w.ds.Len())
	w.v.cursor, w.v.anchor = -1, -1
	w.grid.offset = 0
	if keep >= 0 && keep < len(w.v.pos) && w.v.pos[keep] >= 0 {
		w.grid.moveCursor(w.v.pos[keep])
	} else if w.v.Len() > 0 {
		w.grid.moveCursor(0)
	}
}

// gotoSample puts the cursor on sample i, showing every sample first if the filter hides it.
func (w *mainWindow) gotoSample(i int) {
	if w.ds == nil || i < 0 || i >= w.ds.Len() {
		w.inform("Go to sample", fmt.Sprintf("There is no sample %d: samples are numbered 0 to %d.", i, w.ds.Len()-1))
		return
	}
	if w.v.pos[i] < 0 {
		w.side.reset()
		w.rebuildView(store.Filter{})
	}
	w.grid.moveCursor(w.v.pos[i])
	w.win.Canvas().Focus(w.grid)
}
