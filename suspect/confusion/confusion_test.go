package confusion

import (
	"errors"
	"idxlabel/sample"
	"math/rand/v2"
	"slices"
	"testing"
)

// hand is a case worked by hand: 8 samples, classes 0, 1, 2; sample 6 has no label.
//
//	sample:    0  1  2  3  4  5  6  7
//	label:     0  0  1  1  1  2  –  2
//	predicted: 0  1  1  1  2  0  2  2
//
// Rows 0, 1, 2; counts: row 0 = [1 1 0], row 1 = [0 2 1], row 2 = [1 0 1].
func hand(t *testing.T) *Matrix {
	t.Helper()
	labels := []int{0, 0, 1, 1, 1, 2, sample.NoLabel, 2}
	pred := []int{0, 1, 1, 1, 2, 0, 2, 2}
	probs := make([]float32, 8*3)
	for i, p := range pred {
		probs[i*3+p] = 0.8
		probs[i*3+(p+1)%3] = 0.15 // a runner-up, so the argmax is what is tested
		probs[i*3+(p+2)%3] = 0.05
	}
	m, err := New(labels, probs, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCountsByHand(t *testing.T) {
	m := hand(t)
	want := [][]int{{1, 1, 0}, {0, 2, 1}, {1, 0, 1}}
	if got := m.Counts(); !slices.EqualFunc(got, want, slices.Equal) || !slices.Equal(m.Rows, []int{0, 1, 2}) {
		t.Fatalf("rows %v, counts %v; want [0 1 2], %v", m.Rows, got, want)
	}
	wantClasses := []Class{
		{Label: 0, Samples: 2, Correct: 1, Suspects: 1, Predicted: 2},
		{Label: 1, Samples: 3, Correct: 2, Suspects: 1, Predicted: 3},
		{Label: 2, Samples: 2, Correct: 1, Suspects: 1, Predicted: 2},
	}
	if got := m.Classes(); !slices.Equal(got, wantClasses) {
		t.Fatalf("classes %+v, want %+v", got, wantClasses)
	}
	if a := m.Classes()[1].Accuracy(); a != 2.0/3 {
		t.Errorf("class 1 accuracy %v, want 2/3", a)
	}
	if got := m.Cell(1, 1); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("cell (1, 1) = %v, want [2 3]", got)
	}
	if got := m.Cell(2, 0); !slices.Equal(got, []int{5}) {
		t.Errorf("cell (2, 0) = %v, want [5]", got)
	}
	if m.Cell(7, 0) != nil || m.Count(0, 9) != 0 || m.Count(sample.NoLabel, 2) != 0 {
		t.Error("a label or class without a row or column has samples")
	}
}

// TestEditsMoveSamples relabels and deletes samples of the hand case and checks counts,
// cells and figures after each, against the hand-worked values.
func TestEditsMoveSamples(t *testing.T) {
	m := hand(t)
	// Sample 5 (label 2, predicted 0) is relabelled 0: it leaves cell (2, 0) for (0, 0).
	if err := m.Relabel(5, 0); err != nil {
		t.Fatal(err)
	}
	if got := m.Cell(2, 0); len(got) != 0 || m.In(5, 2, 0) || !m.In(5, 0, 0) {
		t.Fatalf("after relabelling 5: cell (2, 0) = %v, In(5, 0, 0) = %v", got, m.In(5, 0, 0))
	}
	if got := m.Cell(0, 0); !slices.Equal(got, []int{0, 5}) || m.Count(0, 0) != 2 {
		t.Fatalf("cell (0, 0) = %v (count %d), want [0 5]", got, m.Count(0, 0))
	}
	// Sample 6 (no label, predicted 2) gets label 2; sample 2 is deleted.
	if err := m.Relabel(6, 2); err != nil {
		t.Fatal(err)
	}
	if err := m.Exclude(2, true); err != nil {
		t.Fatal(err)
	}
	want := [][]int{{2, 1, 0}, {0, 1, 1}, {0, 0, 2}}
	if got := m.Counts(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("counts %v, want %v", got, want)
	}
	// A new label gets a row in order; removing a label takes the sample out.
	if err := m.Relabel(7, 5); err != nil {
		t.Fatal(err)
	}
	if err := m.Relabel(0, sample.NoLabel); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Rows, []int{0, 1, 2, 5}) || m.Count(5, 2) != 1 || m.Count(0, 0) != 1 {
		t.Fatalf("rows %v, counts %v", m.Rows, m.Counts())
	}
	if c := m.Classes()[3]; c != (Class{Label: 5, Samples: 1, Suspects: 1}) {
		t.Errorf("class 5 (no column): %+v", c)
	}
	// Restore sample 2.
	if err := m.Exclude(2, false); err != nil {
		t.Fatal(err)
	}
	if got := m.Cell(1, 1); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("restored: cell (1, 1) = %v", got)
	}
	if m.Relabel(8, 0) == nil || m.Exclude(-1, true) == nil {
		t.Error("an index out of range is accepted")
	}
}

// TestEditsMatchRebuild applies random relabels and deletions to a random matrix and checks,
// after each, that it equals a matrix built afresh from the edited labels.
func TestEditsMatchRebuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n, c = 300, 4
	labels := make([]int, n)
	probs := make([]float32, n*c)
	for i := range n {
		labels[i] = rng.IntN(c)
		for k := range c {
			probs[i*c+k] = rng.Float32()
		}
	}
	m, err := New(labels, probs, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	deleted := make([]bool, n)
	for step := range 500 {
		i := rng.IntN(n)
		if rng.IntN(4) == 0 {
			deleted[i] = !deleted[i]
			if err := m.Exclude(i, deleted[i]); err != nil {
				t.Fatal(err)
			}
		} else {
			labels[i] = rng.IntN(c+1) - 1
			if labels[i] < 0 {
				labels[i] = sample.NoLabel
			}
			if err := m.Relabel(i, labels[i]); err != nil {
				t.Fatal(err)
			}
		}
		if step%50 != 49 {
			continue
		}
		kept := slices.Clone(labels)
		for j := range n {
			if deleted[j] {
				kept[j] = sample.NoLabel
			}
		}
		fresh, err := New(kept, probs, []int{0, 1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range m.Rows {
			for _, k := range m.Cols {
				if !slices.Equal(m.Cell(l, k), fresh.Cell(l, k)) {
					t.Fatalf("step %d: cell (%d, %d) = %v, rebuilt %v", step, l, k, m.Cell(l, k), fresh.Cell(l, k))
				}
			}
		}
	}
}

func TestNewRefuses(t *testing.T) {
	if _, err := New([]int{0, 1}, make([]float32, 3), []int{0, 1}); !errors.Is(err, ErrShape) {
		t.Errorf("3 probabilities for 2×2: %v", err)
	}
	if _, err := New([]int{0}, nil, nil); !errors.Is(err, ErrShape) {
		t.Errorf("no classes: %v", err)
	}
	if _, err := New([]int{0}, make([]float32, 2), []int{1, 0}); !errors.Is(err, ErrShape) {
		t.Errorf("descending classes: %v", err)
	}
}
