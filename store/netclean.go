package store

import (
	"encoding/binary"

	"idxlabel/pairfile/journal"
)

// What a save would change. Dirty asks it at every key (the window's title and status bar), so
// it costs O(1) there: the counts of samples whose label or deletion differs from the files, and
// of samples not in them, are the tally's (kept up to date as each step is applied, O(samples the
// step touches)); only when they are all zero while the undo history is away from the files'
// state (edits that cancel out: 3 typed on a 5, then 5 typed back) are the steps since the files'
// state looked at, for one that moves a mark a save writes or the journal keeps (an accepted
// suggestion's, a review's), once a generation (netMemo).

// netMemo is marksMoved's answer for one generation of the model (guarded by tally.mu).
type netMemo struct {
	gen   uint64
	valid bool
	moved bool
}

// differsFromFiles reports whether the samples differ from what the files hold (m.mu held, for
// reading at least): the undo history is away from the step the files hold and a label, a
// deletion, a sample added or a mark differs, or class names were set. Steps that cancel out
// (an edit typed back, an edit and its undo) leave it false, as an editor shows a document saved
// when undo returns to its saved state.
func (m *model) differsFromFiles() bool {
	if m.namesEdited {
		return true
	}
	if len(m.undo) == m.clean {
		return false
	}
	if c := m.tally.counters(m); c.Relabelled+c.Deleted+c.Appended > 0 {
		return true
	}
	m.tally.mu.Lock()
	defer m.tally.mu.Unlock()
	if memo := &m.tally.net; !memo.valid || memo.gen != m.gen {
		*memo = netMemo{gen: m.gen, valid: true, moved: marksMoved(m)}
	}
	return m.tally.net.moved
}

// marksMoved reports whether a step of m between the files' state and now sets or clears a mark
// that is not a label (m.mu held): a review's decision (the reviewed mark, kept by the journal), a
// label that is or was an accepted suggestion (the accepted marks a save writes). Unknown (the
// files' state can no longer be reached: clean is -1): true. O(steps since the files' state).
func marksMoved(m *model) bool {
	var steps []action
	switch {
	case m.clean < 0:
		return true
	case len(m.undo) > m.clean:
		steps = m.undo[m.clean:]
	default: // undone past the files' state: those steps wait on the redo stack, reverted
		k := m.clean - len(m.undo)
		if k > len(m.redo) {
			return true
		}
		steps = m.redo[len(m.redo)-k:]
	}
	for _, a := range steps {
		switch x := a.(type) {
		case *decide:
			return true
		case *relabel:
			if x.how == HowSuggestedAccepted || x.wasAcc != nil {
				return true
			}
		}
	}
	return false
}

// journalChangesNothing reports whether the journal c, written against m's files (its base
// record matches them) and found at Open before anything was applied to m (m.mu held, or m not
// shared yet), leaves the files as they are when replayed: every step it leaves applied, after
// its undos and redos, relabels or deletes or restores samples of the files, and together they
// give each sample its label in the files, undeleted, moving no mark (no review's decision, no
// accepted suggestion, no sample whose label is one), and no class names are set. Steps a save
// carried (its history record) must be left as the save left them. Anything else, a record it
// cannot read, or damage, answers false: such a journal is offered, never dropped. O(records +
// samples they name).
func journalChangesNothing(m *model, c *journal.Contents) bool {
	if c.Damaged > 0 {
		return false
	}
	type step struct {
		a     action // nil for a step the save carried
		token int    // a carried step's place in the history: undo stack bottom to top, then redo
	}
	var undo, redo []step
	carried := 0 // the history's undo steps: they must stay applied, in order, as the only carried ones
	for k, p := range c.Records {
		t := p[0]
		r := &dec{b: p[1:]}
		switch {
		case t == recHistory:
			if k != 0 || len(p) < 9 {
				return false
			}
			nu, nr := int(binary.LittleEndian.Uint32(p[1:])), int(binary.LittleEndian.Uint32(p[5:]))
			if nu+nr > len(p)-9 {
				return false
			}
			for j := range nu {
				undo = append(undo, step{token: j})
			}
			for j := range nr {
				redo = append(redo, step{token: nu + j})
			}
			carried = nu
		case t == recUndo || t == recRedo:
			from, to := &undo, &redo
			if t == recRedo {
				from, to = &redo, &undo
			}
			if len(*from) == 0 {
				return false
			}
			*to = append(*to, (*from)[len(*from)-1])
			*from = (*from)[:len(*from)-1]
		case t == recNames:
			return false
		default:
			var how How
			if c.Version >= 2 {
				how = How(r.u8())
				r.i64()
				if r.err != nil {
					return false
				}
			}
			a, err := decodeEdit(m, t, r)
			if err != nil || how == HowSuggestedAccepted {
				return false
			}
			undo, redo = append(undo, step{a: a, token: -1}), redo[:0]
		}
	}
	if len(undo) < carried {
		return false
	}
	for j, s := range undo[:carried] {
		if s.a != nil || s.token != j {
			return false
		}
	}
	labels, deleted := map[int32]int32{}, map[int32]bool{}
	for _, s := range undo[carried:] {
		switch x := s.a.(type) {
		case *relabel:
			for k, i := range x.idx {
				labels[i] = x.to[k]
			}
		case *setDeleted:
			for _, i := range x.idx {
				deleted[i] = x.to
			}
		default: // a carried redo step redone, an append, a review's decision
			return false
		}
	}
	for i, l := range labels {
		if int(i) >= m.baseN || l != m.orig[i] || m.accepted[i] {
			return false
		}
	}
	for i, del := range deleted {
		if int(i) >= m.baseN || del {
			return false
		}
	}
	return true
}
