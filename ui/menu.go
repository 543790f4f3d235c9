package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// menuItems are the menu items whose labels or state change with the dataset.
type menuItems struct {
	undo, redo, save *fyne.MenuItem
	cancelSave       *fyne.MenuItem // File → Cancel Save, enabled while a save runs
	changeLog        *fyne.MenuItem // Write Change Log on Save (checked: on)
}

// shortcut is Ctrl (Cmd on macOS) with key, plus Shift when shift is true.
func shortcut(key fyne.KeyName, shift bool) fyne.Shortcut {
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}

// item makes a menu item with a shortcut (nil: none).
func item(label string, sc fyne.Shortcut, action func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, action)
	it.Shortcut = sc
	return it
}

// buildMenu sets the main menu. Its shortcuts work everywhere in the window (Fyne triggers main
// menu shortcuts itself); Ctrl+Shift+Z and the zoom keys' alternatives, which a menu item cannot
// carry as a second shortcut, are added to the canvas.
func (w *mainWindow) buildMenu() {
	w.items.undo = item("Undo", &fyne.ShortcutUndo{}, w.undo)
	w.items.redo = item("Redo", &fyne.ShortcutRedo{}, w.redo)
	w.items.save = item("Save", shortcut(fyne.KeyS, false), w.save)
	w.items.changeLog = w.changeLogItem()
	w.items.cancelSave = item("Cancel Save", nil, func() {
		if w.stopSave != nil {
			w.stopSave()
		}
	})
	w.items.cancelSave.Disabled = true
	w.recent = fyne.NewMenuItem("Open Recent", nil)
	w.recent.ChildMenu = fyne.NewMenu("")
	w.updateRecentMenu()
	// Our own Quit (Fyne's would close the window without asking about unsaved edits).
	quit := item("Quit", shortcut(fyne.KeyQ, false), w.quit)
	quit.IsQuit = true
	file := fyne.NewMenu("File",
		item("New Dataset…", shortcut(fyne.KeyN, false), w.newDataset),
		item("Open…", shortcut(fyne.KeyO, false), w.openDialog),
		w.recent,
		item("Open Demo Dataset", nil, w.openDemo),
		item("Import Images…", shortcut(fyne.KeyI, false), w.importDialog),
		item("Export…", shortcut(fyne.KeyE, true), w.exportDialog),
		item("Export Change Log…", nil, w.exportChangeLogDialog),
		fyne.NewMenuItemSeparator(),
		w.items.save,
		item("Save As…", shortcut(fyne.KeyS, true), w.saveAs),
		w.items.cancelSave,
		w.items.changeLog,
		fyne.NewMenuItemSeparator(),
		quit,
	)
	edit := fyne.NewMenu("Edit",
		w.items.undo, w.items.redo,
		fyne.NewMenuItemSeparator(),
		item("Select All", &fyne.ShortcutSelectAll{}, w.selectAll),
		item("Relabel Selection…", shortcut(fyne.KeyL, false), func() { w.pickClass("") }),
		item("Delete / Restore Selection  (Delete)", nil, w.toggleDelete),
		fyne.NewMenuItemSeparator(),
		item("Draw New Digits…", shortcut(fyne.KeyD, false), w.showDrawWindow),
		fyne.NewMenuItemSeparator(),
		item("Go to Sample…", shortcut(fyne.KeyG, false), func() { w.win.Canvas().Focus(w.side.gotoBox) }),
	)
	view := fyne.NewMenu("View",
		item("Zoom In", shortcut(fyne.KeyEqual, false), func() { w.grid.setZoom(w.grid.zoom + 1) }),
		item("Zoom Out", shortcut(fyne.KeyMinus, false), func() { w.grid.setZoom(w.grid.zoom - 1) }),
	)
	tools := fyne.NewMenu("Tools",
		item("Find Suspects (Likely Label Errors)", shortcut(fyne.KeyK, false), w.findSuspects),
		item("Suggest Labels for Unlabelled Samples", nil, w.suggestLabels),
		item("Stop Training the CNN", nil, w.stopTraining),
	)
	help := fyne.NewMenu("Help", item("Keyboard", nil, w.showKeys))
	w.menu = fyne.NewMainMenu(file, edit, view, tools, help)
	w.win.SetMainMenu(w.menu)
	c := w.win.Canvas()
	c.AddShortcut(shortcut(fyne.KeyZ, true), func(fyne.Shortcut) { w.redo() })
	c.AddShortcut(shortcut(fyne.KeyEqual, true), func(fyne.Shortcut) { w.grid.setZoom(w.grid.zoom + 1) })
	c.AddShortcut(shortcut(fyne.KeyPlus, false), func(fyne.Shortcut) { w.grid.setZoom(w.grid.zoom + 1) })
}

// cancelSave makes stop what File → Cancel Save calls, enabling the item (nil: no save runs).
func (w *mainWindow) cancelSave(stop context.CancelFunc) {
	w.stopSave = stop
	w.items.cancelSave.Disabled = stop == nil
	w.menu.Refresh()
}

// updateMenu shows what Undo and Redo would do.
func (w *mainWindow) updateMenu() {
	undo, redo := w.ds.UndoName(), w.ds.RedoName()
	w.items.undo.Label, w.items.undo.Disabled = "Undo "+undo, undo == ""
	w.items.redo.Label, w.items.redo.Disabled = "Redo "+redo, redo == ""
	if undo == "" {
		w.items.undo.Label = "Undo"
	}
	if redo == "" {
		w.items.redo.Label = "Redo"
	}
	w.menu.Refresh()
}
