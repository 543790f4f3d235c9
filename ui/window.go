package ui

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
)

// Title is the window title's base.
const Title = "IDX Labeler"

// window is the main window put together: the controller that owns the state, the views it
// shows the state in, and the workflows that run the longer work (opening, saving, scans,
// suggestions, import, export, drawing). newWindow builds and wires it once; Run and the tests
// hold it. No part holds it: each is built with what it needs.
type window struct {
	app  fyne.App
	win  fyne.Window
	c    *controller
	jobs *jobs
	d    *dialogs
	keys *keyRouter

	grid   *tileGrid
	side   *sidePanel
	detail *detailPanel
	footer *footer
	menu   *menuBar

	files *opener
	save  *saver
	scans *scanner
	views *scanViews // the confusion matrix and the map of the scan
	sugg  *suggester
	draw  *drawer
	imp   *importer
	build builders // Append Dataset, Save Shown As, Split Dataset, Class Names (builders.go)
	exp   *exporter
	check *checker
}

// newWindow builds the main window's parts in win and wires them; it starts with an empty
// dataset (the controller's setEmpty), and opener.use gives it something to show.
func newWindow(a fyne.App, win fyne.Window) *window {
	nameFavouriteFolders() // before any file dialog opens
	w := &window{app: a, win: win, jobs: newJobs(fyne.Do), d: &dialogs{win: win}}
	c := newController(w.jobs, w.d)
	w.c = c
	w.grid = newTileGrid(c)
	w.keys = &keyRouter{canvas: win.Canvas(), grid: w.grid, d: w.d}
	w.d.done = func() {
		w.keys.focusGrid()
		c.replayHeld() // inputs that waited behind the dialog (held.go)
	}

	// The modes beyond browsing, and the workflows that make their lists.
	suspects := &reviewMode{kind: reviewSuspects, name: "Suspects"}
	suggested := &reviewMode{kind: reviewSuggested, name: "Suggested"}
	c.modes[modeSuspects], c.modes[modeSuggested] = suspects, suggested
	w.sugg = &suggester{c: c, d: w.d, review: suggested, opts: cnnOptionsFromEnv()}
	w.scans = &scanner{c: c, d: w.d, win: win, review: suspects, models: w.sugg}
	suspects.begin, suspects.why = w.scans.findSuspects, w.sugg.why
	suggested.begin, suggested.why = w.sugg.suggestLabels, w.sugg.why
	w.sugg.wire(suggested)
	c.replaced = []func(){w.scans.stop, w.sugg.drop}
	checkMode := &checkMode{view: newCheckView(w.grid)}
	c.modes[modeCheck] = checkMode
	w.check = &checker{c: c, d: w.d, win: win, prefs: a.Preferences(), scans: w.scans, mode: checkMode}
	checkMode.begin, checkMode.followed = w.check.ask, w.check.followed
	checkMode.view.onKind, checkMode.view.onCancel = w.check.pick, w.check.cancel
	c.replaced = append(c.replaced, w.check.drop)
	w.scans.watch = append(w.scans.watch, w.check.scanProgress)
	w.views = newScanViews(c, w.scans, w.grid)
	w.views.mapm.outliers = checkMode.outliers
	c.modes[modeConfusion], c.modes[modeMap] = w.views.confusion, w.views.mapm

	w.side = newSidePanel(modeChoices(c.modes))
	w.detail = newDetailPanel()
	w.footer = newFooter()
	w.save = &saver{c: c, d: w.d, win: win, prefs: a.Preferences()}
	w.files = &opener{c: c, d: w.d, win: win, prefs: a.Preferences(), save: w.save}
	w.save.recent = w.files.addRecent
	w.draw = &drawer{app: a, deps: drawDeps{
		size:    func() (int, int) { return c.ds.Size() },
		classes: func() classNames { return c.classes },
		add: func(px []byte, label int) (int, error) {
			return c.add(store.HowAddedDrawn, []store.Sample{{Pixels: px, Label: label}})
		},
		busy:    w.jobs.busy,
		save:    w.save.save,
		guess:   w.sugg.guess,
		trained: func() bool { return w.sugg.model != nil },
		few:     w.sugg.lowConfidence,
		opened:  w.sugg.trainModel,
		closed: func() {
			win.RequestFocus()
			w.keys.focusGrid()
		},
		quit: func() {
			win.RequestFocus() // the question about unsaved edits opens there
			w.save.quit()
		},
	}}
	w.files.draw = w.draw.show
	c.shown = []func(){w.draw.follow}
	w.sugg.note, w.sugg.ready = w.draw.say, w.draw.suggest
	w.imp = &importer{c: c, d: w.d, win: win}
	w.build = newBuilders(c, w.d, win, func(then func()) { w.save.run(c.ds.SaveContext, then) }, w.files.open)
	w.exp = &exporter{c: c, d: w.d, win: win}
	w.menu = newMenuBar(win, w.menuActions())
	w.save.menu, w.files.menu = w.menu, w.menu

	// The views report to the controller, and to the key router.
	w.grid.onZoom = w.side.setZoom
	// What the person asks for waits, in order, behind the inputs waiting for a job (held.go).
	w.side.onShow = func(m mode, subset store.Subset) { c.input(func() { c.choose(m, subset) }) }
	w.side.onClass = func(class *int) { c.input(func() { c.setClass(class) }) }
	w.side.onGoto, w.detail.onGoto = c.askGoto, c.askGoto // the go-to box, a suspect's neighbour
	w.side.onZoom = w.grid.setZoom
	w.side.onKey, w.side.onRune, w.side.onDone = w.keys.passKey, w.keys.passRune, w.keys.focusGrid
	w.side.gotoBox.onFocus = w.footer.setTyping

	middle := container.NewStack(w.grid)
	banner := widget.NewLabel("")
	banner.Wrapping = fyne.TextWrapWord
	banner.Importance = widget.HighImportance
	banner.Hide()
	centre := container.NewBorder(banner, nil, nil, nil, middle)
	c.out = screen{grid: w.grid, side: w.side, detail: w.detail, footer: w.footer, menu: w.menu,
		title: win.SetTitle, focus: w.keys.focusGrid,
		banner: func(text string) {
			if text == banner.Text && banner.Visible() == (text != "") {
				return // nothing changed: no layout for a key
			}
			banner.SetText(text)
			if text == "" {
				banner.Hide()
			} else {
				banner.Show()
			}
			centre.Refresh()
		},
		center: func(o fyne.CanvasObject) {
			if o == nil {
				o = w.grid
			}
			if len(middle.Objects) == 1 && middle.Objects[0] == o {
				return
			}
			middle.Objects = []fyne.CanvasObject{o}
			middle.Refresh()
		}}
	left := container.NewPadded(w.side.root)
	right := container.NewPadded(w.detail.root)
	content := container.NewBorder(nil, container.NewPadded(w.footer.root), left, right, centre)
	c.out.wide = func(on bool) {
		if on == !right.Visible() {
			return // nothing changed: no layout for a key
		}
		if on {
			right.Hide()
		} else {
			right.Show()
		}
		content.Refresh()
	}
	win.SetContent(content)
	win.Resize(fyne.NewSize(1280, 820))
	// The main window is the application: closing it (Quit, after the question about unsaved
	// edits) ends the program, with the draw window if it is open.
	win.SetMaster()
	w.save.closing = w.draw.close
	win.SetCloseIntercept(w.save.quit)
	win.SetOnDropped(w.files.dropped)
	win.Canvas().SetOnTypedRune(w.keys.canvasRune)
	win.Canvas().SetOnTypedKey(w.keys.canvasKey)
	w.files.showRecent()
	c.setEmpty()
	return w
}

// modeChoices lists the Show list's entries of the modes that have a title, in mode order.
func modeChoices(modes map[mode]modeView) []showChoice {
	var out []showChoice
	for m, mv := range modes {
		if t := mv.title(); t != "" {
			out = append(out, showChoice{name: t, mode: m, subset: store.Live})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].mode < out[b].mode })
	return out
}

// menuActions are what the main menu's items do.
func (w *window) menuActions() menuActions {
	c := w.c
	return menuActions{
		newDataset: w.files.newDataset, open: w.files.openDialog, openDemo: w.files.openDemo,
		importImages: func() { c.input(w.imp.importDialog) }, appendDataset: func() { c.input(w.build.app.appendDialog) },
		saveShown: func() { c.input(w.build.shown.saveShownDialog) }, splitDataset: func() { c.input(w.build.split.splitDialog) },
		classNames: func() { c.input(w.build.names.classNamesDialog) }, export: w.exp.exportDialog, exportChangeLog: w.save.exportChangeLogDialog,
		exportReport: w.check.exportReport, checkDataset: w.check.ask,
		save: func() { c.input(w.save.save) }, saveAs: func() { c.input(w.save.saveAs) }, cancelSave: w.save.cancel, quit: w.save.quit,
		toggleChangeLog: w.save.toggleChangeLog, changeLogOn: w.save.writeChangeLog,
		undo: func() { c.input(c.undo) }, redo: func() { c.input(c.redo) },
		selectAll:    func() { w.keys.selectAll(func() { c.input(c.selectAll) }) },
		relabel:      func() { c.input(func() { c.pickClass("") }) },
		toggleDelete: func() { c.input(c.toggleDelete) },
		draw:         w.draw.show,
		gotoSample:   func() { w.win.Canvas().Focus(w.side.gotoBox) },
		zoomIn:       func() { w.grid.setZoom(w.grid.zoom + 1) },
		zoomOut:      func() { w.grid.setZoom(w.grid.zoom - 1) },
		findSuspects: func() { c.input(w.scans.findSuspects) }, suggestLabels: w.sugg.suggestLabels,
		confusion: func() { c.choose(modeConfusion, store.Live) },
		showMap:   func() { c.choose(modeMap, store.Live) },
		stopTraining: func() {
			w.scans.stop()
			c.renderCursor()
			w.sugg.stop()
		},
		keys: w.d.showKeys, about: w.d.showAbout,
		acceptSuggestions: func() { c.input(w.sugg.acceptMany) },
	}
}
