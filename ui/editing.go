package ui

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
)

// singleDigitClasses reports whether every class is 0–9, so one keystroke names a class.
func (w *mainWindow) singleDigitClasses() bool {
	for _, c := range w.ds.Classes() {
		if c < 0 || c > 9 {
			return false
		}
	}
	return true
}

// typedRune relabels with a digit (the review flow: one keystroke per sample), or opens the
// class picker for datasets whose classes need more than one keystroke.
func (w *mainWindow) typedRune(r rune) {
	if w.ds == nil || w.busy.Load() {
		return
	}
	switch {
	case r >= '0' && r <= '9' && w.singleDigitClasses() && w.reviewing():
		w.decide(int(r - '0'))
	case r >= '0' && r <= '9' && w.singleDigitClasses():
		w.relabel(int(r - '0'))
	case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		w.pickClass(string(r))
	}
}

// typedKey handles the keys the grid passes on: Delete/Backspace (delete or restore), Escape
// (clear the selection).
func (w *mainWindow) typedKey(k *fyne.KeyEvent) bool {
	switch k.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		w.toggleDelete()
	case fyne.KeyEscape:
		w.v.clearSelection()
		w.grid.changed()
	default:
		return false
	}
	return true
}

// relabel gives every selected sample (the cursor's when none is) the label, as one undoable
// step, then moves the cursor to the next sample after them.
func (w *mainWindow) relabel(label int) {
	sel := w.v.selection()
	if len(sel) == 0 || w.refuseWhileBusy() {
		return
	}
	err := w.ds.Relabel(sel, label)
	w.edited()
	if err != nil {
		w.showError(err)
		return
	}
	last := w.v.cursor
	for _, i := range sel {
		last = max(last, w.v.pos[i])
	}
	if last+1 < w.v.Len() {
		w.grid.moveCursor(last + 1)
	} else {
		w.v.clearSelection()
		w.grid.changed()
	}
	w.noteLargeEdit(len(sel), "Relabelled")
}

// largeEdit is how many samples one edit must touch before the status bar says so.
const largeEdit = 100

// noteLargeEdit says on the status bar, until the next move, that an edit touched n samples and
// how to take it back, when n is above largeEdit.
func (w *mainWindow) noteLargeEdit(n int, verb string) {
	if n > largeEdit {
		w.status.SetText(count(verb+" %d samples — Ctrl+Z to undo", n))
	}
}

// toggleDelete deletes the selected samples, or restores them when all are deleted already.
func (w *mainWindow) toggleDelete() {
	sel := w.v.selection()
	if len(sel) == 0 || w.refuseWhileBusy() {
		return
	}
	allDeleted := !slices.ContainsFunc(sel, func(i int) bool { return !w.ds.State(i).Deleted })
	var err error
	if allDeleted {
		err = w.ds.Restore(sel)
	} else {
		err = w.ds.Delete(sel)
	}
	w.edited()
	if err != nil {
		w.showError(err)
		return
	}
	if allDeleted {
		w.noteLargeEdit(len(sel), "Restored")
	} else {
		w.noteLargeEdit(len(sel), "Deleted")
	}
}

// undo and redo step through the edit history.
func (w *mainWindow) undo() { w.step(true) }

func (w *mainWindow) redo() { w.step(false) }

func (w *mainWindow) step(undo bool) {
	if w.refuseWhileBusy() {
		return
	}
	// The step's Change (delivered synchronously to subscribers inside Undo/Redo) says which
	// samples it touched: the cursor goes to the first of them that is shown.
	// (An undone append removes its samples: nothing to show.)
	var touched []int
	unsub := w.ds.Subscribe(func(ch store.Change) {
		if ch.Kind == store.Relabelled || ch.Kind == store.DeletedChanged {
			touched = ch.Indices
		}
	})
	var err error
	if undo {
		_, _, err = w.ds.Undo()
	} else {
		_, _, err = w.ds.Redo()
	}
	unsub()
	w.edited()
	if err != nil {
		w.showError(err)
		return
	}
	w.cursorTo(touched)
}

// cursorTo puts the cursor on the first of samples (in view order) that the view shows, so an
// undone or redone edit is in sight; it does nothing when none is shown.
func (w *mainWindow) cursorTo(samples []int) {
	best := -1
	for _, i := range samples {
		if i >= 0 && i < len(w.v.pos) && w.v.pos[i] >= 0 && (best < 0 || w.v.pos[i] < best) {
			best = w.v.pos[i]
		}
	}
	if best >= 0 {
		w.grid.moveCursor(best)
	}
}

// selectAll selects every sample the grid shows.
func (w *mainWindow) selectAll() {
	if w.ds == nil {
		return
	}
	if f, ok := w.win.Canvas().Focused().(fyne.Shortcutable); ok { // a text field: its text
		f.TypedShortcut(&fyne.ShortcutSelectAll{})
		return
	}
	w.v.selectAll()
	w.grid.changed()
}

// classMatches returns the classes whose number or name starts with prefix (case-insensitive).
func (w *mainWindow) classMatches(prefix string) []int {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	var out []int
	for _, c := range w.ds.Classes() {
		num, name := strconv.Itoa(c), strings.ToLower(w.ds.ClassName(c))
		if prefix == "" || strings.HasPrefix(num, prefix) || name != "" && strings.HasPrefix(name, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// pickClass opens the class picker: type a class's number or name (type-ahead narrows the
// list), Enter applies the first match to the selection; a number not in the list is a new
// class.
func (w *mainWindow) pickClass(initial string) {
	if w.ds == nil || len(w.v.selection()) == 0 {
		return
	}
	var d *dialog.CustomDialog
	entry := newPromptEntry(func() { d.Hide() }) // Escape cancels
	entry.SetPlaceHolder("class number or name")
	var matches []int
	list := widget.NewList(func() int { return len(matches) }, func() fyne.CanvasObject {
		l := widget.NewLabel("000 (XXXXXXXX)")
		l.Truncation = fyne.TextTruncateEllipsis // a class-name file's names can be any length
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(w.className(matches[id])) })
	update := func(text string) {
		matches = w.classMatches(text)
		list.Refresh()
	}
	apply := func(c int) {
		d.Hide()
		if w.reviewing() {
			w.decide(c)
		} else {
			w.relabel(c)
		}
		w.win.Canvas().Focus(w.grid)
	}
	list.OnSelected = func(id widget.ListItemID) { apply(matches[id]) }
	entry.OnChanged = update
	entry.OnSubmitted = func(text string) {
		if len(matches) > 0 {
			apply(matches[0])
		} else if n, err := strconv.Atoi(strings.TrimSpace(text)); err == nil {
			apply(n)
		}
	}
	content := newFixedBorder(entry, list, fyne.NewSize(300, 320))
	d = dialog.NewCustom("Relabel "+samplesText(len(w.v.selection()))+" as…", "Cancel", content, w.win)
	update(initial)
	entry.SetText(initial)
	entry.CursorColumn = len([]rune(initial)) // what is typed next follows the first digit
	entry.Refresh()
	w.prompts.show(w.win.Canvas(), "pick class", d, d.Hide, func() { entry.OnSubmitted(entry.Text) }, w.focusGrid)
	w.win.Canvas().Focus(entry)
}

// showContextMenu offers the edits for the selection at a secondary tap.
func (w *mainWindow) showContextMenu(at fyne.Position) {
	n := len(w.v.selection())
	items := []*fyne.MenuItem{
		fyne.NewMenuItem("Relabel "+samplesText(n)+"…", func() { w.pickClass("") }),
		fyne.NewMenuItem("Delete / Restore", w.toggleDelete),
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), w.win.Canvas(), at)
}
