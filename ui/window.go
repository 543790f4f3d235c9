package ui

import (
	"os"

	"fyne.io/fyne/v2"

	"idxlabel/export"
	"idxlabel/store"
	"idxlabel/ui/annotators"
	"idxlabel/ui/build"
	"idxlabel/ui/confusion"
	"idxlabel/ui/convert"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/draw"
	"idxlabel/ui/health"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mapview"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
	"idxlabel/ui/sheets"
	"idxlabel/ui/similar"
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
	like  *similar.Finder    // more like this
	views *scan.Views        // the scan as the confusion matrix and the map show it
	conf  *confusion.Mode    // the confusion matrix
	mapv  *mapview.Mode      // the map
	sugg  *suggest.Suggester // the Suggested list, and the model that suggests labels
	draw  *draw.Drawer       // the draw window
	build build.Workflows    // Import Images, Append Dataset, Save Shown As, Split Dataset, Class Names
	sheet *sheets.Importer   // Import Sheets
	exp   *exporter
	conv  *convert.Converter     // Parquet, CSV and NumPy files opened as IDX pairs written beside them
	check *health.Checker        // the health check
	annot *annotators.Annotators // Compare Annotations, the Disagreements mode, the errata
}

// newWindow builds the main window's parts in win, each with what it needs; it starts with an
// empty dataset (the controller's setEmpty), and opener.use gives it something to show. It only
// assembles: what each part does is the part's own.
//
// The parts are built in the order of what they need. Where two need each other (the save
// puts a pair in Open Recent and File → Open saves first; the jobs and the dialogs give the
// controller the inputs that waited for them, and the controller runs its jobs and asks its
// questions through them), one is handed a function that reaches the other through w when it is
// called, after newWindow has returned: nothing is set on a part after it is built. The
// controller, which every view and workflow reports to and which shows them all, is handed its
// parts (attach) once they are built.
func newWindow(a fyne.App, win fyne.Window) *window {
	dialogs.NameFavouriteFolders() // before any file dialog opens
	w := &window{app: a, win: win}
	w.jobs = jobs.New(fyne.Do, func() { w.c.idle() })
	var changed func() // the tests' state line follows the prompts (testhooks.go)
	if testStateFile != "" {
		changed = func() { writeTestState(w.c) }
	}
	w.d = dialogs.New(win, a.Preferences(), func() {
		w.keys.focusGrid()
		w.c.idle() // inputs that waited behind the dialog (held.go)
	}, changed)
	c := newController(w.jobs, w.d)
	w.c = c
	w.d.SetOpenPair(func() (string, string) {
		if c.ds == nil || c.ds.ReadOnly() {
			return "", ""
		}
		return c.ds.Paths()
	})
	w.grid = widgets.NewTileGrid(gridReports{c}, func(z int) { w.side.setZoom(z) })
	w.keys = &keyRouter{canvas: win.Canvas(), grid: w.grid, d: w.d}

	// The modes beyond browsing, and the workflows that make their lists.
	host := modeHost{c}
	w.scans = scan.New(host, w.jobs, w.d, scan.OptionsFromEnv())
	w.sugg = suggest.New(host, w.jobs, w.d, win, &w.scans.Opts, os.Getenv(suggest.TestEnv))
	w.susp = suspects.New(host, w.jobs, w.d, win, w.scans, w.sugg.Why, w.sugg.SetModel)
	w.like = similar.New(host, w.jobs, w.d, win, w.scans)
	w.check = health.New(host, w.jobs, w.d, win, a.Preferences(), w.scans, w.grid)
	w.views = scan.NewViews(host, w.scans)
	w.conf = confusion.New(host, w.views, w.grid)
	w.mapv = mapview.New(host, w.jobs, w.d, w.views, w.grid, w.check.Mode.Outliers)
	w.annot = annotators.New(host, w.jobs, w.d, win, w.grid)

	// Every mode the window has: the Show list offers those with a title, in this order.
	modes := []mode.Mode{
		browsing,
		w.susp.Mode,
		w.sugg.Mode,
		w.check.Mode,
		w.conf,
		w.mapv,
		w.like.Mode,
		w.annot.Mode,
	}

	// The views, the draw window and the workflows of the menus.
	w.footer = newFooter()
	w.side = newSidePanel(modeChoices(modes), sideInput{input: c.in.input, onShow: c.choose, onClass: c.setClass,
		onGoto: c.askGoto, onZoom: w.grid.SetZoom,
		onDone: w.keys.focusGrid, onTyping: w.footer.setTyping})
	w.detail = newDetailPanel(c.askGoto) // a suspect's neighbour
	w.draw = draw.New(a, Title, drawHost{w}, w.sugg)
	w.sugg.Tell(w.draw.Say, w.draw.Suggest)
	w.save = &saver{c: c, d: w.d, win: win, prefs: a.Preferences(),
		recent: func(images, labels string) { w.files.addRecent(images, labels) }, closing: w.draw.Close,
		export: func(out string, f export.Format) { w.exp.run(out, export.Options{Format: f}, false) }}
	w.conv = convert.New(convertHost{w}, w.jobs, w.d, win)
	w.files = &opener{c: c, d: w.d, win: win, prefs: a.Preferences(), save: w.save, draw: w.draw.Show, convert: w.conv.Open}
	w.build = build.New(buildHost{w}, w.jobs, w.d, win)
	w.sheet = sheets.New(buildHost{w}, w.jobs, w.d, win)
	w.exp = &exporter{c: c, d: w.d, win: win}
	w.menu = newMenuBar(win, w.d, w.menuActions())

	f := newFrame(w.grid, w.side.root, w.detail.root, w.footer.root)
	c.attach(controllerParts{
		out: screen{grid: w.grid, side: w.side, detail: w.detail, footer: w.footer, menu: w.menu,
			title: win.SetTitle, focus: w.keys.focusGrid, banner: f.setBanner, center: f.center, wide: f.wide},
		modes:    modes,
		replaced: []func(){w.scans.Forget, w.sugg.Drop, w.check.Drop, w.views.Drop, w.like.Drop},
		shown:    []func(){w.draw.Follow},
		follows:  []func(store.Change){w.sugg.Follow, w.views.Follow},
	})
	win.SetContent(f.content)
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

// menuActions are what the main menu's items do: the parts' own methods (the menu runs those
// that act on the dataset as the person's inputs, menuActions).
func (w *window) menuActions() menuActions {
	c := w.c
	return menuActions{
		input:        c.in.input,
		importImages: w.build.Import.Dialog, importSheets: w.sheet.Dialog, appendDataset: w.build.Append.Dialog, saveShown: w.build.Shown.Dialog,
		splitDataset: w.build.Split.Dialog, classNames: w.build.Names.Dialog,
		save: w.save.save, saveAs: w.save.saveAs, undo: c.undo, redo: c.redo, selectSamples: c.selectAll,
		toggleDelete: c.toggleDelete, pickClass: c.pickClass,
		findSuspects: w.susp.Find, scanAgain: w.scanAgain, acceptSuggestions: w.sugg.AcceptMany,
		acceptDialog: w.sugg.AcceptDialog,

		newDataset: w.files.newDataset, open: w.files.openDialog, openDemo: w.files.openDemo,
		export: w.exp.exportDialog, exportChangeLog: w.save.exportChangeLogDialog, exportReport: w.check.ExportReport,
		cancelSave: w.save.cancel, toggleChangeLog: w.save.toggleChangeLog, quit: w.save.quit,
		checkDataset: w.check.Ask, draw: w.draw.Show, gotoSample: w.side.focusGoto,
		suggestLabels: w.sugg.Suggest, stopTraining: w.stopTraining, changeLogOn: w.save.writeChangeLog,
		selectAll: w.keys.selectAll, zoomBy: w.grid.ZoomBy,
		choose: modeHost{c}.Choose, confusion: w.conf, mapOf: w.mapv, moreLike: w.like.LikeCursor,
		compareAnnotations: w.annot.Compare, exportErrata: w.annot.Errata.Export, applyErrata: w.annot.Errata.Apply,
	}
}

// stopTraining is Tools → Stop Training the CNN: the scan running stops (the views waiting for
// it are told so), and so does the suggesting model's training (the model trained before stays).
func (w *window) stopTraining() {
	w.scans.Stop()
	w.c.renderCursor()
	w.sugg.Stop()
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
