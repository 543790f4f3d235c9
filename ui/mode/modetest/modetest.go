// Package modetest stands in for the window's controller in the tests of a mode package: a
// mode.Controller over a store.Dataset with a plain view model (the samples of the order given,
// a cursor, a selection), which makes edits as the controller does (through the store, journaled)
// and records what the mode asked for (what it said, the modes entered), without a window. Only
// tests import it.
package modetest

import (
	"slices"

	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
)

// Controller is a mode.Controller for tests. Its view shows Order (sample indices), the cursor
// at position At; Selected holds the selection (none: the cursor's sample). The mode shown is
// Mode; Enter, Choose and Changed record their mode and make it Mode.
type Controller struct {
	DS       *store.Dataset
	Order    []int
	At       int
	Selected map[int]bool
	Mode     mode.Mode
	DoneSet  map[int]bool
	// What the mode asked for: messages said, modes entered (Enter, Choose) and changed, edits
	// refused, inputs run.
	Said     []string
	Entered  []mode.Mode
	Changes  []mode.Mode
	Refused  []error
	Rebuilds int
	// Busy makes Held report true (a job holds edits).
	Busy bool
	// ResetCount is what Resets reports.
	ResetCount int
}

// New shows every sample of ds, the cursor on the first, browsing.
func New(ds *store.Dataset) *Controller {
	c := &Controller{DS: ds, Selected: map[int]bool{}, DoneSet: map[int]bool{}, Mode: mode.Browse{}}
	for i := range ds.Len() {
		c.Order = append(c.Order, i)
	}
	return c
}

var _ mode.Controller = (*Controller)(nil)

// State is the dataset, the view and the class names now.
func (c *Controller) State() mode.State {
	return mode.State{DS: c.DS, View: view{c}, Classes: classes.Of(c.DS)}
}

// Showing is Mode.
func (c *Controller) Showing() mode.Mode { return c.Mode }

// Enter makes m the mode shown, its order the view's, the cursor on the first.
func (c *Controller) Enter(m mode.Mode) {
	c.Entered = append(c.Entered, m)
	c.Mode = m
	c.Order, c.At = m.Order(c.State(), store.Filter{Subset: store.Live}), 0
}

// Choose enters m, or starts it when it is not ready.
func (c *Controller) Choose(m mode.Mode) {
	if !mode.Ready(m) {
		mode.Start(m)
		return
	}
	c.Enter(m)
}

// Changed records m and, when m is shown, makes its order again.
func (c *Controller) Changed(m mode.Mode) {
	c.Changes = append(c.Changes, m)
	if c.Mode == m {
		c.Order = m.Order(c.State(), store.Filter{Subset: store.Live})
		c.At = min(c.At, len(c.Order)-1)
	}
}

// Rebuild makes the mode's order again (every sample selected when selectAll).
func (c *Controller) Rebuild(selectAll bool) {
	c.Rebuilds++
	c.Order = c.Mode.Order(c.State(), store.Filter{})
	clear(c.Selected)
	if selectAll {
		for _, i := range c.Order {
			c.Selected[i] = true
		}
	}
}

// MoveCursor puts the cursor at position p (clamped).
func (c *Controller) MoveCursor(p int) { c.At = max(0, min(p, len(c.Order)-1)) }

// Next moves the cursor one further, if there is a sample there.
func (c *Controller) Next() {
	if c.At+1 < len(c.Order) {
		c.At++
	}
}

// Edit makes the edit f (the store journals it); a refusal is recorded in Refused.
func (c *Controller) Edit(f func(ds *store.Dataset) error) bool {
	if err := f(c.DS); err != nil {
		c.Refused = append(c.Refused, err)
		return false
	}
	return true
}

// Relabel gives the selection label and moves on.
func (c *Controller) Relabel(label int) {
	sel := view{c}.Selection()
	if c.Edit(func(ds *store.Dataset) error { return ds.Relabel(sel, label) }) {
		c.Next()
	}
}

// ToggleDelete deletes the selection, or restores it when all of it is deleted.
func (c *Controller) ToggleDelete() {
	sel := view{c}.Selection()
	all := !slices.ContainsFunc(sel, func(i int) bool { return !c.DS.State(i).Deleted })
	c.Edit(func(ds *store.Dataset) error {
		if all {
			return ds.Restore(sel)
		}
		return ds.Delete(sel)
	})
}

// Held reports Busy, and says what waits when it is.
func (c *Controller) Held(what string) bool {
	if c.Busy {
		c.Say("Busy: " + what + " when it is done")
	}
	return c.Busy
}

// Input runs f at once.
func (c *Controller) Input(f func()) { f() }

// Say records text.
func (c *Controller) Say(text string) { c.Said = append(c.Said, text) }

// Note records a background report as Say does.
func (c *Controller) Note(text string) { c.Said = append(c.Said, text) }

// Render, Progress and Focus do nothing: there is no window.
func (c *Controller) Render() {}

// Progress does nothing: there is no window.
func (c *Controller) Progress() {}

// Resets is ResetCount (a test sets it when it renumbers the samples).
func (c *Controller) Resets() int { return c.ResetCount }

// Focus does nothing: there is no window.
func (c *Controller) Focus() {}

// view is the Controller's view model as a mode reads it.
type view struct{ c *Controller }

func (v view) Gen() uint64 { return v.c.DS.Gen() }
func (v view) Len() int    { return len(v.c.Order) }
func (v view) At(p int) int {
	return v.c.Order[p]
}
func (v view) Current() int {
	if v.c.At < 0 || v.c.At >= len(v.c.Order) {
		return -1
	}
	return v.c.Order[v.c.At]
}
func (v view) Cursor() int           { return v.c.At }
func (v view) Shows(i int) bool      { return slices.Contains(v.c.Order, i) }
func (v view) Pos(i int) int         { return slices.Index(v.c.Order, i) }
func (v view) IsSelected(i int) bool { return v.c.Selected[i] }
func (v view) Marked() []int {
	var out []int
	for i := range v.c.Selected {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}
func (v view) Selection() []int {
	var out []int
	for _, i := range v.c.Order {
		if v.c.Selected[i] {
			out = append(out, i)
		}
	}
	if len(out) == 0 && v.Current() >= 0 {
		out = append(out, v.Current())
	}
	return out
}
func (v view) SelectionSize() int   { return len(v.Selection()) }
func (v view) Done() int            { return len(v.c.DoneSet) }
func (v view) DoneAt(i int) bool    { return v.c.DoneSet[i] }
func (v view) Filter() store.Filter { return store.Filter{} }
