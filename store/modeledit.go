package store

import (
	"fmt"
	"math"

	"idxlabel/idx"
	"idxlabel/sample"
)

// What an edit does to the model, and undo and redo: the model builds a step from a request,
// checking it against the samples (newRelabel, newDecide, newAppend, newSetDeleted), and applies
// it (perform) or moves it between the stacks (performStep). It takes every step it is given:
// whether the dataset takes edits at all, and the journal record that must be synced first, are
// the session's (Dataset.edit, Dataset.commit in edit.go). Every method here runs with m.mu held
// except UndoName and RedoName, which take it.

// Sample is one new sample to append: Height×Width display pixels (row-major, 0 = background,
// 255 = ink, as shown, not transposed), its label, and its source: the file it was imported
// from, a slash-separated path relative to the folder imported ("" for a drawn sample).
type Sample struct {
	Pixels []byte
	Label  int
	Source string
}

// newRelabel returns the step that sets sample indices[k] to labels[k] for every k, leaving out
// samples that already have their label and repeats; nil when none is left. Errors: indices and
// labels of different lengths, an index out of range, a label the dtype cannot hold.
func (m *model) newRelabel(how How, indices, labels []int) (edit, error) {
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

// newDecide returns the step of a review's decision: sample i gets label and is marked
// reviewed. Errors: an index out of range, a label the dtype cannot hold.
func (m *model) newDecide(how How, i, label int) (edit, error) {
	if err := m.checkIndex(i); err != nil {
		return nil, err
	}
	if err := m.checkLabel(label); err != nil {
		return nil, err
	}
	return &decide{provenance: madeNow(how), i: int32(i), to: int32(label)}, nil
}

// newAppend returns the step that appends samples (display pixels, stored transposed when the
// model is) at the end. Errors: a sample with the wrong number of pixels, a label the dtype
// cannot hold.
func (m *model) newAppend(how How, samples []Sample) (edit, error) {
	n := m.h * m.w
	a := &appendSamples{provenance: madeNow(how), labels: make([]int32, len(samples)), pixels: make([]byte, 0, n*len(samples))}
	h, w := m.Size()
	for k, s := range samples {
		if len(s.Pixels) != n {
			return nil, fmt.Errorf("sample %d has %d pixels; this dataset's samples are %d×%d = %d", k, len(s.Pixels), m.h, m.w, n)
		}
		if err := m.checkLabel(s.Label); err != nil {
			return nil, err
		}
		a.labels[k] = int32(s.Label)
		a.pixels = sample.AppendStored(a.pixels, s.Pixels, h, w, m.transposed)
	}
	return a, nil
}

// newSetDeleted returns the step that marks samples deleted (to) or restores them, leaving out
// those already so and repeats; nil when none is left. Errors: an index out of range.
func (m *model) newSetDeleted(indices []int, to bool) (edit, error) {
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

// perform applies a, pushes it on the undo stack and clears redo (m.mu held). When the state
// the files hold was only reachable by redoing, it is not any more (see Dirty).
func (m *model) perform(a action) Change {
	ch := m.changed(a.apply(m))
	if m.clean > len(m.undo) {
		m.clean = -1
	}
	m.undo = append(m.undo, a)
	m.redo = m.redo[:0]
	return ch
}

// performStep moves the top action from the undo stack to redo (reverting it) or back
// (re-applying it); the stack must not be empty (m.mu held).
func (m *model) performStep(undo bool) (action, Change) {
	from, to := &m.redo, &m.undo
	if undo {
		from, to = &m.undo, &m.redo
	}
	a := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	var ch Change
	if undo {
		ch = a.revert(m)
	} else {
		ch = a.apply(m)
	}
	ch = m.changed(ch)
	*to = append(*to, a)
	return a, ch
}

// UndoName and RedoName describe what Undo and Redo would do ("Relabel 3 samples as 7", "Delete
// 5,923 samples": counts and sample numbers with thousands separators, as the window writes
// them, numfmt), or "" when there is nothing; for menu items.
func (m *model) UndoName() string { return m.topName(true) }

// RedoName: see UndoName.
func (m *model) RedoName() string { return m.topName(false) }

func (m *model) topName(undo bool) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := m.redo
	if undo {
		s = m.undo
	}
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1].String()
}

func (m *model) checkIndex(i int) error {
	if i < 0 || i >= len(m.labels) {
		return fmt.Errorf("sample %d does not exist (the dataset has %d)", i, len(m.labels))
	}
	return nil
}

// checkLabel refuses labels the label file's dtype cannot hold.
func (m *model) checkLabel(l int) error {
	h := m.labelHeader
	if m.ownLabels {
		h = idx.Header{} // any label: the next save chooses a dtype that holds it
	}
	lo, hi := labelRange(h)
	if l < lo || l > hi {
		return fmt.Errorf("label %d does not fit the labels' dtype %s (%d–%d)", l, m.labelHeader.Type, lo, hi)
	}
	return nil
}

// labelRange returns the labels a label file of header h can hold; an unlabelled dataset takes
// 0–MaxInt32 (it is saved as ubyte or int32, whichever fits).
func labelRange(h idx.Header) (int, int) {
	switch h.Type {
	case idx.UByte:
		return 0, 255
	case idx.SByte:
		return math.MinInt8, math.MaxInt8
	case idx.Int16:
		return math.MinInt16, math.MaxInt16
	case idx.Int32:
		return math.MinInt32 + 1, math.MaxInt32
	}
	return 0, math.MaxInt32
}
