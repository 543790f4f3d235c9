package ui

import (
	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/ui/mode"
)

// gridReports is where the grid reports what the person asked for (widgets.GridInput), and what
// a key or a click on the grid means: a digit labels (through the mode), Delete deletes, a click
// selects. Each is an input of the person's (held.go: it waits, in order, while a job holds
// edits) that the controller applies to the store and the view model, handing the grid the
// result.
type gridReports struct{ c *controller }

// MoveCursor moves the view model's cursor to position to.
func (g gridReports) MoveCursor(to int, extend bool) { g.c.moveCursor(to, extend) }

// KeyHandled prints when the grid handled a key, in a timing build (timing.go).
func (g gridReports) KeyHandled(name fyne.KeyName) { reportKey(name) }

// TypedRune relabels with a digit (the review flow: one keystroke per sample), or opens the
// class picker for datasets whose classes need more than one keystroke, and for a letter or a
// minus sign (which it keeps: "-8" is no 8); ? opens the keyboard reference.
func (g gridReports) TypedRune(r rune) {
	c := g.c
	switch {
	case r == '?':
		c.out.menu.showKeys(c.d)
	case r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-':
		c.in.input(func() { g.typeClass(r) }) // a minus begins a negative class number
	}
}

// typeClass is a digit or letter typed on the grid, now (or again, after waiting for a save).
func (g gridReports) typeClass(r rune) {
	c := g.c
	if c.cannotEdit() || c.nothingShown(string(r)+" typed") {
		return
	}
	if r >= '0' && r <= '9' && c.classes.Digits {
		c.mode.Label(modeHost{c}, int(r-'0'))
		return
	}
	c.pickClass(string(r))
}

// TypedKey takes the keys the mode takes (a review's Enter, →), Delete and Backspace (delete or
// restore), Escape (clear the selection) and F1 (the keyboard reference); it reports whether it
// took k. While inputs wait for a job (held.go) it takes every key, the grid's navigation too,
// and queues it, with Shift as it was (shift).
func (g gridReports) TypedKey(k *fyne.KeyEvent, shift bool) bool {
	c := g.c
	if k.Name == fyne.KeyF1 {
		c.out.menu.showKeys(c.d)
		return true
	}
	h := heldInput{run: func() { c.out.grid.Key(k, shift) }}
	if c.in.mustWait() {
		if gridKeys[k.Name] {
			c.in.hold(h)
		}
		return true
	}
	took := false
	queued := c.in.asked(&h, func() { took = g.takeKey(k) }) // an edit it asked for waits: the key is queued
	return took || queued
}

// gridKeys are the keys the grid and the modes act on; a character's key (a digit's, whose
// character comes to TypedRune as well) is none of them.
var gridKeys = map[fyne.KeyName]bool{
	fyne.KeyDelete: true, fyne.KeyBackspace: true, fyne.KeyEscape: true, fyne.KeyReturn: true,
	fyne.KeyEnter: true, fyne.KeySpace: true, fyne.KeyLeft: true, fyne.KeyRight: true,
	fyne.KeyUp: true, fyne.KeyDown: true, fyne.KeyHome: true, fyne.KeyEnd: true,
	fyne.KeyPageUp: true, fyne.KeyPageDown: true,
}

// takeKey is TypedKey made now.
func (g gridReports) takeKey(k *fyne.KeyEvent) bool {
	c := g.c
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

// Click is a tap on position p: select it alone, a Shift range, or toggle it with Ctrl. While
// inputs wait for a job (held.go) it waits too, for the sample it was on.
func (g gridReports) Click(p int, shift, ctrl bool) {
	c := g.c
	if c.in.mustWait() && p >= 0 && p < c.v.Len() {
		i := c.v.At(p)
		c.in.hold(heldInput{run: func() {
			if c.v.Shows(i) {
				g.Click(c.v.pos[i], shift, ctrl)
			}
		}, samples: []*int{&i}, click: true})
		return
	}
	c.v.click(p, shift, ctrl)
	c.out.grid.Refresh()
	c.renderCursor()
}

// ContextMenu is a secondary tap on position p: it selects p's tile unless it is selected
// already, and offers the edits for the selection.
func (g gridReports) ContextMenu(p int, at fyne.Position) {
	c := g.c
	if c.in.mustWait() {
		c.say("Inputs wait for the job running: the menu comes when it is done")
		return
	}
	if !c.v.IsSelected(c.v.At(p)) {
		g.Click(p, false, false)
	}
	n := c.v.SelectionSize()
	c.d.PopUpMenu(at,
		fyne.NewMenuItem("Relabel "+numfmt.Plural(n, "sample")+"…", func() { c.in.input(func() { c.pickClass("") }) }),
		fyne.NewMenuItem("Delete / Restore", func() { c.in.input(c.toggleDelete) }))
}
