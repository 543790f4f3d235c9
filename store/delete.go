package store

import "idxlabel/internal/numfmt"

// A deletion marks samples deleted (Delete): they stay, dimmed, until the next save removes them.
// A restore unmarks them (Restore). Both are one kind of step, setDeleted.
//
// Journal records (records.go): recDelete or recRestore, provenance, n u32, n × index u32.
// History step (history.go): hSetDeleted, provenance, deleted u8 (1 delete, 0 restore), n u32,
// n × index u32.
const (
	recDelete   byte = 4
	recRestore  byte = 5
	hSetDeleted byte = 2
)

func init() {
	register(editKind{decode: decodeSetDeleted, how: func(h How) bool { return h == HowDeleted }}, map[byte]func(*model, *dec, bool) (action, error){hSetDeleted: historySetDeleted}, recDelete)
	register(editKind{decode: decodeSetDeleted, how: func(h How) bool { return h == howRestore }}, nil, recRestore)
}

// setDeleted marks samples deleted (to = true) or restores them.
type setDeleted struct {
	provenance
	idx []int32
	to  bool
}

// newSetDeleted returns the step that marks samples deleted (to) or restores them, leaving out
// those already so and repeats; nil when none is left. Errors: an index out of range.
func newSetDeleted(m *model, indices []int, to bool) (edit, error) {
	a := &setDeleted{provenance: madeNow(HowDeleted), to: to}
	if !to {
		a.how = howRestore
	}
	seen := map[int]bool{}
	for _, i := range indices {
		if err := m.checkIndex(i); err != nil {
			return nil, err
		}
		if m.deleted[i] != to && !seen[i] {
			seen[i] = true
			a.idx = append(a.idx, int32(i))
		}
	}
	if len(a.idx) == 0 {
		return nil, nil
	}
	return a, nil
}

func (a *setDeleted) apply(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = a.to
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *setDeleted) revert(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = !a.to
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *setDeleted) String() string {
	verb := "Delete"
	if !a.to {
		verb = "Restore"
	}
	if len(a.idx) == 1 {
		return numfmt.Sprintf("%s sample %d", verb, a.idx[0])
	}
	return numfmt.Sprintf("%s %d samples", verb, len(a.idx))
}

func (a *setDeleted) kind() byte {
	if a.to {
		return recDelete
	}
	return recRestore
}

func (a *setDeleted) named() []int32     { return a.idx }
func (a *setDeleted) labelsSet() []int32 { return nil }

func (a *setDeleted) undoneStays() bool { return false }
func (a *setDeleted) appends() int      { return 0 }
func (a *setDeleted) reviews() []int32  { return nil }

func (a *setDeleted) record() []byte {
	e := enc{a.kind()}.prov(a.provenance).u32(uint32(len(a.idx)))
	for _, i := range a.idx {
		e = e.u32(uint32(i))
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

// remap keeps the samples the save kept, under their new numbers (carry.go): a deletion the save
// made permanent leaves the history.
func (a *setDeleted) remap(r renumbering, _ bool) action {
	b := &setDeleted{provenance: a.provenance, to: a.to}
	for _, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx = append(b.idx, j)
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

// logEvents: a deletion removes its samples (with their labels now); a restore cancels their
// deletion.
func (a *setDeleted) logEvents(m *model, ev eventSink, inverse bool) {
	for _, i := range a.idx {
		if a.to != inverse {
			ev.remove(int(i), m.labels[i])
		} else {
			ev.restore(int(i))
		}
	}
}

// decodeSetDeleted decodes a deletion's or a restore's record body (t says which): at least one
// sample, each once, in range.
func decodeSetDeleted(m *model, t byte, r *dec) (action, error) {
	n := r.count(4)
	if r.err == nil && n == 0 {
		return nil, errNoSample
	}
	a := &setDeleted{idx: make([]int32, n), to: t == recDelete}
	for k := range n {
		a.idx[k] = r.i32()
		inRange(r, "deletion of", a.idx[k], len(m.labels))
	}
	if r.err == nil {
		r.err = distinct(a.idx)
	}
	return a, r.err
}

// historySetDeleted decodes a deletion or restore step of a history record: at least one sample,
// none twice.
func historySetDeleted(_ *model, r *dec, _ bool) (action, error) {
	b := &setDeleted{to: r.u8() == 1}
	n := r.count(4)
	b.idx = make([]int32, n)
	for k := range n {
		b.idx[k] = r.i32()
	}
	historySamples(r, b.idx)
	return b, r.err
}
