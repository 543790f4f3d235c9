package ui

import (
	"idxlabel/ui/dialogs"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"

	"fyne.io/fyne/v2"
)

// item makes a menu item with a shortcut (nil: none).
func item(label string, sc fyne.Shortcut, action func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, action)
	it.Shortcut = sc
	return it
}

// menuActions are what the menu items do, handed to newMenuBar by the window. Those that act on
// the dataset (an edit, a dialog that leads to one, a save, a scan) are the person's inputs: the
// menu runs them through input, which queues them behind the inputs waiting for a job (held.go),
// in order; the others (opening a file, a dialog that only reads, the zoom, help) run at once.
type menuActions struct {
	input func(func())

	// Inputs.
	importImages, appendDataset, saveShown, splitDataset, classNames func()
	importSheets                                                     func()
	save, saveAs, undo, redo, selectSamples, toggleDelete            func()
	findSuspects, scanAgain, acceptSuggestions, acceptDialog         func()
	moreLike                                                         func() // the samples like the cursor's
	pickClass                                                        func(initial string)

	// At once.
	newDataset, open, openDemo, export, exportChangeLog, exportReport func()
	cancelSave, toggleChangeLog, quit, checkDataset, draw, gotoSample func()
	suggestLabels, stopTraining                                       func()
	changeLogOn                                                       func() bool
	selectAll                                                         func(samples func()) // a focused text's, else samples
	zoomBy                                                            func(steps int)
	choose                                                            func(m mode.Mode) // the Show list's choice of m
	confusion, mapOf                                                  mode.Mode

	// Several annotators (ui/annotators): comparing reads only; applying errata is an input.
	compareAnnotations, exportErrata, applyErrata func()
}

// menuBar is the main menu. Its shortcuts work everywhere in the window (Fyne triggers main
// menu shortcuts itself); Ctrl+Shift+Z and the zoom keys' alternatives, which a menu item cannot
// carry as a second shortcut, are added to the canvas. It shows what Undo and Redo would do,
// whether a save can be cancelled, the change log's preference and the recent files.
type menuBar struct {
	menu               *fyne.MainMenu
	undo, redo         *fyne.MenuItem
	cancelSave         *fyne.MenuItem // File → Cancel Save, enabled while a save runs
	changeLog          *fyne.MenuItem // Write Change Log on Save (checked: on)
	recent             *fyne.MenuItem
	undoName, redoName string // what the items show now
}

// newMenuBar builds the menu of win with the actions a; its help opens through d.
func newMenuBar(win fyne.Window, d *dialogs.Dialogs, a menuActions) *menuBar {
	in := func(f func()) func() { return func() { a.input(f) } }
	m := &menuBar{}
	m.undo = item("Undo", &fyne.ShortcutUndo{}, in(a.undo))
	m.redo = item("Redo", &fyne.ShortcutRedo{}, in(a.redo))
	m.undo.Disabled, m.redo.Disabled = true, true // nothing to undo or redo yet (show)
	m.changeLog = fyne.NewMenuItem("Write Change Log on Save", a.toggleChangeLog)
	m.changeLog.Checked = a.changeLogOn()
	m.cancelSave = item("Cancel Save", nil, a.cancelSave)
	m.cancelSave.Disabled = true
	m.recent = fyne.NewMenuItem("Open Recent", nil)
	m.recent.ChildMenu = fyne.NewMenu("")
	zoomIn := func() { a.zoomBy(1) }
	// Our own Quit (Fyne's would close the window without asking about unsaved edits).
	quit := item("Quit", widgets.Ctrl(fyne.KeyQ, false), a.quit)
	quit.IsQuit = true
	file := fyne.NewMenu("File",
		item("New Dataset…", widgets.Ctrl(fyne.KeyN, false), a.newDataset),
		item("Open…", widgets.Ctrl(fyne.KeyO, false), a.open),
		m.recent,
		item("Open Demo Dataset", nil, a.openDemo),
		item("Import Images…", widgets.Ctrl(fyne.KeyI, false), in(a.importImages)),
		item("Import Sheets…", widgets.Ctrl(fyne.KeyI, true), in(a.importSheets)),
		item("Append Dataset…", nil, in(a.appendDataset)),
		item("Export…", widgets.Ctrl(fyne.KeyE, true), a.export),
		item("Export Change Log…", nil, a.exportChangeLog),
		item("Export Health Report…", nil, a.exportReport),
		fyne.NewMenuItemSeparator(),
		item("Save", widgets.Ctrl(fyne.KeyS, false), in(a.save)),
		item("Save As…", widgets.Ctrl(fyne.KeyS, true), in(a.saveAs)),
		item("Save Shown As…", nil, in(a.saveShown)),
		m.cancelSave,
		m.changeLog,
		fyne.NewMenuItemSeparator(),
		item("Compare Annotations…", nil, a.compareAnnotations),
		item("Export Errata…", nil, a.exportErrata),
		item("Apply Errata…", nil, in(a.applyErrata)),
		fyne.NewMenuItemSeparator(),
		quit,
	)
	edit := fyne.NewMenu("Edit",
		m.undo, m.redo,
		fyne.NewMenuItemSeparator(),
		item("Select All", &fyne.ShortcutSelectAll{}, func() { a.selectAll(in(a.selectSamples)) }),
		item("Relabel Selection…", widgets.Ctrl(fyne.KeyL, false), in(func() { a.pickClass("") })),
		item("Delete / Restore Selection  (Delete)", nil, in(a.toggleDelete)),
		fyne.NewMenuItemSeparator(),
		item("Draw New Digits…", widgets.Ctrl(fyne.KeyD, false), a.draw),
		item("Class Names…", nil, in(a.classNames)),
		fyne.NewMenuItemSeparator(),
		item("Go to Sample…", widgets.Ctrl(fyne.KeyG, false), a.gotoSample),
	)
	view := fyne.NewMenu("View",
		item("Zoom In", widgets.Ctrl(fyne.KeyEqual, false), zoomIn),
		item("Zoom Out", widgets.Ctrl(fyne.KeyMinus, false), func() { a.zoomBy(-1) }),
	)
	// A menu is as wide as its widest item, and Fyne opens it under its title without moving it
	// left to fit the window: an item's label is kept short, so that every menu fits the
	// narrowest window (TestMenusFitTheWindow), its shortcuts not cut at the window's edge.
	tools := fyne.NewMenu("Tools",
		item("Find Suspects (Likely Label Errors)", widgets.Ctrl(fyne.KeyK, false), in(a.findSuspects)),
		item("Suggest Labels for Unlabelled Samples", widgets.Ctrl(fyne.KeyU, true), a.suggestLabels),
		item("Accept Suggestions to the Cursor or Selection", widgets.Ctrl(fyne.KeyA, true), in(a.acceptSuggestions)),
		item("Accept Suggestions…", widgets.Ctrl(fyne.KeyT, true), in(a.acceptDialog)),
		item("Check Dataset…", widgets.Ctrl(fyne.KeyK, true), a.checkDataset),
		item("Confusion Matrix", widgets.Ctrl(fyne.KeyM, true), func() { a.choose(a.confusion) }),
		item("Map of the Dataset", widgets.Ctrl(fyne.KeyM, false), func() { a.choose(a.mapOf) }),
		item("Split Dataset…", nil, in(a.splitDataset)),
		item("Scan Again (Not the Kept Scan)", nil, in(a.scanAgain)),
		item("Stop Training the CNN", nil, a.stopTraining),
		item("More Like This (the Cursor's Sample)", widgets.Ctrl(fyne.KeyF, false), in(a.moreLike)),
	)
	help := fyne.NewMenu("Help", item("Keyboard  (F1, ?)", nil, func() { m.showKeys(d) }), item("About IDX Labeler", nil, func() { showAbout(d) }))
	m.menu = fyne.NewMainMenu(file, edit, view, tools, help)
	win.SetMainMenu(m.menu)
	c := win.Canvas()
	c.AddShortcut(widgets.Ctrl(fyne.KeyZ, true), func(fyne.Shortcut) { m.redo.Action() })
	c.AddShortcut(widgets.Ctrl(fyne.KeyEqual, true), func(fyne.Shortcut) { zoomIn() })
	c.AddShortcut(widgets.Ctrl(fyne.KeyPlus, false), func(fyne.Shortcut) { zoomIn() })
	return m
}

// show shows what Undo and Redo would do ("" for nothing: the item is disabled).
func (m *menuBar) show(undo, redo string) {
	if undo == m.undoName && redo == m.redoName {
		return // nothing changed: the menu is not rebuilt for a key
	}
	m.undoName, m.redoName = undo, redo
	m.undo.Label, m.undo.Disabled = "Undo "+undo, undo == ""
	m.redo.Label, m.redo.Disabled = "Redo "+redo, redo == ""
	if undo == "" {
		m.undo.Label = "Undo"
	}
	if redo == "" {
		m.redo.Label = "Redo"
	}
	m.menu.Refresh()
}

// setSaving enables File → Cancel Save while a save runs.
func (m *menuBar) setSaving(on bool) {
	m.cancelSave.Disabled = !on
	m.menu.Refresh()
}

// setChangeLog checks File → Write Change Log on Save when on.
func (m *menuBar) setChangeLog(on bool) {
	m.changeLog.Checked = on
	m.menu.Refresh()
}

// setRecent makes items File → Open Recent's submenu ("(none yet)" when there are none).
func (m *menuBar) setRecent(items []*fyne.MenuItem) {
	if len(items) == 0 {
		none := fyne.NewMenuItem("(none yet)", nil)
		none.Disabled = true
		items = append(items, none)
	}
	m.recent.ChildMenu.Items = items
	m.menu.Refresh()
}
