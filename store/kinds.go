package store

import (
	"fmt"
	"slices"

	"idxlabel/sample"
)

// Every kind of step has one file (relabel.go, decide.go, append.go, delete.go, savedappend.go)
// holding all of it: its type, how the model builds it from a request and checks it, applies and
// reverts it, names it (UndoName), carries it through a save (carry.go has the rules), encodes and
// decodes its journal record (records.go has the framework) and its step of a history record
// (history.go), which samples and labels it names, which Hows describe it and the events it adds
// to the change log (changelog.go). Each registers its decoders here when the package starts, so
// a new kind of edit touches its own file and its test.

// editKind is what a journal's replay knows of one record type: how to decode its body (after
// any provenance) into the step it journals, checked against the model (m.mu held), and which
// Hows describe it.
type editKind struct {
	decode func(m *model, t byte, r *dec) (action, error)
	how    func(h How) bool
}

// editKinds are the edit record types, by type byte; historyKinds the kinds of step of a history
// record, by kind byte, each decoding a step's fields (redo: the step is on the redo stack).
// Each kind's file registers its own (register).
var (
	editKinds    = map[byte]editKind{}
	historyKinds = map[byte]func(m *model, r *dec, redo bool) (action, error){}
)

// register records a kind's record types (each decoded by k) and, unless history is nil, its
// kind of history step; called by each kind's file when the package starts.
func register(k editKind, history map[byte]func(m *model, r *dec, redo bool) (action, error), types ...byte) {
	for _, t := range types {
		if _, dup := editKinds[t]; dup {
			panic(fmt.Sprintf("store: record type %d registered twice", t))
		}
		editKinds[t] = k
	}
	for h, d := range history {
		if _, dup := historyKinds[h]; dup {
			panic(fmt.Sprintf("store: history step kind %d registered twice", h))
		}
		historyKinds[h] = d
	}
}

// checkHow refuses a How that does not describe an edit of record type t (each kind says which
// do: a label change is manual, batch, suspect-accepted or suggested-accepted; an append
// added-drawn or added-imported; a deletion deleted; a restore has none of its own). HowUnknown
// fits every type (old journals). It is the one rule for the API and for journal records.
func checkHow(t byte, h How) error {
	k, ok := editKinds[t]
	if h != HowUnknown && (!ok || !k.how(h)) {
		return fmt.Errorf("how %q does not describe this kind of edit", h)
	}
	return nil
}

// errNoSample: a journaled step names no sample. An edit of no sample is never made (Relabel,
// Delete, Restore and Append of nothing do nothing), so such a record is damage; accepted, its
// name (UndoName) would have nothing to name.
var errNoSample = fmt.Errorf("a step on no sample")

// distinct returns an error when a journaled step names a sample twice. An edit names each
// sample once (SetLabels, Delete and Restore leave repeats out, a save's renumbering keeps
// numbers apart); a relabel naming one twice would be undone wrong (its revert restores the
// labels before it in order, the second of them being the first's result).
func distinct(idx []int32) error {
	s := slices.Clone(idx)
	slices.Sort(s)
	for k := 1; k < len(s); k++ {
		if s[k] == s[k-1] {
			return fmt.Errorf("a step naming sample %d twice", s[k])
		}
	}
	return nil
}

// inRange checks, for a record being decoded (unless r.err is set already), that sample i is
// one of the n samples; what names the step in the error ("relabel of", "decision on").
func inRange(r *dec, what string, i int32, n int) {
	if r.err == nil && (i < 0 || int(i) >= n) {
		r.err = fmt.Errorf("%s sample %d, beyond the %d samples", what, i, n)
	}
}

// historyLabel checks a label of a history step (unless r.err is set already): it must fit the
// dtype; a label before may also be sample.NoLabel (samples that had none before a save wrote
// labels).
func historyLabel(m *model, r *dec, l int32, before bool) {
	if r.err == nil && !(before && l == sample.NoLabel) {
		if err := m.checkLabel(int(l)); err != nil {
			r.err = err
		}
	}
}

// historySamples checks a history step's sample numbers as decodeEdit does (unless r.err is set
// already): at least one, none twice.
func historySamples(r *dec, idx []int32) {
	if r.err == nil && len(idx) == 0 {
		r.err = errNoSample
	}
	if r.err == nil {
		r.err = distinct(idx)
	}
}

func labelText(l int32) string {
	if l == sample.NoLabel {
		return "none"
	}
	return fmt.Sprint(l)
}

func same(s []int32) bool { return !slices.ContainsFunc(s, func(v int32) bool { return v != s[0] }) }

func ints(s []int32) []int {
	out := make([]int, len(s))
	for k, v := range s {
		out[k] = int(v)
	}
	return out
}

func span(from, to int) []int {
	out := make([]int, to-from)
	for k := range out {
		out[k] = from + k
	}
	return out
}

// provOf returns a's provenance (every action has one).
func provOf(a action) *provenance {
	if p, ok := a.(interface{ prov() *provenance }); ok {
		return p.prov()
	}
	return &provenance{}
}
