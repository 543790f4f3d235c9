package store

import (
	"fmt"
	"slices"

	"idxlabel/internal/numfmt"
)

// A relabel sets the labels of some samples (Relabel, SetLabels, SetLabelsAs): one undoable step
// however many samples it names.
//
// Journal record (records.go): recRelabel, provenance, n u32, n × (index u32, label i32).
// History step (history.go): hRelabel, provenance, n u32, n × (index u32, label i32, label
// before i32); or, when a sample's label before was an accepted suggestion (accepted.go),
// hRelabelAccepted, provenance, n u32, n × (index u32, label i32, label before i32, accepted
// before u8: 1 or 0).
const (
	recRelabel       byte = 2
	hRelabel         byte = 1
	hRelabelAccepted byte = 7
)

func init() {
	register(editKind{decode: decodeRelabel, how: labelHow}, map[byte]func(*model, *dec, bool) (action, error){
		hRelabel:         historyRelabel,
		hRelabelAccepted: historyRelabelAccepted,
	}, recRelabel)
}

// relabel sets the labels of some samples; old and wasAcc are filled in when it is applied.
type relabel struct {
	provenance
	idx []int32
	to  []int32
	old []int32
	// wasAcc: whether each sample's label before was an accepted suggestion (model.accepted);
	// nil when none was.
	wasAcc []bool
}

// newRelabel returns the step that sets sample indices[k] to labels[k] for every k, leaving out
// samples that already have their label and repeats; nil when none is left. A sample whose
// label is an accepted suggestion is kept even when it has the label already, unless how is
// HowSuggestedAccepted: a person giving it the label it has confirms it (the mark goes,
// accepted.go), and the step is logged as no change of label. Errors: indices and
// labels of different lengths, an index out of range, a label the dtype cannot hold.
func newRelabel(m *model, how How, indices, labels []int) (edit, error) {
	if len(indices) != len(labels) {
		return nil, fmt.Errorf("SetLabels: %d indices but %d labels", len(indices), len(labels))
	}
	a := &relabel{provenance: madeNow(how)}
	seen := map[int]bool{}
	for k, i := range indices {
		if err := m.checkIndex(i); err != nil {
			return nil, err
		}
		if err := m.checkLabel(labels[k]); err != nil {
			return nil, err
		}
		confirms := m.accepted[i] && how != HowSuggestedAccepted
		if (int(m.labels[i]) != labels[k] || confirms) && !seen[i] {
			seen[i] = true
			a.idx = append(a.idx, int32(i))
			a.to = append(a.to, int32(labels[k]))
		}
	}
	if len(a.idx) == 0 {
		return nil, nil
	}
	return a, nil
}

func (a *relabel) apply(m *model) Change {
	a.old = make([]int32, len(a.idx))
	a.wasAcc = nil
	acc := a.how == HowSuggestedAccepted
	for k, i := range a.idx {
		a.old[k] = m.labels[i]
		m.labels[i] = a.to[k]
		if m.accepted[i] {
			if a.wasAcc == nil {
				a.wasAcc = make([]bool, len(a.idx))
			}
			a.wasAcc[k] = true
		}
		m.accepted[i] = acc
	}
	return Change{Kind: Relabelled, Indices: ints(a.idx)}
}

func (a *relabel) revert(m *model) Change {
	for k, i := range a.idx {
		m.labels[i] = a.old[k]
		m.accepted[i] = a.wasAcc != nil && a.wasAcc[k]
	}
	return Change{Kind: Relabelled, Indices: ints(a.idx)}
}

func (a *relabel) String() string {
	if len(a.idx) == 0 { // never on a stack (a journal's relabel of no sample is refused)
		return "Relabel no samples"
	}
	if len(a.idx) == 1 {
		return numfmt.Sprintf("Relabel sample %d as %s", a.idx[0], labelText(a.to[0]))
	}
	if same(a.to) {
		return numfmt.Sprintf("Relabel %d samples as %s", len(a.idx), labelText(a.to[0]))
	}
	return numfmt.Sprintf("Relabel %d samples", len(a.idx))
}

func (a *relabel) kind() byte         { return recRelabel }
func (a *relabel) named() []int32     { return a.idx }
func (a *relabel) labelsSet() []int32 { return slices.Concat(a.to, a.old) }

func (a *relabel) undoneStays() bool { return false }
func (a *relabel) appends() int      { return 0 }
func (a *relabel) reviews() []int32  { return nil }

func (a *relabel) record() []byte {
	e := enc{recRelabel}.prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.to[k])
	}
	return e
}

func (a *relabel) history(e enc) enc {
	kind := hRelabel
	if a.wasAcc != nil {
		kind = hRelabelAccepted
	}
	e = e.u8(kind).prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.to[k]).i32(a.old[k])
		if a.wasAcc != nil {
			var was byte
			if a.wasAcc[k] {
				was = 1
			}
			e = e.u8(was)
		}
	}
	return e
}

// remap keeps the samples the save kept, under their new numbers (carry.go).
func (a *relabel) remap(r renumbering, _ bool) action {
	b := &relabel{provenance: a.provenance}
	var was []bool
	for k, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx, b.to, b.old = append(b.idx, j), append(b.to, a.to[k]), append(b.old, a.old[k])
			was = append(was, a.wasAcc != nil && a.wasAcc[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	if slices.Contains(was, true) {
		b.wasAcc = was
	}
	return b
}

// logEvents: a label confirmed (an accepted suggestion given its own label) is not a change.
func (a *relabel) logEvents(_ *model, ev eventSink, _ bool) {
	for k, i := range a.idx {
		if a.old[k] != a.to[k] {
			ev.label(int(i), a.old[k], a.to[k])
		}
	}
}

// decodeRelabel decodes a relabel record's body: at least one sample, each once, in range, every
// label fitting the dtype.
func decodeRelabel(m *model, _ byte, r *dec) (action, error) {
	n := r.count(8)
	if r.err == nil && n == 0 {
		return nil, errNoSample
	}
	a := &relabel{idx: make([]int32, n), to: make([]int32, n)}
	for k := range n {
		a.idx[k], a.to[k] = r.i32(), r.i32()
		inRange(r, "relabel of", a.idx[k], len(m.labels))
		if r.err == nil {
			if err := m.checkLabel(int(a.to[k])); err != nil {
				return nil, fmt.Errorf("relabel of sample %d: %w", a.idx[k], err)
			}
		}
	}
	if r.err == nil {
		r.err = distinct(a.idx)
	}
	return a, r.err
}

// historyRelabel decodes a relabel step of a history record: every label fitting the dtype (a
// label before may also be sample.NoLabel), at least one sample, none twice.
func historyRelabel(m *model, r *dec, _ bool) (action, error) {
	return historyRelabelOf(m, r, false)
}

// historyRelabelAccepted decodes a relabel step of a history record whose samples' labels
// before may be accepted suggestions: as historyRelabel, each sample followed by its mark
// before (0 or 1).
func historyRelabelAccepted(m *model, r *dec, _ bool) (action, error) {
	return historyRelabelOf(m, r, true)
}

// historyRelabelOf decodes a relabel step, with the marks before when acc says so.
func historyRelabelOf(m *model, r *dec, acc bool) (action, error) {
	size := 12
	if acc {
		size = 13
	}
	n := r.count(size)
	b := &relabel{idx: make([]int32, n), to: make([]int32, n), old: make([]int32, n)}
	if acc {
		b.wasAcc = make([]bool, n)
	}
	for k := range n {
		b.idx[k], b.to[k], b.old[k] = r.i32(), r.i32(), r.i32()
		if acc {
			switch r.u8() {
			case 0:
			case 1:
				b.wasAcc[k] = true
			default:
				if r.err == nil {
					r.err = fmt.Errorf("relabel of sample %d: an accepted mark neither 0 nor 1", b.idx[k])
				}
			}
		}
		historyLabel(m, r, b.to[k], false)
		historyLabel(m, r, b.old[k], true)
	}
	historySamples(r, b.idx)
	return b, r.err
}
