package store

import (
	"fmt"
	"slices"

	"idxlabel/idx"
	"idxlabel/sample"
)

// What the model gives a save (save.go): whether it has labels to write, whether its image data
// is the base unchanged, the label array of the samples kept, its dtype, and the renumbering a
// save makes. The images are assembled by Dataset.planImages (save.go). Every method here runs
// with m.mu held except AnyLabelled, which takes it.

// AnyLabelled reports whether a sample that is not deleted has a label: a save then writes a
// label file (see SaveAsContext). O(N).
func (m *model) AnyLabelled() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.anyLabelled()
}

// anyLabelled reports whether a kept sample has a label (m.mu held).
func (m *model) anyLabelled() bool {
	for i, l := range m.labels {
		if l != sample.NoLabel && !m.deleted[i] {
			return true
		}
	}
	return false
}

// imagesUnchanged reports whether the image data to save is the base as read or last saved: no
// sample appended or deleted (m.mu held). Samples' pixels never change otherwise.
func (m *model) imagesUnchanged() bool {
	return len(m.labels) == m.baseN && !slices.Contains(m.deleted, true)
}

// buildLabels assembles the label array for the kept samples (m.mu held). The dtype is the label
// file's, except where idxlabel chose it (ownLabels: images opened alone, or a label file it
// wrote holding "no label"), where newLabelType chooses again. A sample without a label is
// stored as sample.NoLabel (−2147483648, int32's least value, which no class uses), and only in an
// int32 file of idxlabel's own: a file of the person's dtype that cannot hold it is refused
// rather than widened. Errors: a sample without a label that the dtype cannot hold, and a label
// the dtype cannot hold (labelRange), which is refused rather than written wrapped.
func (m *model) buildLabels(kept []int) (*idx.Array, error) {
	h := m.labelHeader
	if m.ownLabels {
		h = idx.Header{Type: m.newLabelType(kept), Dims: []int{0}}
	}
	lo, hi := labelRange(h)
	for _, i := range kept {
		// A sample without a label: images opened alone, or labelled, saved, and the labelling undone.
		if m.labels[i] == sample.NoLabel {
			if h.Type == idx.Int32 && h.Rank() == 1 {
				continue
			}
			return nil, fmt.Errorf("sample %d has no label, and the labels' dtype %s cannot store \"no label\": label it or delete it; nothing was saved", i, h.Type)
		}
		if l := int(m.labels[i]); l < lo || l > hi {
			return nil, fmt.Errorf("sample %d has label %d, which the labels' dtype %s cannot hold (%d–%d); nothing was saved", i, l, h.Type, lo, hi)
		}
	}
	dims := slices.Clone(h.Dims)
	dims[0] = len(kept)
	labels, err := idx.New(h.Type, dims...)
	if err != nil {
		return nil, err
	}
	cols := labels.Stride()
	row := cols * h.Type.Size()
	for k, i := range kept {
		if i < m.baseN && m.labelData != nil && !m.ownLabels { // QMNIST's other columns
			copy(labels.Data[k*row:(k+1)*row], m.labelData[i*row:(i+1)*row])
		}
		labels.SetInt(k*cols, int64(m.labels[i]))
	}
	return labels, nil
}

// newLabelType returns the dtype of the first label file of images opened alone (m.mu held):
// ubyte when every label it may ever have to hold fits 0–255, int32 otherwise. Those are the
// kept samples' labels and every label on the undo and redo stacks, which outlive the save
// (carry.go) and are checked against this dtype from then on: an undo after the save may bring
// back a label of 300, which a ubyte file would store as 300 mod 256.
func (m *model) newLabelType(kept []int) idx.DType {
	wide := func(l int32) bool { return l > 255 } // sample.NoLabel, the only negative label here, fits
	for _, i := range kept {
		if wide(m.labels[i]) || m.labels[i] == sample.NoLabel {
			return idx.Int32 // sample.NoLabel is stored as int32's least value
		}
	}
	for _, a := range slices.Concat(m.undo, m.redo) {
		if slices.ContainsFunc(a.labelsSet(), wide) {
			return idx.Int32
		}
	}
	return idx.UByte
}

// renumber returns, for every sample now, its number once a save has left out the deleted
// samples: -1 for a deleted one (m.mu held).
func (m *model) renumber() []int {
	out := make([]int, len(m.deleted))
	k := 0
	for i, del := range m.deleted {
		out[i] = -1
		if !del {
			out[i] = k
			k++
		}
	}
	return out
}
