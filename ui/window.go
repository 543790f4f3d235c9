package ui

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
	"idxlabel/ui/build"
	"idxlabel/ui/confusion"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/draw"
	"idxlabel/ui/health"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mapview"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
	"idxlabel/ui/suggest"
	"idxlabel/ui/suspects"
	"idxlabel/ui/widgets"
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
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	keys *keyRouter

	grid   *widgets.TileGrid
	side   *sidePanel
	detail *detailPanel
	footer *footer
	menu   *menuBar

	files *opener
	save  *saver
	scans *scan.Scanner      // the CNN scan every view shares
	susp  *suspects.Finder   // the Suspects review
	views *scan.Views        // the scan as the confusion matrix and the map show it
	conf  *confusion.Mode    // the confusion matrix
	mapv  *mapview.Mode      // the map
	sugg  *suggest.Suggester // the Suggested list, and the model that suggests labels
	draw  *draw.Drawer       // the draw window
	build build.Workflows    // Import Images, Append Dataset, Save Shown As, Split Dataset, Class Names
	exp   *exporter
	check *health.Checker // the health check
}

// newWindow builds the main window's parts in win, each with what it needs; it starts with an
// empty dataset (the controller's setEmpty), and opener.use gives it something to show.
//
// The parts are built in the order of what they need. Where two need each other (the save
// puts a pair in Open Recent and File → Open saves first; the draw window saves and asks the
// model, which tells the draw window what it suggests), one is handed a function that reaches
// the other through w when it is called, after newWindow has returned: nothing is set on a part
// after it is built. The controller, which every view and workflow reports to and which shows
// them all, is handed its parts (attach) once they are built.
func newWindow(a fyne.App, win fyne.Window) *window {
	dialogs.NameFavouriteFolders() // before any file dialog opens
	w := &window{app: a, win: win}
	w.jobs = jobs.New(fyne.Do, func() { w.c.idle() })
	var changed func() // the tests' state line follows the prompts (testhooks.go)
	if testStateFile != "" {
		changed = func() { w.c.writeTestState() }
	}
	w.d = dialogs.New(win, a.Preferences(), func() {
		w.keys.focusGrid()
		w.c.replayHeld() // inputs that waited behind the dialog (held.go)
	}, changed)
	c := newController(w.jobs, w.d)
	w.c = c
	w.grid = widgets.NewTileGrid(gridReports{c}, func(z int) { w.side.setZoom(z) })
	w.keys = &keyRouter{canvas: win.Canvas(), grid: w.grid, d: w.d}

	// The modes beyond browsing, and the workflows that make their lists.
	host := modeHost{c}
	w.scans = scan.New(host, w.jobs, w.d, scan.OptionsFromEnv())
	w.sugg = suggest.New(host, w.jobs, w.d, &w.scans.Opts, os.Getenv(suggest.TestEnv))
	w.susp = suspects.New(host, w.jobs, w.d, win, w.scans, w.sugg.Why, w.sugg.SetModel)
	w.check = health.New(host, w.jobs, w.d, win, a.Preferences(), w.scans, w.grid)
	w.views = scan.NewViews(host, w.scans)
	w.conf = confusion.New(host, w.views, w.grid)
	w.mapv = mapview.New(host, w.jobs, w.d, w.views, w.grid, w.check.Mode.Outliers)

	// Every mode the window has: the Show list offers those with a title, in this order.
	modes := []mode.Mode{
		browsing,
		w.susp.Mode,
		w.sugg.Mode,
		w.check.Mode,
		w.conf,
		w.mapv,
	}

	// What the person asks for waits, in order, behind the inputs waiting for a job (held.go).
	w.side = newSidePanel(modeChoices(modes), sideInput{
		onShow:   func(m mode.Mode, subset store.Subset) { c.input(func() { c.choose(m, subset) }) },
		onClass:  func(class *int) { c.input(func() { c.setClass(class) }) },
		onGoto:   c.askGoto, // the go-to box
		onZoom:   w.grid.SetZoom,
		onKey:    w.keys.passKey,
		onRune:   w.keys.passRune,
		onDone:   w.keys.focusGrid,
		onTyping: func(on bool) { w.footer.setTyping(on) },
	})
	w.detail = newDetailPanel(c.askGoto) // a suspect's neighbour
	w.footer = newFooter()
	w.save = &saver{c: c, d: w.d, win: win, prefs: a.Preferences(),
		recent:  func(images, labels string) { w.files.addRecent(images, labels) },
		closing: func() { w.draw.Close() }}
	w.draw = draw.New(a, Title, drawHost{w}, w.sugg)
	w.sugg.Tell(w.draw.Say, w.draw.Suggest)
	w.files = &opener{c: c, d: w.d, win: win, prefs: a.Preferences(), save: w.save, draw: w.draw.Show}
	w.build = build.New(buildHost{w}, w.jobs, w.d, win)
	w.exp = &exporter{c: c, d: w.d, win: win}
	w.menu = newMenuBar(win, w.menuActions())

	middle := container.NewStack(w.grid)
	banner := widget.NewLabel("")
	banner.Wrapping = fyne.TextWrapWord
	banner.Importance = widget.HighImportance
	banner.Hide()
	centre := container.NewBorder(banner, nil, nil, nil, middle)
	left := container.NewPadded(w.side.root)
	right := container.NewPadded(w.detail.root)
	content := container.NewBorder(nil, container.NewPadded(w.footer.root), left, right, centre)
	c.attach(controllerParts{
		out: screen{grid: w.grid, side: w.side, detail: w.detail, footer: w.footer, menu: w.menu,
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
			},
			wide: func(on bool) {
				if on == !right.Visible() {
					return // nothing changed: no layout for a key
				}
				if on {
					right.Hide()
				} else {
					right.Show()
				}
				content.Refresh()
			}},
		modes:    modes,
		replaced: []func(){w.scans.Forget, w.sugg.Drop, w.check.Drop, w.views.Drop},
		shown:    []func(){w.draw.Follow},
		follows:  []func(store.Change){w.sugg.Follow, w.views.Follow},
	})
	win.SetContent(content)
	win.Resize(fyne.NewSize(1280, 820))
	// The main window is the application: closing it (Quit, after the question about unsaved
	// edits) ends the program, with the draw window if it is open.
	win.SetMaster()
	win.SetCloseIntercept(w.save.quit)
	win.SetOnDropped(w.files.dropped)
	win.Canvas().SetOnTypedRune(w.keys.canvasRune)
	win.Canvas().SetOnTypedKey(w.keys.canvasKey)
	w.files.showRecent()
	c.setEmpty()
	return w
}

// menuShortcuts are the shortcuts of menu's items that another window passes on to win (the
// draw window: Ctrl+I imports there too), each raising win first; not those a text field or a
// drawing pad has its own meaning for (undo, redo, select all, cut, copy, paste).
func menuShortcuts(menu *fyne.MainMenu, win fyne.Window) []draw.Shortcut {
	var out []draw.Shortcut
	for _, m := range menu.Items {
		for _, it := range m.Items {
			switch it.Shortcut.(type) {
			case nil, *fyne.ShortcutUndo, *fyne.ShortcutRedo, *fyne.ShortcutSelectAll, *fyne.ShortcutCut, *fyne.ShortcutCopy, *fyne.ShortcutPaste:
				continue
			}
			if it.Action == nil {
				continue
			}
			action := it.Action
			out = append(out, draw.Shortcut{Key: it.Shortcut, Do: func() {
				win.RequestFocus()
				action()
			}})
		}
	}
	return out
}

// modeChoices lists the Show list's entries of the modes that have a title, in the table's
// order.
func modeChoices(modes []mode.Mode) []showChoice {
	var out []showChoice
	for _, m := range modes {
		if t := m.Title(); t != "" {
			out = append(out, showChoice{name: t, mode: m, subset: store.Live})
		}
	}
	return out
}

// menuActions are what the main menu's items do.
func (w *window) menuActions() menuActions {
	c := w.c
	return menuActions{
		newDataset: w.files.newDataset, open: w.files.openDialog, openDemo: w.files.openDemo,
		importImages: func() { c.input(w.build.Import.Dialog) }, appendDataset: func() { c.input(w.build.Append.Dialog) },
		saveShown: func() { c.input(w.build.Shown.Dialog) }, splitDataset: func() { c.input(w.build.Split.Dialog) },
		classNames: func() { c.input(w.build.Names.Dialog) }, export: w.exp.exportDialog, exportChangeLog: w.save.exportChangeLogDialog,
		exportReport: w.check.ExportReport, checkDataset: w.check.Ask,
		save: func() { c.input(w.save.save) }, saveAs: func() { c.input(w.save.saveAs) }, cancelSave: w.save.cancel, quit: w.save.quit,
		toggleChangeLog: w.save.toggleChangeLog, changeLogOn: w.save.writeChangeLog,
		undo: func() { c.input(c.undo) }, redo: func() { c.input(c.redo) },
		selectAll:    func() { w.keys.selectAll(func() { c.input(c.selectAll) }) },
		relabel:      func() { c.input(func() { c.pickClass("") }) },
		toggleDelete: func() { c.input(c.toggleDelete) },
		draw:         w.draw.Show,
		gotoSample:   w.side.focusGoto,
		zoomIn:       func() { w.grid.SetZoom(w.grid.Zoom() + 1) },
		zoomOut:      func() { w.grid.SetZoom(w.grid.Zoom() - 1) },
		findSuspects: func() { c.input(w.susp.Find) }, suggestLabels: w.sugg.Suggest,
		confusion: func() { c.choose(w.conf, store.Live) },
		showMap:   func() { c.choose(w.mapv, store.Live) },
		scanAgain: func() { c.input(w.scanAgain) },
		stopTraining: func() {
			w.scans.Stop()
			c.renderCursor()
			w.sugg.Stop()
		},
		keys: func() { w.menu.showKeys(w.d) }, about: func() { showAbout(w.d) },
		acceptSuggestions: func() { c.input(w.sugg.AcceptMany) },
	}
}

// scanAgain is Tools → Scan Again: the CNN scan made anew of the samples as they are now, without
// reading the scan kept beside the image file (a scan that ran replaces it there): in the
// Suspects review, the kNN pass first as Find Suspects makes it; elsewhere the scan alone, after
// which a view of the scan shown (the confusion matrix, the map: a mode no longer ready once a
// newer scan exists) is made again from it (a view opened later takes it).
func (w *window) scanAgain() {
	c := w.c
	if c.mode == mode.Mode(w.susp.Mode) {
		w.susp.FindAgain()
		return
	}
	w.scans.Again(func(*scan.Analysis) {
		if !mode.Ready(c.mode) {
			c.choose(c.mode, store.Live)
		}
	})
}
