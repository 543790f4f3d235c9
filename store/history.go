package store

import (
	"errors"
	"fmt"
	"idxlabel/sample"
	"slices"
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
// Payload (integers little-endian, as journal.go): recHistory, undo count u32, redo count u32,
// then the undo stack's steps bottom to top and the redo stack's bottom to top, each a kind
// byte, in version 2 the step's provenance (how u8, when i64: journal.go), and its fields:
//
//	hRelabel      n u32, n × (index u32, label i32, label before i32)
//	hSetDeleted   deleted u8 (1 delete, 0 restore), n u32, n × index u32
//	hDecide       index u32, label i32, label before i32, reviewed before u8
//	hSavedAppend  n u32, n × (index u32, label added with i32)
//	hAppend       n u32, pixels per sample u32, n × label i32, n × pixels (stored order); redo stack only
//
// Indices are the samples' numbers after the save; a redo step's may name samples that a redo
// step above it appends.
const recHistory byte = 32

// Kinds of step in a history record.
const (
	hRelabel     byte = 1
	hSetDeleted  byte = 2
	hDecide      byte = 3
	hSavedAppend byte = 4
	hAppend      byte = 5
)

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

func (a *relabel) history(e enc) enc {
	e = e.u8(hRelabel).prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.to[k]).i32(a.old[k])
	}
	return e
}

func (a *setDeleted) history(e enc) enc {
	var to byte
	if a.to {
		to = 1
	}
	e = e.u8(hSetDeleted).prov(a.provenance).u8(to).u32(uint32(len(a.idx)))
	for _, i := range a.idx {
		e = e.u32(uint32(i))
	}
	return e
}

func (a *decide) history(e enc) enc {
	var was byte
	if a.wasReviewed {
		was = 1
	}
	return e.u8(hDecide).prov(a.provenance).u32(uint32(a.i)).i32(a.to).i32(a.old).u8(was)
}

func (a *savedAppend) history(e enc) enc {
	e = e.u8(hSavedAppend).prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.labels[k])
	}
	return e
}

func (a *appendSamples) history(e enc) enc {
	n := len(a.labels)
	e = e.u8(hAppend).prov(a.provenance).u32(uint32(n)).u32(uint32(len(a.pixels) / max(n, 1)))
	for _, l := range a.labels {
		e = e.i32(l)
	}
	return e.bytes(a.pixels)
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
		if err := m.fits(a, n); err != nil {
			return err
		}
	}
	for _, a := range slices.Backward(redo) {
		if err := m.fits(a, n); err != nil {
			return err
		}
		if ap, ok := a.(*appendSamples); ok {
			n += len(ap.labels)
		}
	}
	m.undo, m.redo, m.clean = undo, redo, len(undo)
	// A sample is marked reviewed exactly when a decision on it is on the undo stack (Decide
	// marks it, undoing the first decision unmarks it): the marks come back with the history.
	for _, a := range undo {
		if a, ok := a.(*decide); ok {
			m.reviewed[a.i] = true
		}
	}
	return nil
}

// historyStep decodes one step of a history record of a journal of the given version,
// checking its labels, pixel size and How (checkHow, as the edit record of the same kind), and
// that it names at least one sample, none twice (as decodeEdit); appends are allowed only on the
// redo stack (m.mu held).
func (m *model) historyStep(r *dec, redo bool, version int) (action, error) {
	kind := r.u8()
	var pv provenance
	if version >= 2 {
		pv = provenance{how: How(r.u8()), when: r.i64()}
	}
	label := func(l int32, before bool) {
		if r.err == nil && !(before && l == sample.NoLabel) {
			if err := m.checkLabel(int(l)); err != nil {
				r.err = err
			}
		}
	}
	// samples checks a step's sample numbers as decodeEdit does: at least one, none twice.
	samples := func(idx []int32) {
		if r.err == nil && len(idx) == 0 {
			r.err = errNoSample
		}
		if r.err == nil {
			r.err = distinct(idx)
		}
	}
	var a action
	switch kind {
	case hRelabel:
		n := r.count(12)
		b := &relabel{idx: make([]int32, n), to: make([]int32, n), old: make([]int32, n)}
		for k := range n {
			b.idx[k], b.to[k], b.old[k] = r.i32(), r.i32(), r.i32()
			label(b.to[k], false)
			label(b.old[k], true)
		}
		samples(b.idx)
		a = b
	case hSetDeleted:
		b := &setDeleted{to: r.u8() == 1}
		n := r.count(4)
		b.idx = make([]int32, n)
		for k := range n {
			b.idx[k] = r.i32()
		}
		samples(b.idx)
		a = b
	case hDecide:
		b := &decide{i: r.i32(), to: r.i32(), old: r.i32(), wasReviewed: r.u8() == 1}
		label(b.to, false)
		label(b.old, true)
		a = b
	case hSavedAppend:
		n := r.count(8)
		b := &savedAppend{idx: make([]int32, n), labels: make([]int32, n)}
		for k := range n {
			b.idx[k], b.labels[k] = r.i32(), r.i32()
			label(b.labels[k], false)
		}
		samples(b.idx)
		a = b
	case hAppend:
		if !redo {
			return nil, errors.New("history: an unsaved append on the undo stack")
		}
		n := r.count(4)
		if r.err == nil && n == 0 {
			r.err = errNoSample
		}
		pps := int(r.u32())
		if r.err == nil && pps != m.h*m.w {
			return nil, fmt.Errorf("history: appended samples of %d pixels in a dataset of %d×%d", pps, m.h, m.w)
		}
		b := &appendSamples{labels: make([]int32, n)}
		for k := range n {
			b.labels[k] = r.i32()
			label(b.labels[k], false)
		}
		b.pixels = slices.Clone(r.takeElems(n, pps))
		a = b
	default:
		if r.err == nil {
			r.err = fmt.Errorf("unknown step kind %d", kind)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("history: %v", r.err)
	}
	if err := checkHow(recordType(a), pv.how); err != nil {
		return nil, fmt.Errorf("history: %v", err)
	}
	*provOf(a) = pv
	return a, nil
}

// fits checks that every sample step a names is below n, the samples there are when it is
// undone or redone.
func (m *model) fits(a action, n int) error {
	var idx []int32
	switch a := a.(type) {
	case *relabel:
		idx = a.idx
	case *setDeleted:
		idx = a.idx
	case *decide:
		idx = []int32{a.i}
	case *savedAppend:
		idx = a.idx
	}
	for _, i := range idx {
		if i < 0 || int(i) >= n {
			return fmt.Errorf("history: a step on sample %d, beyond the %d samples", i, n)
		}
	}
	return nil
}
