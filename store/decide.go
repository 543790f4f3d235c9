package store

import (
	"fmt"

	"idxlabel/internal/numfmt"
)

// A decision is a person's decision on one sample in a review of suspects (DecideAs): its label
// (changed or kept) and that it was reviewed, as one undoable step.
//
// Journal record (records.go): recDecide, provenance, index u32, label i32.
// History step (history.go): hDecide, provenance, index u32, label i32, label before i32,
// marks before u8: 1 when it was reviewed, plus 2 when its label was an accepted suggestion
// (accepted.go).
const (
	recDecide byte = 8
	hDecide   byte = 3
)

func init() {
	register(editKind{decode: decodeDecide, how: labelHow}, map[byte]func(*model, *dec, bool) (action, error){hDecide: historyDecide}, recDecide)
}

// decide records a review decision on one sample: its label (changed or kept) and that it was
// reviewed.
type decide struct {
	provenance
	i, to, old  int32
	wasReviewed bool
	wasAccepted bool // its label before was an accepted suggestion (model.accepted)
}

// newDecide returns the step of a review's decision: sample i gets label and is marked
// reviewed. Errors: an index out of range, a label the dtype cannot hold.
func newDecide(m *model, how How, i, label int) (edit, error) {
	if err := m.checkIndex(i); err != nil {
		return nil, err
	}
	if err := m.checkLabel(label); err != nil {
		return nil, err
	}
	return &decide{provenance: madeNow(how), i: int32(i), to: int32(label)}, nil
}

func (a *decide) apply(m *model) Change {
	a.old, a.wasReviewed, a.wasAccepted = m.labels[a.i], m.reviewed[a.i], m.accepted[a.i]
	m.labels[a.i], m.reviewed[a.i], m.accepted[a.i] = a.to, true, a.how == HowSuggestedAccepted
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) revert(m *model) Change {
	m.labels[a.i], m.reviewed[a.i], m.accepted[a.i] = a.old, a.wasReviewed, a.wasAccepted
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) String() string {
	if a.to == a.old {
		return numfmt.Sprintf("Keep label %s of sample %d", labelText(a.to), a.i)
	}
	return numfmt.Sprintf("Relabel sample %d as %s (review)", a.i, labelText(a.to))
}

func (a *decide) kind() byte         { return recDecide }
func (a *decide) named() []int32     { return []int32{a.i} }
func (a *decide) labelsSet() []int32 { return []int32{a.to, a.old} }

func (a *decide) undoneStays() bool { return false }
func (a *decide) appends() int      { return 0 }
func (a *decide) reviews() []int32  { return []int32{a.i} }

func (a *decide) record() []byte {
	return enc{recDecide}.prov(a.provenance).u32(uint32(a.i)).i32(a.to)
}

func (a *decide) history(e enc) enc {
	var was byte
	if a.wasReviewed {
		was = 1
	}
	if a.wasAccepted {
		was |= 2
	}
	return e.u8(hDecide).prov(a.provenance).u32(uint32(a.i)).i32(a.to).i32(a.old).u8(was)
}

// remap keeps the decision when the save kept its sample, under its new number (carry.go).
func (a *decide) remap(r renumbering, _ bool) action {
	j, ok := r.at(a.i)
	if !ok {
		return nil
	}
	b := *a
	b.i = j
	return &b
}

// logEvents: a decision that keeps the label is not a change.
func (a *decide) logEvents(_ *model, ev eventSink, _ bool) {
	if a.to != a.old {
		ev.label(int(a.i), a.old, a.to)
	}
}

// decodeDecide decodes a decision record's body: a sample in range, a label fitting the dtype.
func decodeDecide(m *model, _ byte, r *dec) (action, error) {
	a := &decide{i: r.i32(), to: r.i32()}
	inRange(r, "decision on", a.i, len(m.labels))
	if r.err == nil {
		if err := m.checkLabel(int(a.to)); err != nil {
			return nil, fmt.Errorf("decision on sample %d: %w", a.i, err)
		}
	}
	return a, r.err
}

// historyDecide decodes a decision step of a history record: labels fitting the dtype (the
// label before may also be sample.NoLabel).
func historyDecide(m *model, r *dec, _ bool) (action, error) {
	b := &decide{i: r.i32(), to: r.i32(), old: r.i32()}
	was := r.u8()
	if was > 3 && r.err == nil {
		r.err = fmt.Errorf("decision on sample %d: marks before %d, not 0–3", b.i, was)
	}
	b.wasReviewed, b.wasAccepted = was&1 != 0, was&2 != 0
	historyLabel(m, r, b.to, false)
	historyLabel(m, r, b.old, true)
	return b, r.err
}
