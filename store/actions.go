package store

import (
	"fmt"
	"slices"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
)

// action is one step on the undo or redo stack. apply and revert run with m.mu held; remap
// carries it through a save (carry.go) and history encodes it for the journal begun after one
// (history.go).
type action interface {
	apply(m *model) Change
	revert(m *model) Change
	String() string
	remap(r renumbering, applied bool) action
	history(e enc) enc
}

// edit is an action a person makes (not one a save turned into another): record is its journal
// payload (see journal.go).
type edit interface {
	action
	record() []byte
}

// relabel sets the labels of some samples; old is filled in when it is first applied.
type relabel struct {
	provenance
	idx []int32
	to  []int32
	old []int32
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

// appendSamples adds samples at the end; pixels are in stored order. first is where the
// samples went when it was last applied.
type appendSamples struct {
	provenance
	labels []int32
	pixels []byte
	first  int
}

func (a *appendSamples) apply(m *model) Change {
	a.first = len(m.labels)
	m.labels = append(m.labels, a.labels...)
	m.deleted = append(m.deleted, make([]bool, len(a.labels))...)
	m.reviewed = append(m.reviewed, make([]bool, len(a.labels))...)
	m.added = append(m.added, a.pixels...)
	return Change{Kind: Appended, Indices: span(a.first, len(m.labels))}
}

// revert removes the samples from the end. Their pixels stay in m.added's old buffer for anyone
// who holds them (Pixels, Snapshot): the capacity is clipped, so the next append copies to a new
// buffer instead of writing over them.
func (a *appendSamples) revert(m *model) Change {
	n := len(m.labels) - len(a.labels)
	m.labels = m.labels[:n]
	m.deleted = m.deleted[:n]
	m.reviewed = m.reviewed[:n]
	k := len(m.added) - len(a.pixels)
	m.added = m.added[:k:k]
	return Change{Kind: Truncated, Indices: span(n, n+len(a.labels))}
}

func (a *appendSamples) String() string { return appendName(a.labels) }

// appendName describes an append of samples with these labels, before and after a save.
func appendName(labels []int32) string {
	if len(labels) == 1 {
		return "Add a sample labelled " + labelText(labels[0])
	}
	return numfmt.Sprintf("Add %d samples", len(labels))
}

// setDeleted marks samples deleted (to = true) or restores them.
type setDeleted struct {
	provenance
	idx []int32
	to  bool
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

// decide records a review decision on one sample: its label (changed or kept) and that it was
// reviewed.
type decide struct {
	provenance
	i, to, old  int32
	wasReviewed bool
}

func (a *decide) apply(m *model) Change {
	a.old, a.wasReviewed = m.labels[a.i], m.reviewed[a.i]
	m.labels[a.i], m.reviewed[a.i] = a.to, true
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) revert(m *model) Change {
	m.labels[a.i], m.reviewed[a.i] = a.old, a.wasReviewed
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) String() string {
	if a.to == a.old {
		return numfmt.Sprintf("Keep label %s of sample %d", labelText(a.to), a.i)
	}
	return numfmt.Sprintf("Relabel sample %d as %s (review)", a.i, labelText(a.to))
}

// stepLabels returns every label step a sets or restores when done or undone (sample.NoLabel among
// them when it restores the lack of a label).
func stepLabels(a action) []int32 {
	switch a := a.(type) {
	case *relabel:
		return slices.Concat(a.to, a.old)
	case *decide:
		return []int32{a.to, a.old}
	case *appendSamples:
		return a.labels
	case *savedAppend:
		return a.labels
	}
	return nil
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
