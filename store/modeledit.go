package store

import (
	"fmt"
	"math"

	"idxlabel/idx"
)

// What an edit does to the model, and undo and redo: the model builds a step from a request,
// checking it against the samples (newRelabel, newDecide, newAppend, newSetDeleted), and applies
// it (perform) or moves it between the stacks (performStep). It takes every step it is given:
// whether the dataset takes edits at all, and the journal record that must be synced first, are
// the session's (Dataset.edit, Dataset.commit in edit.go). Every method here runs with m.mu held
// except UndoName and RedoName, which take it.

// perform applies a, pushes it on the undo stack and clears redo (m.mu held). When the state
// the files hold was only reachable by redoing, it is not any more (see Dirty).
func (m *model) perform(a action) Change {
	ch := m.changed(a.apply(m))
	if m.clean > len(m.undo) {
		m.clean = -1
	}
	m.undo = append(m.undo, a)
	m.redo = m.redo[:0]
	return ch
}

// performStep moves the top action from the undo stack to redo (reverting it) or back
// (re-applying it); the stack must not be empty (m.mu held).
func (m *model) performStep(undo bool) (action, Change) {
	from, to := &m.redo, &m.undo
	if undo {
		from, to = &m.undo, &m.redo
	}
	a := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	var ch Change
	if undo {
		ch = a.revert(m)
	} else {
		ch = a.apply(m)
	}
	ch = m.changed(ch)
	*to = append(*to, a)
	return a, ch
}

// UndoName and RedoName describe what Undo and Redo would do ("Relabel 3 samples as 7", "Delete
// 5,923 samples": counts and sample numbers with thousands separators, as the window writes
// them, numfmt), or "" when there is nothing; for menu items.
func (m *model) UndoName() string { return m.topName(true) }

// RedoName: see UndoName.
func (m *model) RedoName() string { return m.topName(false) }

func (m *model) topName(undo bool) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := m.redo
	if undo {
		s = m.undo
	}
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1].String()
}

func (m *model) checkIndex(i int) error {
	if i < 0 || i >= len(m.labels) {
		return fmt.Errorf("sample %d does not exist (the dataset has %d)", i, len(m.labels))
	}
	return nil
}

// checkLabel refuses labels the label file's dtype cannot hold.
func (m *model) checkLabel(l int) error {
	h := m.labelHeader
	if m.ownLabels {
		h = idx.Header{} // any label: the next save chooses a dtype that holds it
	}
	lo, hi := labelRange(h)
	if l < lo || l > hi {
		return fmt.Errorf("label %d does not fit the labels' dtype %s (%d–%d)", l, m.labelHeader.Type, lo, hi)
	}
	return nil
}

// labelRange returns the labels a label file of header h can hold; an unlabelled dataset takes
// 0–MaxInt32 (it is saved as ubyte or int32, whichever fits).
func labelRange(h idx.Header) (int, int) {
	switch h.Type {
	case idx.UByte:
		return 0, 255
	case idx.SByte:
		return math.MinInt8, math.MaxInt8
	case idx.Int16:
		return math.MinInt16, math.MaxInt16
	case idx.Int32:
		return math.MinInt32 + 1, math.MaxInt32
	}
	return 0, math.MaxInt32
}
