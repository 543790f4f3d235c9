package store

import (
	"errors"
	"fmt"
	"slices"

	"idxlabel/pairfile/journal"
)

// A save starts the journal over against the files it wrote, but the undo history outlives it
// (carry.go). So that an undo or redo of a step made before the save can be journaled as
// recUndo/recRedo like any other, the journal begun after a save starts with one history
// record: the carried undo and redo stacks, whose steps the saved files already hold (undo
// stack) or do not (redo stack). Replaying it restores the two stacks and the review marks of
// the decisions on the undo stack; the records after it replay on top, so after a crash the
// samples, their review marks, the undo stack and the redo stack are all as they were. Except
// when the save had to cut the history (carryHistory: one too large for a journal record, over
// journal.MaxRecord, loses its redo stack, and if still too large all of it): the samples are still as
// they were after a crash, but the steps cut are gone, and so are the review marks of the
// decisions that were on a cut undo stack (they live on in the window until it closes, not in
// the journal).
//
// Payload (integers little-endian, as records.go): recHistory, undo count u32, redo count u32,
// then the undo stack's steps bottom to top and the redo stack's bottom to top, each a kind
// byte, in version 2 the step's provenance (how u8, when i64: records.go), and its fields, as
// the kind's own file says (relabel.go, delete.go, decide.go, savedappend.go, and append.go for
// an append, which only the redo stack holds).
//
// Indices are the samples' numbers after the save; a redo step's may name samples that a redo
// step above it appends.
const recHistory = journal.RecHistory

// historyRecord encodes the undo and redo stacks as a history record; nil when both are empty
// (m.mu held).
func (m *model) historyRecord() []byte {
	if len(m.undo)+len(m.redo) == 0 {
		return nil
	}
	e := enc{recHistory}.u32(uint32(len(m.undo))).u32(uint32(len(m.redo)))
	for _, a := range m.undo {
		e = a.history(e)
	}
	for _, a := range m.redo {
		e = a.history(e)
	}
	return e
}

// replayHistory restores the undo and redo stacks from a history record of a journal of the
// given version, the first record of a journal (m.mu held; both stacks empty). The record is untrusted: every index must name a
// sample that exists when its step would be undone or redone (counting the samples the redo
// stack's appends add), every label must fit the label dtype (a label before may also be
// sample.NoLabel: samples that had none before a save wrote labels), and appended pixels must have
// the samples' size. Errors: a record that does not decode or does not fit, in which case
// nothing is restored.
func (m *model) replayHistory(p []byte, version int) error {
	if len(m.undo)+len(m.redo) > 0 {
		return errors.New("a history record after edits")
	}
	r := &dec{b: p[1:]}
	nu, nr := r.count(1), 0
	if r.err == nil {
		nr = r.count(1)
	}
	if r.err == nil && nu+nr > len(r.b) {
		r.err = errors.New("record count exceeds its length")
	}
	if r.err != nil {
		return fmt.Errorf("history: %v", r.err)
	}
	undo := make([]action, 0, nu)
	for range nu {
		a, err := m.historyStep(r, false, version)
		if err != nil {
			return err
		}
		undo = append(undo, a)
	}
	redo := make([]action, 0, nr)
	for range nr {
		a, err := m.historyStep(r, true, version)
		if err != nil {
			return err
		}
		redo = append(redo, a)
	}
	if len(r.b) != 0 {
		return errors.New("history: extra bytes after the steps")
	}
	// The undo stack's steps are undone with every sample there; the redo stack's are redone
	// from the top, each after the appends above it.
	n := len(m.labels)
	for _, a := range undo {
		if err := stepFits(a, n); err != nil {
			return err
		}
	}
	for _, a := range slices.Backward(redo) {
		if err := stepFits(a, n); err != nil {
			return err
		}
		n += a.appends()
	}
	m.undo, m.redo, m.clean = undo, redo, len(undo)
	// A sample is marked reviewed exactly when a decision on it is on the undo stack (Decide
	// marks it, undoing the first decision unmarks it): the marks come back with the history.
	for _, a := range undo {
		for _, i := range a.reviews() {
			m.reviewed[i] = true
		}
	}
	return nil
}

// historyStep decodes one step of a history record of a journal of the given version, by its
// kind (historyKinds: each checks its labels, pixel size and that it names at least one sample,
// none twice, as the edit record of the same kind), then its How (checkHow, as that record's);
// appends are allowed only on the redo stack (m.mu held).
func (m *model) historyStep(r *dec, redo bool, version int) (action, error) {
	kind := r.u8()
	var pv provenance
	if version >= 2 {
		pv = provenance{how: How(r.u8()), when: r.i64()}
	}
	var a action
	var err error
	if decode, ok := historyKinds[kind]; ok && r.err == nil {
		a, err = decode(m, r, redo)
	} else if err = r.err; err == nil {
		err = fmt.Errorf("unknown step kind %d", kind)
	}
	if err != nil {
		return nil, fmt.Errorf("history: %v", err)
	}
	if err := checkHow(a.kind(), pv.how); err != nil {
		return nil, fmt.Errorf("history: %v", err)
	}
	*provOf(a) = pv
	return a, nil
}

// stepFits checks that every sample step a names is below n, the samples there are when it is
// undone or redone.
func stepFits(a action, n int) error {
	for _, i := range a.named() {
		if i < 0 || int(i) >= n {
			return fmt.Errorf("history: a step on sample %d, beyond the %d samples", i, n)
		}
	}
	return nil
}
