package ui

import (
	"slices"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/mode"
)

// The edits: what a key, a menu item or a dialog asks of the dataset. Each runs on the UI
// thread, changes the store, and applies the store's change to the view model at once (drain)
// before it moves the cursor. A digit key goes widgets.TileGrid.TypedRune → gridReports.TypedRune
// → typeClass (gridinput.go) → the mode's Label (browsing's: modeHost.Relabel → relabel in
// mode.go; a review's: review.Decide → modeHost.Edit) → controller.edit → the store, which
// journals it and notifies → drain → apply → refresh, and the views show the new state.

// pickClass opens the class picker holding initial (a character typed, or "": Edit → Relabel
// Selection…); the class chosen goes to the mode (a relabel, or a review's decision).
func (c *controller) pickClass(initial string) {
	what := "Relabel Selection"
	if initial != "" {
		what = initial + " typed"
	}
	if c.cannotEdit() || c.nothingShown(what) {
		return
	}
	n := c.v.SelectionSize()
	c.d.PickClass("Relabel "+numfmt.Plural(n, "sample")+" as…", initial, c.classes, func(l int) {
		c.in.input(func() { c.mode.Label(modeHost{c}, l) })
		c.out.focus()
	})
}

// nothingShown says on the status bar, when the grid shows no sample (so neither a cursor nor a
// selection), that what (a key typed, a command) changed nothing, and why: the mode's reason
// (mode.Empty: the health check's kind not found yet, or found empty), else the class the grid
// is filtered to. It reports whether it said so. O(1) but for the mode's reason.
func (c *controller) nothingShown(what string) bool {
	if c.v.SelectionSize() > 0 {
		return false
	}
	c.say(mode.NothingShown(what, c.nothingShownWhy()))
	return true
}

// nothingShownWhy is why the grid shows no sample, as the status bar and the legend say it: the
// mode's reason (mode.Empty: the health check's kind not found yet, or found empty), else the
// class the grid is filtered to; "" when neither says. O(1) but for the mode's reason.
func (s *state) nothingShownWhy() string {
	why := mode.Empty(s.mode, s.modeState())
	if f := s.v.filter.Class; why == "" && f != nil {
		why = "no sample of class " + s.classes.Long(*f) + " is shown"
	}
	return why
}

// next moves the cursor to the next sample shown, if any.
func (c *controller) next() {
	if c.v.cursor+1 < c.v.Len() {
		c.moveCursor(c.v.cursor+1, false)
	}
}

// largeEdit is how many samples one edit must touch before the status bar says so.
const largeEdit = 100

// largeEditNote is what the status bar says, until the next move, of an edit that touched n
// samples: how to take it back, when n is above largeEdit; "" otherwise.
func largeEditNote(n int, verb string) string {
	if n <= largeEdit {
		return ""
	}
	return numfmt.Sprintf(verb+" %d samples — Ctrl+Z to undo", n)
}

// toggleDelete deletes the selected samples, or restores them when all are deleted already.
func (c *controller) toggleDelete() {
	if c.cannotEdit() || c.nothingShown("Delete") {
		return
	}
	sel := c.v.Selection()
	allDeleted := !slices.ContainsFunc(sel, func(i int) bool { return !c.ds.State(i).Deleted })
	err := c.edit(func() error {
		if allDeleted {
			return c.ds.Restore(sel)
		}
		return c.ds.Delete(sel)
	})
	if err != nil {
		c.refuse(err)
		return
	}
	verb := "Deleted"
	if allDeleted {
		verb = "Restored"
	}
	if note := largeEditNote(len(sel), verb); note != "" {
		c.say(note)
	}
}

// add appends samples as one undoable step (how says where they came from: drawn, imported)
// and shows the last of them; it returns the index of the first.
func (c *controller) add(how store.How, samples []store.Sample) (int, error) {
	var i int
	err := c.edit(func() (err error) {
		i, err = c.ds.AppendAs(how, samples)
		return err
	})
	return i, err
}

// undo and redo step through the edit history.
func (c *controller) undo() { c.step(true) }

func (c *controller) redo() { c.step(false) }

func (c *controller) step(undo bool) {
	if c.cannotEdit() {
		return
	}
	// The step's Change (delivered synchronously to subscribers inside Undo/Redo) says which
	// samples it touched: the cursor goes to the first of them that is shown.
	// (An undone append removes its samples: nothing to show.)
	var touched []int
	unsub := c.ds.Subscribe(func(ch store.Change) {
		if ch.Kind == store.Relabelled || ch.Kind == store.DeletedChanged {
			touched = ch.Indices
		}
	})
	err := c.edit(func() (err error) {
		if undo {
			_, _, err = c.ds.Undo()
		} else {
			_, _, err = c.ds.Redo()
		}
		return err
	})
	unsub()
	if err != nil {
		c.refuse(err)
		return
	}
	c.cursorTo(touched)
}

// cursorTo puts the cursor on the first of samples (in view order) that the view shows, so an
// undone or redone edit is in sight; it does nothing when none is shown.
func (c *controller) cursorTo(samples []int) {
	best := -1
	for _, i := range samples {
		if c.v.Shows(i) && (best < 0 || c.v.pos[i] < best) {
			best = c.v.pos[i]
		}
	}
	if best >= 0 {
		c.moveCursor(best, false)
	}
}

// selectAll selects every sample the grid shows.
func (c *controller) selectAll() {
	c.v.selectAll()
	c.out.grid.Refresh()
	c.renderCursor()
}

// clearSelection clears the selection (the cursor stays).
func (c *controller) clearSelection() {
	c.v.clearSelection()
	c.out.grid.Refresh()
	c.renderCursor()
}
