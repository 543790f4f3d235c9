package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// Key routing. Unless a text field or an open dialog has them, the editing keys (digits,
// Delete, Escape, the arrows) act on the grid: keys typed while nothing is focused go to the
// grid (and focus it); the side panel's Show list, class list and tile-size slider, and the
// buttons, check boxes and choices of the views beside the grid (the health check, the confusion
// matrix, the annotators' chart, the map), keep only the keys they use themselves and pass the
// rest to canvasKey and canvasRune as if nothing had the focus (widgets.PassingSelect,
// PassingList, PassingSlider, PassingButton, PassingCheck), which focus the grid; a click in the side panel gives the focus back to the grid
// (sidePanel.onDone). Keys typed behind an open dialog are not passed to the grid: only Escape
// and Enter, which answer the top prompt (see dialogs.key); behind a job's progress (an import)
// Escape cancels the job and every other key goes to the grid, where an edit waits for the job
// (dialogs.passing), even with the progress's Cancel button focused by Tab: that button keeps
// only Space and Enter, which press it, and hands the rest to canvasKey and canvasRune
// (widgets.PassingButton).

// keyRouter routes the keys of the window's canvas that no widget has taken.
type keyRouter struct {
	canvas fyne.Canvas
	grid   *widgets.TileGrid
	d      *dialogs.Dialogs
}

// focusGrid gives the grid the keyboard focus (unless it has it).
func (k *keyRouter) focusGrid() {
	if k.canvas.Focused() != k.grid {
		k.canvas.Focus(k.grid)
	}
}

// canvasRune takes the characters typed while nothing has the focus: to the grid, unless a
// dialog is open.
func (k *keyRouter) canvasRune(r rune) {
	switch {
	case k.d.Passing():
		k.grid.TypedRune(r) // under a job's progress: the grid keeps what waits for the job
	case k.d.Covered():
	default:
		k.passRune(r)
	}
}

// canvasKey takes the keys typed while nothing has the focus: Escape and Enter answer an open
// prompt; with no dialog open they go to the grid.
func (k *keyRouter) canvasKey(e *fyne.KeyEvent) {
	switch {
	case k.d.Passing() && e.Name != fyne.KeyEscape:
		k.grid.TypedKey(e) // under a job's progress: the grid keeps what waits for the job
	case k.d.Covered():
		k.d.Key(e)
	default:
		k.passKey(e)
	}
}

// passKey hands a key typed while nothing has the focus, or passed on by a focused control, to
// the grid, focusing it. A modifier
// key pressed alone (Shift, Control, Alt, Super) does nothing and leaves the focus where it is:
// it starts Shift+Tab or a shortcut, and handed on it took the focus to the grid before the
// Tab, so Shift+Tab from a focused control went back to the grid instead of the control before.
// (The grid reads Shift from the driver with the key it modifies.)
func (k *keyRouter) passKey(e *fyne.KeyEvent) {
	switch e.Name {
	case desktop.KeyShiftLeft, desktop.KeyShiftRight, desktop.KeyControlLeft, desktop.KeyControlRight,
		desktop.KeyAltLeft, desktop.KeyAltRight, desktop.KeySuperLeft, desktop.KeySuperRight:
		return
	}
	k.focusGrid()
	k.grid.TypedKey(e)
}

// passRune hands a character typed while nothing has the focus, or passed on by a focused
// control, to the grid, focusing it.
func (k *keyRouter) passRune(r rune) {
	k.focusGrid()
	k.grid.TypedRune(r)
}

// selectAll is Edit → Select All (Ctrl+A): the text of a focused text field, or every sample
// the grid shows.
func (k *keyRouter) selectAll(samples func()) {
	if f, ok := k.canvas.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(&fyne.ShortcutSelectAll{})
		return
	}
	samples()
}
