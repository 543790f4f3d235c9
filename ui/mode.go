package ui

import (
	"idxlabel/ui/mode"
)

// The window's modes. The contract is package mode: a mode is a mode.Mode, what only some modes
// have an optional interface there, and a mode acts through mode.Controller (modeHost, host.go),
// never through the window. The controller holds the mode shown (state.mode) and every mode the
// Show list offers, in its order (state.modes: newWindow's table of modes, window.go); a new mode
// is a new package that implements mode.Mode and one line in that table. Browsing is mode.Browse,
// and relabel its edit.

// browsing is the mode that shows the samples the filter selects, in sample order.
var browsing mode.Mode = mode.Browse{}

// relabel gives every selected sample (the cursor's when none is) the label, as one undoable
// step, then moves the cursor to the next sample after them.
func (c *controller) relabel(label int) {
	sel := c.v.Selection()
	if len(sel) == 0 || c.cannotEdit() {
		return
	}
	err := c.edit(func() error { return c.ds.Relabel(sel, label) })
	if err != nil {
		c.refuse(err)
		return
	}
	last := c.v.cursor
	for _, i := range sel {
		last = max(last, c.v.pos[i])
	}
	if last+1 < c.v.Len() {
		c.moveCursor(last+1, false)
	} else {
		c.clearSelection()
	}
	if note := largeEditNote(len(sel), "Relabelled"); note != "" {
		c.say(note)
	}
}
