// Package confusion holds a dataset's confusion matrix: rows the given labels, columns the
// classes a model predicts out of fold (the argmax of a CNN scan's out-of-fold probabilities),
// each cell the number of samples with that label and that prediction; with the per-class
// figures beside it and the samples of each cell. It follows edits as they are made: a relabel
// or a deletion moves one sample between cells in O(1). It never imports Fyne.
package confusion

import (
	"errors"
	"fmt"
	"idxlabel/sample"
	"slices"
)

// ErrShape reports inputs whose sizes do not fit together (probabilities that are not
// N×classes, no classes, a sample index out of range).
var ErrShape = errors.New("confusion: shape mismatch")

// Matrix is a confusion matrix that follows edits. Rows are the given labels (Rows, ascending;
// a row is added when a sample is relabelled to a label no row has), columns the predicted
// classes (Cols, ascending: the classes the model was trained on). Samples without a label
// (sample.NoLabel) and excluded (deleted) samples are in no cell. The zero value is not usable:
// build one with New. A Matrix is not safe for concurrent use.
type Matrix struct {
	Cols []int // the predicted classes, ascending
	Rows []int // the given labels that have a row, ascending

	pred   []int32 // per sample: column index
	label  []int32 // per sample: its given label (sample.NoLabel for none)
	out    []bool  // per sample: excluded (deleted)
	row    map[int32]int
	counts [][]int     // Rows×Cols
	cells  [][][]int32 // Rows×Cols: the cell's samples, in no particular order
	pos    []int32     // per sample: its place in its cell's list (−1: in no cell)
}

// New builds the matrix of n samples from their given labels (sample.NoLabel for none) and a
// model's out-of-fold class probabilities probs, n×len(classes) (row i for sample i; a CNN
// scan's CNNResult.Probs and Classes): sample i's predicted class is the class of its highest
// probability (the first on ties). Growth: O(N·C) time, O(N + R·C) memory for R rows and C
// columns. Errors: ErrShape when probs is not len(labels)×len(classes), classes is empty, or
// classes is not strictly ascending.
func New(labels []int, probs []float32, classes []int) (*Matrix, error) {
	n, c := len(labels), len(classes)
	if c == 0 || len(probs) != n*c {
		return nil, fmt.Errorf("%w: %d probabilities for %d samples of %d classes", ErrShape, len(probs), n, c)
	}
	for k := 1; k < c; k++ {
		if classes[k] <= classes[k-1] {
			return nil, fmt.Errorf("%w: classes %v are not strictly ascending", ErrShape, classes)
		}
	}
	m := &Matrix{Cols: slices.Clone(classes), pred: make([]int32, n), label: make([]int32, n),
		out: make([]bool, n), pos: make([]int32, n), row: map[int32]int{}}
	for i := range n {
		p := probs[i*c : (i+1)*c]
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		m.pred[i] = int32(best)
		m.label[i] = int32(labels[i])
		m.pos[i] = -1
		if labels[i] != sample.NoLabel {
			if _, ok := m.row[int32(labels[i])]; !ok {
				m.row[int32(labels[i])] = -1
			}
		}
	}
	for l := range m.row {
		m.Rows = append(m.Rows, int(l))
	}
	slices.Sort(m.Rows)
	for r, l := range m.Rows {
		m.row[int32(l)] = r
	}
	m.counts = make([][]int, len(m.Rows))
	m.cells = make([][][]int32, len(m.Rows))
	for r := range m.Rows {
		m.counts[r] = make([]int, c)
		m.cells[r] = make([][]int32, c)
	}
	for i := range n {
		m.enter(i)
	}
	return m, nil
}

// N returns the number of samples the matrix was built for.
func (m *Matrix) N() int { return len(m.pred) }

// enter puts sample i into its cell, if it has one.
func (m *Matrix) enter(i int) {
	if m.label[i] == sample.NoLabel || m.out[i] {
		return
	}
	r, col := m.row[m.label[i]], m.pred[i]
	m.counts[r][col]++
	m.pos[i] = int32(len(m.cells[r][col]))
	m.cells[r][col] = append(m.cells[r][col], int32(i))
}

// leave takes sample i out of its cell, if it is in one: the cell's last sample takes its
// place in the list.
func (m *Matrix) leave(i int) {
	p := m.pos[i]
	if p < 0 {
		return
	}
	r, col := m.row[m.label[i]], m.pred[i]
	list := m.cells[r][col]
	last := list[len(list)-1]
	list[p] = last
	m.pos[last] = p
	m.cells[r][col] = list[:len(list)-1]
	m.pos[i] = -1
	m.counts[r][col]--
}

// Relabel records that sample i's given label is now label (sample.NoLabel: none): it leaves
// its cell and enters the cell of its new row, in O(1), or O(R·C) when label has no row yet (a
// row is inserted in order; Rows changes). Errors: ErrShape when i is out of range.
func (m *Matrix) Relabel(i, label int) error {
	if i < 0 || i >= len(m.pred) {
		return fmt.Errorf("%w: sample %d of %d", ErrShape, i, len(m.pred))
	}
	m.leave(i)
	m.label[i] = int32(label)
	if _, ok := m.row[int32(label)]; !ok && label != sample.NoLabel {
		m.addRow(label)
	}
	m.enter(i)
	return nil
}

// Exclude records that sample i is deleted (true) or restored (false): an excluded sample is
// in no cell. O(1). Errors: ErrShape when i is out of range.
func (m *Matrix) Exclude(i int, excluded bool) error {
	if i < 0 || i >= len(m.pred) {
		return fmt.Errorf("%w: sample %d of %d", ErrShape, i, len(m.pred))
	}
	m.leave(i)
	m.out[i] = excluded
	m.enter(i)
	return nil
}

// addRow inserts an empty row for label, keeping Rows ascending.
func (m *Matrix) addRow(label int) {
	r, _ := slices.BinarySearch(m.Rows, label)
	m.Rows = slices.Insert(m.Rows, r, label)
	m.counts = slices.Insert(m.counts, r, make([]int, len(m.Cols)))
	m.cells = slices.Insert(m.cells, r, make([][]int32, len(m.Cols)))
	for k, l := range m.Rows {
		m.row[int32(l)] = k
	}
}

// Count returns the number of samples given label and predicted class: 0 when either has no
// row or column.
func (m *Matrix) Count(label, class int) int {
	r, ok := m.row[int32(label)]
	c, found := slices.BinarySearch(m.Cols, class)
	if !ok || !found || label == sample.NoLabel {
		return 0
	}
	return m.counts[r][c]
}

// Counts returns the matrix as counts, Rows×Cols (row r for label Rows[r], column c for class
// Cols[c]); a copy.
func (m *Matrix) Counts() [][]int {
	out := make([][]int, len(m.counts))
	for r, row := range m.counts {
		out[r] = slices.Clone(row)
	}
	return out
}

// Cell returns the samples given label and predicted class, ascending: what the grid shows
// when the person picks that cell. O(k log k) for a cell of k samples; nil when either has no
// row or column.
func (m *Matrix) Cell(label, class int) []int {
	r, ok := m.row[int32(label)]
	c, found := slices.BinarySearch(m.Cols, class)
	if !ok || !found || label == sample.NoLabel {
		return nil
	}
	out := make([]int, len(m.cells[r][c]))
	for k, i := range m.cells[r][c] {
		out[k] = int(i)
	}
	slices.Sort(out)
	return out
}

// In reports whether sample i is in the cell of label and class now (a relabelled sample has
// left its old cell). O(1).
func (m *Matrix) In(i, label, class int) bool {
	if i < 0 || i >= len(m.pred) || m.pos[i] < 0 {
		return false
	}
	return int(m.label[i]) == label && m.Cols[m.pred[i]] == class
}

// Predicted returns sample i's predicted class, and false when i is out of range.
func (m *Matrix) Predicted(i int) (int, bool) {
	if i < 0 || i >= len(m.pred) {
		return 0, false
	}
	return m.Cols[m.pred[i]], true
}

// Class is one row's figures: which classes are dirty.
type Class struct {
	Label   int // the given label
	Samples int // samples with this label (not excluded)
	// Correct is how many of them the model predicts as Label out of fold (the diagonal cell).
	Correct int
	// Suspects is how many of them the model predicts as another class out of fold:
	// Samples − Correct, the row's off-diagonal cells.
	Suspects int
	// Predicted is how many samples (of any label) the model predicts as Label (the column's
	// sum); 0 when the model has no such class.
	Predicted int
}

// Accuracy returns the out-of-fold accuracy of the class, Correct/Samples (0 for no samples).
func (c Class) Accuracy() float64 {
	if c.Samples == 0 {
		return 0
	}
	return float64(c.Correct) / float64(c.Samples)
}

// Classes returns the figures of every row, in the order of Rows. O(R·C).
func (m *Matrix) Classes() []Class {
	out := make([]Class, len(m.Rows))
	for r, label := range m.Rows {
		cl := Class{Label: label}
		diag, hasCol := slices.BinarySearch(m.Cols, label)
		for c, k := range m.counts[r] {
			cl.Samples += k
			if hasCol && c == diag {
				cl.Correct = k
			}
		}
		if hasCol {
			for rr := range m.Rows {
				cl.Predicted += m.counts[rr][diag]
			}
		}
		cl.Suspects = cl.Samples - cl.Correct
		out[r] = cl
	}
	return out
}
