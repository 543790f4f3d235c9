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
// before i32).
const (
	recRelabel byte = 2
	hRelabel   byte = 1
)

func init() {
	register(editKind{decode: decodeRelabel, how: labelHow}, map[byte]func(*model, *dec, bool) (action, error){hRelabel: historyRelabel}, recRelabel)
}

// relabel sets the labels of some samples; old is filled in when it is first applied.
type relabel struct {
	provenance
	idx []int32
	to  []int32
	old []int32
}

// newRelabel returns the step that sets sample indices[k] to labels[k] for every k, leaving out
// samples that already have their label and repeats; nil when none is left. Errors: indices and
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
		if int(m.labels[i]) != labels[k] && !seen[i] {
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
	for k, i := range a.idx {
		a.old[k] = m.labels[i]
		m.labels[i] = a.to[k]
	}
	return Change{Kind: Relabelled, Indices: ints(a.idx)}
}

func (a *relabel) revert(m *model) Change {
	for k, i := range a.idx {
		m.labels[i] = a.old[k]
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
	e = e.u8(hRelabel).prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.to[k]).i32(a.old[k])
	}
	return e
}

// remap keeps the samples the save kept, under their new numbers (carry.go).
func (a *relabel) remap(r renumbering, _ bool) action {
	b := &relabel{provenance: a.provenance}
	for k, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx, b.to, b.old = append(b.idx, j), append(b.to, a.to[k]), append(b.old, a.old[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

func (a *relabel) logEvents(_ *model, ev eventSink, _ bool) {
	for k, i := range a.idx {
		ev.label(int(i), a.old[k], a.to[k])
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
	n := r.count(12)
	b := &relabel{idx: make([]int32, n), to: make([]int32, n), old: make([]int32, n)}
	for k := range n {
		b.idx[k], b.to[k], b.old[k] = r.i32(), r.i32(), r.i32()
		historyLabel(m, r, b.to[k], false)
		historyLabel(m, r, b.old[k], true)
	}
	historySamples(r, b.idx)
	return b, r.err
}
