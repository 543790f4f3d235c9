package store

import (
	"slices"
	"testing"

	"idxlabel/idx"
	"idxlabel/sample"
)

// newTestModel returns a model of n 2×3 ubyte samples (labels i mod 10) made from arrays, with
// no file, no journal and no session around it.
func newTestModel(t *testing.T, n int) *model {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, 2, 3)
	for i := range images.Data {
		images.Data[i] = byte(i)
	}
	labels, _ := idx.New(idx.UByte, n)
	for i := range labels.Data {
		labels.Data[i] = byte(i % 10)
	}
	m := &model{subs: map[int]func(Change){}}
	if err := m.setBase("", "", images, labels, 0, 0, TransposeAuto); err != nil {
		t.Fatal(err)
	}
	return m
}

// apply builds and performs one step on m, as the session does once its record is journaled.
func apply(t *testing.T, m *model, a edit, err error) {
	t.Helper()
	if err != nil || a == nil {
		t.Fatalf("step not built: %v", err)
	}
	m.perform(a)
}

// The model alone does what edits do: relabel, delete, append, undo and redo change the samples,
// the counts and the clean state, and each change advances the generation.
func TestModelEditsUndoRedoAlone(t *testing.T) {
	m := newTestModel(t, 5)
	gen := m.Gen()

	a, err := newRelabel(m, HowBatch, []int{0, 1, 1}, []int{7, 7, 7})
	apply(t, m, a, err)
	if m.Label(0) != 7 || m.Label(1) != 7 || !m.State(1).Edited || !m.Dirty() {
		t.Fatalf("after relabel: labels %d %d, state %+v, dirty %v", m.Label(0), m.Label(1), m.State(1), m.Dirty())
	}
	if got := m.UndoName(); got != "Relabel 2 samples as 7" {
		t.Fatalf("undo name %q", got)
	}
	a, err = newSetDeleted(m, []int{2}, true)
	apply(t, m, a, err)
	px := []byte{1, 2, 3, 4, 5, 6}
	a, err = newAppend(m, HowAddedDrawn, []Sample{{Pixels: px, Label: 4}})
	apply(t, m, a, err)
	if m.Len() != 6 || !m.State(5).Added || !slices.Equal(m.Pixels(5), px) || !m.State(2).Deleted {
		t.Fatalf("after delete and append: len %d, states %+v %+v", m.Len(), m.State(2), m.State(5))
	}
	if c := m.Counters(); c.Samples != 6 || c.Deleted != 1 {
		t.Fatalf("counters %+v", c)
	}
	if m.Gen() != gen+3 {
		t.Fatalf("generation %d after 3 steps from %d", m.Gen(), gen)
	}

	for range 3 {
		m.performStep(true)
	}
	if m.Len() != 5 || m.Label(0) != 0 || m.Label(1) != 1 || m.State(2).Deleted || m.Dirty() {
		t.Fatalf("after undoing all: len %d, labels %d %d, deleted %v, dirty %v", m.Len(), m.Label(0), m.Label(1), m.State(2).Deleted, m.Dirty())
	}
	m.performStep(false)
	if m.Label(0) != 7 || m.RedoName() != "Delete sample 2" {
		t.Fatalf("after a redo: label %d, redo name %q", m.Label(0), m.RedoName())
	}
}

// The model checks a step against its samples before it exists: nothing changes for a bad
// index, a label the dtype cannot hold, a sample of the wrong size, or a step with nothing to do.
func TestModelRefusesBadSteps(t *testing.T) {
	m := newTestModel(t, 3)
	if _, err := newRelabel(m, HowManual, []int{3}, []int{1}); err == nil {
		t.Error("relabel of sample 3 of 3 accepted")
	}
	if _, err := newRelabel(m, HowManual, []int{0}, []int{256}); err == nil {
		t.Error("label 256 accepted for ubyte labels")
	}
	if _, err := newAppend(m, HowAddedDrawn, []Sample{{Pixels: make([]byte, 5), Label: 1}}); err == nil {
		t.Error("a sample of 5 pixels accepted in a 2×3 dataset")
	}
	if a, err := newRelabel(m, HowManual, []int{0}, []int{0}); a != nil || err != nil {
		t.Errorf("relabel to the label it has: step %v, error %v", a, err)
	}
	if a, err := newSetDeleted(m, []int{1}, false); a != nil || err != nil {
		t.Errorf("restore of a sample not deleted: step %v, error %v", a, err)
	}
	if m.Dirty() || len(m.undo) != 0 || m.Label(0) != 0 {
		t.Fatalf("a refused step changed the model: dirty %v, %d steps", m.Dirty(), len(m.undo))
	}
	if m.State(0).Original != 0 || m.OriginalLabel(2) != 2 || m.Label(2) == sample.NoLabel {
		t.Fatalf("labels as read: %+v", m.State(0))
	}
}
