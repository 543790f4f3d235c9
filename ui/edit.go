package ui

import (
	"slices"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/mode"
)

// The edits: what a key, a menu item or a dialog asks of the dataset. Each runs on the UI
// thread, changes the store, and applies the store's change to the view model at once (drain)
// before it moves the cursor: a digit key goes widgets.TileGrid.TypedRune → gridReports → typedRune → the mode's label
// (relabel in mode.go, or decide in review.go) → the store, which journals it and notifies →
// drain → apply → refresh, and the views show the new state.

// typedRune relabels with a digit (the review flow: one keystroke per sample), or opens the
// class picker for datasets whose classes need more than one keystroke, and for a letter or a
// minus sign (which it keeps: "-8" is no 8); ? opens the keyboard reference.
func (c *controller) typedRune(r rune) {
	switch {
	case r == '?':
		c.out.menu.showKeys(c.d)
	case r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-':
		c.input(func() { c.typeClass(r) }) // a minus begins a negative class number
	}
}

// typeClass is a digit or letter typed on the grid, now (or again, after waiting for a save).
func (c *controller) typeClass(r rune) {
	if c.cannotEdit() {
		return
	}
	if r >= '0' && r <= '9' && c.classes.Digits {
		c.mode.Label(modeHost{c}, int(r-'0'))
		return
	}
	c.pickClass(string(r))
}

// typedKey takes the keys the mode takes (a review's Enter, →), Delete and Backspace (delete or
// restore), Escape (clear the selection) and F1 (the keyboard reference); it reports whether it
// took k. While inputs wait for a job (held.go) it takes every key, the grid's navigation too,
// and queues it, with Shift as it was (shift).
func (c *controller) typedKey(k *fyne.KeyEvent, shift bool) bool {
	if k.Name == fyne.KeyF1 {
		c.out.menu.showKeys(c.d)
		return true
	}
	h := heldInput{run: func() { c.out.grid.Key(k, shift) }}
	if c.mustWait() {
		if gridKeys[k.Name] {
			c.hold(h)
		}
		return true
	}
	prev := c.asking
	c.asking = &h
	took := c.takeKey(k)
	queued := c.asking == nil // an edit it asked for waits: the key is queued
	c.asking = prev
	return took || queued
}

// gridKeys are the keys the grid and the modes act on; a character's key (a digit's, whose
// character comes to typedRune as well) is none of them.
var gridKeys = map[fyne.KeyName]bool{
	fyne.KeyDelete: true, fyne.KeyBackspace: true, fyne.KeyEscape: true, fyne.KeyReturn: true,
	fyne.KeyEnter: true, fyne.KeySpace: true, fyne.KeyLeft: true, fyne.KeyRight: true,
	fyne.KeyUp: true, fyne.KeyDown: true, fyne.KeyHome: true, fyne.KeyEnd: true,
	fyne.KeyPageUp: true, fyne.KeyPageDown: true,
}

// takeKey is typedKey made now.
func (c *controller) takeKey(k *fyne.KeyEvent) bool {
	if mode.TakeKey(c.mode, modeHost{c}, k) {
		return true
	}
	switch k.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		c.toggleDelete()
	case fyne.KeyEscape:
		c.clearSelection()
	default:
		return false
	}
	return true
}

// pickClass opens the class picker holding initial; the class chosen goes to the mode (a
// relabel, or a review's decision).
func (c *controller) pickClass(initial string) {
	n := c.v.SelectionSize()
	if n == 0 || c.cannotEdit() {
		return
	}
	c.d.PickClass("Relabel "+numfmt.Plural(n, "sample")+" as…", initial, c.classes, func(l int) {
		c.input(func() { c.mode.Label(modeHost{c}, l) })
		c.out.focus()
	})
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
	sel := c.v.Selection()
	if len(sel) == 0 || c.cannotEdit() {
		return
	}
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
