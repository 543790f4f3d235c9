package ui

import (
	"fmt"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
)

// acceptMany is Tools → Accept Suggestions (Ctrl+Shift+A): many suggestions of the Suggested
// list accepted at once, as one undoable step journaled as suggested-accepted (Ctrl+Z takes them
// all back). What it accepts is set by the person:
//   - with several samples selected (a lasso on the map selects what it holds; Shift+click in
//     the grid), the suggestion of each selected sample that has one and no label;
//   - else every suggestion of the cursor's suggested class at least as confident as the
//     cursor's (in a list most confident first, the cursor sets the threshold: the person looks
//     down the class's suggestions, class filter on, and stops where they turn doubtful).
//
// Nothing is accepted but on this key. It costs O(suggestions) once.
func (g *suggester) acceptMany() {
	c := g.c
	r := g.review.List
	if r == nil || r.Pending || len(r.Of) == 0 {
		c.say("No suggestions to accept yet (Show → Suggested makes them)")
		return
	}
	if c.cannotEdit() {
		return
	}
	var idx, labels []int
	var what string
	if c.v.SelectionSize() > 1 {
		for _, i := range c.v.Selection() {
			if s, ok := r.Of[i]; ok && c.ds.Label(i) == sample.NoLabel {
				idx, labels = append(idx, i), append(labels, s.Suggested)
			}
		}
		what = numfmt.Sprintf("the suggestions for the %d selected samples without a label", len(idx))
	} else {
		cur := c.v.Current()
		s, ok := r.Of[cur]
		if !ok || c.ds.Label(cur) != sample.NoLabel {
			c.say("Put the cursor on a suggestion (or select samples, or lasso them on the map): its class and confidence say what to accept")
			return
		}
		for _, i := range r.Order {
			if x, ok := r.Of[i]; ok && x.Suggested == s.Suggested && x.Confidence >= s.Confidence && c.ds.Label(i) == sample.NoLabel {
				idx, labels = append(idx, i), append(labels, x.Suggested)
			}
		}
		what = numfmt.Sprintf("%d suggestions of class %s", len(idx), c.classes.Long(s.Suggested)) + fmt.Sprintf(" at %d%% confidence or more", int(100*s.Confidence))
	}
	if len(idx) == 0 {
		c.say("No suggestion to accept there")
		return
	}
	err := c.edit(func() error { return c.ds.SetLabelsAs(store.HowSuggestedAccepted, idx, labels) })
	if err != nil {
		c.refuse(err)
		return
	}
	for k, i := range idx {
		g.loop.tally.mark(i, loopMark{label: labels[k], accepted: true})
	}
	c.refresh()
	c.say("Accepted " + what + " (one step: Ctrl+Z undoes it)")
}
