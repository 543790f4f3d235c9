package suggest

import (
	"fmt"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
)

// loopTally counts what the person did in the Suggested list, for its part of the status bar
// (progressNote): the suggestions accepted, and the labels decided one sample at a time with a
// suggestion to compare (a digit typed, or Enter accepting the suggestion shown; for an asked
// sample, the suggestion made for it but not shown), and how many of those were the suggestion.
// Each such label was unknown to the model when it suggested, so the share right estimates the
// suggestions' accuracy (asked samples are the model's hard cases: the estimate leans low).
//
// A mark counts while its sample still has the label it gave (an undo takes it back, a redo
// gives it again): follow updates it in O(samples changed); reading costs O(1); it holds a mark
// per sample decided in the list.
type loopTally struct {
	ds    *store.Dataset   // the dataset whose marks it holds (nil: none yet: Suggester.tally)
	marks map[int]loopMark // by sample index
	// The marks standing now: accepted suggestions; labels scored against a suggestion, and
	// those that were the suggestion.
	accepted, scored, right int
}

// loopMark is one decision of the list on one sample.
type loopMark struct {
	label    int
	accepted bool // a suggestion accepted (Enter, or many at once)
	scored   bool // decided one at a time with a suggestion to compare
	right    bool // scored, and the label was the suggestion
	standing bool // the sample has label now
}

// count adds (sign 1) or takes back (sign -1) what m counts.
func (t *loopTally) count(m loopMark, sign int) {
	if m.accepted {
		t.accepted += sign
	}
	if m.scored {
		t.scored += sign
	}
	if m.right {
		t.right += sign
	}
}

// mark records that sample i was just given label (it has it now) by the list.
func (t *loopTally) mark(i int, m loopMark) {
	if t.marks == nil {
		t.marks = map[int]loopMark{}
	}
	if old, ok := t.marks[i]; ok && old.standing {
		t.count(old, -1)
	}
	m.standing = true
	t.marks[i] = m
	t.count(m, 1)
}

// decided marks a decision of review r on sample i, one sample at a time: label was given as how
// says. Samples of another review than the Suggested list's are not counted.
func (t *loopTally) decided(r *review.List, i, label int, how store.How) {
	if r == nil || r.Kind != review.Suggested {
		return
	}
	s, ok := r.Of[i]
	if !ok {
		s, ok = r.Hidden[i]
	}
	t.mark(i, loopMark{label: label, accepted: how == store.HowSuggestedAccepted, scored: ok, right: ok && s.Suggested == label})
}

// follow brings the marks of the samples in indices up to date with their labels in ds: a
// mark stands while its sample has its label and, for an accepted suggestion, while the store
// still marks it accepted (a person's label takes that away, even the same label).
func (t *loopTally) follow(ds *store.Dataset, indices []int) {
	for _, i := range indices {
		m, ok := t.marks[i]
		if !ok {
			continue
		}
		st, exists := ds.StateAt(i)
		now := exists && st.Label == m.label && (!m.accepted || st.Accepted)
		if now != m.standing {
			if now {
				t.count(m, 1)
			} else {
				t.count(m, -1)
			}
			m.standing = now
			t.marks[i] = m
		}
	}
}

// appended follows samples just appended to ds (indices): each the store marks accepted (Append
// Dataset brings the marks of the pair it reads) counts as an accepted suggestion; a mark left on
// the number by samples an undo removed goes. O(samples appended).
func (t *loopTally) appended(ds *store.Dataset, indices []int) {
	for _, i := range indices {
		if old, ok := t.marks[i]; ok {
			if old.standing {
				t.count(old, -1)
			}
			delete(t.marks, i)
		}
		if st, ok := ds.StateAt(i); ok && st.Accepted && st.Label != sample.NoLabel {
			t.mark(i, loopMark{label: st.Label, accepted: true})
		}
	}
}

// renumber follows a save that renumbered the samples (to: old number → new, -1 for a sample
// left out); nil (a replayed journal) forgets every mark, to be read again from the dataset
// (Suggester.tally).
func (t *loopTally) renumber(to []int) {
	if to == nil {
		*t = loopTally{}
		return
	}
	marks := make(map[int]loopMark, len(t.marks))
	for i, m := range t.marks {
		if i >= 0 && i < len(to) && to[i] >= 0 {
			marks[to[i]] = m
		} else if m.standing {
			t.count(m, -1)
		}
	}
	t.marks = marks
}

// tally returns the loop's tally of the dataset shown, made at its first use for that dataset
// (and after a replayed journal) from the store's marks: every sample whose label is an
// accepted suggestion (store.State.Accepted, kept by a save for the next session) counts as
// accepted. O(N) then; O(1) after.
func (g *Suggester) tally() *loopTally {
	t := &g.loop.tally
	if ds := g.c.State().DS; ds != nil && t.ds != ds {
		*t = loopTally{ds: ds}
		for _, i := range ds.Accepted() {
			if st := ds.State(i); !st.Deleted && st.Label != sample.NoLabel {
				t.mark(i, loopMark{label: st.Label, accepted: true})
			}
		}
	}
	return t
}

// progressNote is the Suggested list's part of the status bar: labelled (by any means but an
// accepted suggestion), accepted and left (without a label), among the samples not deleted, and
// the estimate of the suggestions' accuracy once a label was scored ("suggestions right: 94% of
// 50 checked"). O(classes).
func (g *Suggester) progressNote(s mode.State) string {
	labelled, left := 0, 0
	for _, n := range s.DS.Counts() {
		if n.Class == sample.NoLabel {
			left += n.Count
		} else {
			labelled += n.Count
		}
	}
	t := g.tally()
	text := numfmt.Sprintf("   |   labelled %d · accepted %d · left %d", labelled-t.accepted, t.accepted, left)
	if t.scored > 0 {
		text += fmt.Sprintf(" · suggestions right: %.0f%% of %s checked", 100*float64(t.right)/float64(t.scored), numfmt.Plural(t.scored, "label"))
	}
	return text // review.Mode.Status adds review.FewLabelsNote when the list was learnt from few labels
}

// noSuggestion says why sample i of the Suggested list has no suggestion to accept.
func (g *Suggester) noSuggestion(i int) string {
	if r := g.Mode.List; r != nil && r.Asked[i] {
		return "Asked: its label helps the suggestions most. Type it (→ skips)"
	}
	return g.Why() + ": type its label, or → to skip it"
}
