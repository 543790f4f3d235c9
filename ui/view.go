package ui

import (
	"slices"

	"idxlabel/store"
)

// view is the view model: what the grid shows. An ordered list of sample indices (the samples
// the filter and the mode select, in sample order or the mode's order), the selection, the
// cursor and the anchor of a Shift range, and how many of the shown samples the mode counts as
// done (a review's decided samples). Positions are places in order; indices are sample numbers
// in the dataset. Only the controller changes it; the grid draws it.
type view struct {
	filter   store.Filter
	order    []int  // sample index at each position
	pos      []int  // position of each sample index, -1 when not shown; len = dataset length
	selected []bool // by sample index
	nsel     int
	marked   []int  // the samples set in selected since it was last cleared (some may be unset again)
	cursor   int    // position, -1 when none
	anchor   int    // position a Shift range starts from
	gen      uint64 // the dataset generation (store.Dataset.Gen) the positions reflect
	// done marks, by sample index, the shown samples the mode counts as done; ndone counts them.
	// Both are kept as edits happen, so the status bar's "reviewed 37 / 299" costs nothing per key.
	done  []bool
	ndone int
}

// newView shows order (sample indices) out of n samples, nothing selected.
func newView(order []int, n int) *view {
	v := &view{order: order, cursor: -1, anchor: -1}
	v.reindex(n)
	return v
}

// reindex rebuilds pos and resizes selected for a dataset of n samples, keeping the selection
// of samples that still exist.
func (v *view) reindex(n int) {
	v.pos = slices.Grow(v.pos[:0], n)[:n]
	for i := range v.pos {
		v.pos[i] = -1
	}
	for p, i := range v.order {
		if i < n {
			v.pos[i] = p
		}
	}
	if len(v.selected) > n {
		v.selected = v.selected[:n]
	} else {
		v.selected = append(v.selected, make([]bool, n-len(v.selected))...)
	}
	v.nsel, v.marked = 0, v.marked[:0]
	for i, s := range v.selected {
		if s {
			v.nsel++
			v.marked = append(v.marked, i)
		}
	}
	if v.cursor >= len(v.order) {
		v.cursor = len(v.order) - 1
	}
	if v.anchor >= len(v.order) {
		v.anchor = v.cursor
	}
}

// grow makes room for samples appended up to n (more than before): not selected, and shown at
// the positions the order gives them at its end. It costs O(samples appended), where reindex
// costs O(n).
func (v *view) grow(n int) {
	old := len(v.pos)
	for len(v.pos) < n {
		v.pos = append(v.pos, -1)
	}
	for len(v.selected) < n {
		v.selected = append(v.selected, false)
	}
	for p := len(v.order) - 1; p >= 0 && v.order[p] >= old; p-- {
		v.pos[v.order[p]] = p
	}
}

// shrink drops the samples from n on (an append undone), which the order shows at its end, if
// at all: it costs O(samples dropped). It reports false, changing nothing, when the order shows
// one of them elsewhere (reindex then).
func (v *view) shrink(n int) bool {
	k := len(v.order)
	for k > 0 && v.order[k-1] >= n {
		k--
	}
	for i := n; i < len(v.pos); i++ {
		if v.pos[i] >= 0 && v.pos[i] < k {
			return false
		}
	}
	for i := n; i < len(v.selected); i++ {
		v.setSelected(i, false)
	}
	v.order, v.pos, v.selected = v.order[:k], v.pos[:n], v.selected[:n]
	if len(v.done) > n {
		for i := n; i < len(v.done); i++ {
			if v.done[i] {
				v.ndone--
			}
		}
		v.done = v.done[:n]
	}
	v.cursor = min(v.cursor, k-1)
	v.anchor = min(v.anchor, k-1)
	return true
}

// Len returns the number of positions.
func (v *view) Len() int { return len(v.order) }

// At returns the sample index at position p.
func (v *view) At(p int) int { return v.order[p] }

// Shows reports whether sample i is shown.
func (v *view) Shows(i int) bool { return i >= 0 && i < len(v.pos) && v.pos[i] >= 0 }

// Current returns the sample at the cursor, or -1.
func (v *view) Current() int {
	if v.cursor < 0 || v.cursor >= len(v.order) {
		return -1
	}
	return v.order[v.cursor]
}

// Selection returns the selected sample indices in view order (the cursor's sample when nothing
// is selected). A few selected samples cost O(k log k), not a pass over the order.
func (v *view) Selection() []int {
	out := make([]int, 0, max(v.nsel, 1))
	if v.nsel == 0 {
		if c := v.Current(); c >= 0 {
			out = append(out, c)
		}
		return out
	}
	if len(v.marked) > len(v.order)/8 {
		for _, i := range v.order {
			if v.selected[i] {
				out = append(out, i)
			}
		}
		return out
	}
	for _, i := range v.marked {
		if i < len(v.selected) && v.selected[i] && v.pos[i] >= 0 {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return v.pos[a] - v.pos[b] })
	return slices.Compact(out) // a sample unselected and selected again is marked twice
}

// SelectionSize returns len(selection()) without making it.
func (v *view) SelectionSize() int {
	if v.nsel == 0 && v.Current() >= 0 {
		return 1
	}
	return v.nsel
}

// clearSelection unselects every sample, in O(samples selected since the last clear).
func (v *view) clearSelection() {
	for _, i := range v.marked {
		if i < len(v.selected) {
			v.selected[i] = false
		}
	}
	v.marked = v.marked[:0]
	v.nsel = 0
}

func (v *view) setSelected(i int, on bool) {
	if v.selected[i] != on {
		v.selected[i] = on
		if on {
			v.nsel++
			v.marked = append(v.marked, i)
		} else {
			v.nsel--
		}
	}
}

// click applies a click on position p: alone (select just it), with Shift (select the range
// from the anchor), with Ctrl (toggle it).
func (v *view) click(p int, shift, ctrl bool) {
	if p < 0 || p >= len(v.order) {
		return
	}
	switch {
	case shift && v.anchor >= 0:
		v.clearSelection()
		lo, hi := min(v.anchor, p), max(v.anchor, p)
		for q := lo; q <= hi; q++ {
			v.setSelected(v.order[q], true)
		}
	case ctrl:
		if v.nsel == 0 && v.cursor >= 0 && v.cursor != p {
			v.setSelected(v.order[v.cursor], true)
		}
		v.setSelected(v.order[p], !v.selected[v.order[p]])
		v.anchor = p
	default:
		v.clearSelection()
		v.setSelected(v.order[p], true)
		v.anchor = p
	}
	v.cursor = p
}

// move puts the cursor at position p (clamped); with extend, the selection becomes the range
// from the anchor, otherwise just the new cursor.
func (v *view) move(p int, extend bool) {
	if len(v.order) == 0 {
		return
	}
	p = max(0, min(len(v.order)-1, p))
	if extend {
		if v.anchor < 0 {
			v.anchor = max(v.cursor, 0)
		}
		v.cursor = v.anchor
		v.click(p, true, false)
		return
	}
	v.click(p, false, false)
}

// selectAll selects every position.
func (v *view) selectAll() {
	for _, i := range v.order {
		v.setSelected(i, true)
	}
}

// IsSelected reports whether sample i is selected.
func (v *view) IsSelected(i int) bool { return i < len(v.selected) && v.selected[i] }

// countDone marks the shown samples that isDone says are done (nil: none), afresh.
func (v *view) countDone(isDone func(i int) bool) {
	v.done, v.ndone = nil, 0
	if isDone == nil {
		return
	}
	v.done = make([]bool, len(v.pos))
	for _, i := range v.order {
		if isDone(i) {
			v.done[i] = true
			v.ndone++
		}
	}
}

// recountDone updates the marks of samples whose state changed.
func (v *view) recountDone(samples []int, isDone func(i int) bool) {
	if v.done == nil {
		return
	}
	for _, i := range samples {
		if !v.Shows(i) || i >= len(v.done) {
			continue
		}
		if now := isDone(i); now != v.done[i] {
			v.done[i] = now
			if now {
				v.ndone++
			} else {
				v.ndone--
			}
		}
	}
}

// Gen returns the dataset generation the positions reflect (store.Dataset.Gen).
func (v *view) Gen() uint64 { return v.gen }

// Cursor returns the cursor's position, -1 when none.
func (v *view) Cursor() int { return v.cursor }

// Pos returns sample i's position, -1 when it is not shown.
func (v *view) Pos(i int) int {
	if !v.Shows(i) {
		return -1
	}
	return v.pos[i]
}

// Marked returns the samples selected since the selection was last cleared (some may have been
// unselected since: IsSelected says).
func (v *view) Marked() []int { return v.marked }

// Done returns how many shown samples the mode counts done.
func (v *view) Done() int { return v.ndone }

// DoneAt reports whether sample i is shown and counted done.
func (v *view) DoneAt(i int) bool { return v.done != nil && i >= 0 && i < len(v.done) && v.done[i] }

// Filter returns the filter the samples are shown under.
func (v *view) Filter() store.Filter { return v.filter }

// reselect selects again those of samples the view shows (the selection a save renumbered),
// keeping the cursor where it is; with fewer than two it leaves the selection as rebuild made
// it (the cursor's sample).
func (v *view) reselect(samples []int) {
	if len(samples) < 2 {
		return
	}
	cur := v.cursor
	v.clearSelection()
	for _, i := range samples {
		if v.Shows(i) {
			v.setSelected(i, true)
		}
	}
	if v.nsel == 0 {
		v.move(cur, false)
	}
}
