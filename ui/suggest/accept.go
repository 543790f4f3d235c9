package suggest

import (
	"fmt"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
)

// AcceptMany is Tools → Accept Suggestions (Ctrl+Shift+A): many suggestions of the Suggested
// list accepted at once, as one undoable step journaled as suggested-accepted (Ctrl+Z takes them
// all back). What it accepts is set by the person:
//   - with several samples selected (a lasso on the map selects what it holds; Shift+click in
//     the grid), the suggestion of each selected sample that has one and no label;
//   - else every suggestion of the cursor's suggested class at least as confident as the
//     cursor's (in a list most confident first, the cursor sets the threshold: the person looks
//     down the class's suggestions, class filter on, and stops where they turn doubtful).
//
// Nothing is accepted but on this key. It costs O(suggestions) once.
func (g *Suggester) AcceptMany() {
	c := g.c
	r := g.Mode.List
	if r == nil || r.Pending || len(r.Of) == 0 {
		c.Say("No suggestions to accept yet (Show → Suggested makes them)")
		return
	}
	st := c.State()
	ds, v := st.DS, st.View
	var idx, labels []int
	var what string
	if v.SelectionSize() > 1 {
		for _, i := range v.Selection() {
			if s, ok := r.Of[i]; ok && ds.Label(i) == sample.NoLabel {
				idx, labels = append(idx, i), append(labels, s.Suggested)
			}
		}
		what = numfmt.Sprintf("the suggestions for the %d selected samples without a label", len(idx))
	} else {
		cur := v.Current()
		s, ok := r.Of[cur]
		if !ok || ds.Label(cur) != sample.NoLabel {
			c.Say("Put the cursor on a suggestion (or select samples, or lasso them on the map): its class and confidence say what to accept")
			return
		}
		for _, i := range r.Order {
			if x, ok := r.Of[i]; ok && x.Suggested == s.Suggested && x.Confidence >= s.Confidence && ds.Label(i) == sample.NoLabel {
				idx, labels = append(idx, i), append(labels, x.Suggested)
			}
		}
		what = numfmt.Sprintf("%d suggestions of class %s", len(idx), st.Classes.Long(s.Suggested)) + fmt.Sprintf(" at %d%% confidence or more", int(100*s.Confidence))
	}
	if len(idx) == 0 {
		c.Say("No suggestion to accept there")
		return
	}
	if !c.Edit(func(ds *store.Dataset) error { return ds.SetLabelsAs(store.HowSuggestedAccepted, idx, labels) }) {
		return // said on the status bar, or waiting for a job that holds edits
	}
	for k, i := range idx {
		g.tally().mark(i, loopMark{label: labels[k], accepted: true})
	}
	c.Say("Accepted " + what + " (one step: Ctrl+Z undoes it)")
}
