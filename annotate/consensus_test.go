package annotate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const x = NoLabel

// Majority takes a class only where more than half of the annotators who labelled the sample
// gave it; a tie or a spread has none; votes count the greatest number who agree.
func TestMajority(t *testing.T) {
	rows := [][]int32{
		{1, 1, 1, 1}, // all agree
		{1, 1, 1, 2}, // 3 of 4
		{1, 1, 2, 2}, // a tie: none
		{1, 2, 3, 4}, // a spread: none
		{1, 1, x, 2}, // 2 of 3
		{x, x, x, 7}, // 1 of 1
		{x, x, x, x}, // no label
		{5, x, 6, x}, // a tie of 1 and 1
	}
	want := []Vote{{1, 4, 4}, {1, 3, 4}, {x, 2, 4}, {x, 1, 4}, {1, 2, 3}, {7, 1, 1}, {x, 0, 0}, {x, 1, 2}}
	p := mustPanel(t, columns(rows))
	if got := p.Majority(); !slices.Equal(got, want) {
		t.Fatalf("majority %v, want %v", got, want)
	}
	if got := p.Disagreements(); !slices.Equal(got, []int{1, 2, 3, 4, 7}) {
		t.Fatalf("disagreements %v, want 1 2 3 4 7", got)
	}
	// One sample's labels, in another order and with labels past 65535 and below −1: the
	// same rule.
	for i, r := range rows {
		rev := slices.Clone(r)
		slices.Reverse(rev)
		if got := MajorityOf(rev); got != want[i] {
			t.Errorf("row %d: MajorityOf %v, want %v", i, got, want[i])
		}
	}
	if got, want := MajorityOf([]int32{70000, -5, 70000}), (Vote{70000, 2, 3}); got != want {
		t.Errorf("large labels: %v, want %v", got, want)
	}
	if got, want := MajorityOf([]int32{-5, -5, 3}), (Vote{-5, 2, 3}); got != want {
		t.Errorf("negative labels: %v, want %v", got, want)
	}
}

// A panel refuses fewer than two annotators and columns of different lengths, naming them.
func TestPanelErrors(t *testing.T) {
	if _, err := NewPanel([]Column{{Name: "a", Labels: []int32{1}}}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one annotator: %v", err)
	}
	_, err := NewPanel([]Column{{Name: "a", Labels: []int32{1, 2}}, {Name: "b", Labels: []int32{1}}})
	var ce *CountError
	if !errors.As(err, &ce) || err.Error() != "b has 1 labels, a has 2: annotators must label the same samples" {
		t.Errorf("different lengths: %v", err)
	}
	if p, err := NewPanel([]Column{{Labels: nil}, {Labels: nil}}); err != nil || p.Summary().Compared != 0 {
		t.Errorf("no samples: %v", err)
	}
}

// The confusion table between two annotators counts the samples both labelled; a cell lists its
// samples.
func TestConfusion(t *testing.T) {
	p := mustPanel(t, columns([][]int32{{1, 1}, {1, 2}, {2, 2}, {x, 1}, {300, 2}}))
	m, err := p.Confusion(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Classes, []int32{1, 2, 300}) || !slices.Equal(m.Counts, []int64{1, 1, 0, 0, 1, 0, 0, 1, 0}) {
		t.Fatalf("classes %v counts %v", m.Classes, m.Counts)
	}
	if got := p.Cell(0, 1, 300, 2); !slices.Equal(got, []int{4}) {
		t.Fatalf("cell (300, 2): %v", got)
	}
	if got := p.Cell(0, 1, x, 1); !slices.Equal(got, []int{3}) {
		t.Fatalf("cell (none, 1): %v", got)
	}
}

// simulate returns k annotators' labels of truth: annotator a gives the true class with
// probability acc[a], otherwise one of the other classes uniformly.
func simulate(truth []int32, classes int, acc []float64, seed uint64) []Column {
	rng := rand.New(rand.NewPCG(seed, 99))
	cols := make([]Column, len(acc))
	for a, p := range acc {
		cols[a].Labels = make([]int32, len(truth))
		for i, t := range truth {
			l := t
			if rng.Float64() >= p {
				l = int32(rng.IntN(classes - 1))
				if l >= t {
					l++
				}
			}
			cols[a].Labels[i] = l
		}
	}
	return cols
}

// accuracy returns the share of truth that votes get right (a sample without a label is wrong).
func accuracy(votes []Vote, truth []int32) float64 {
	right := 0
	for i, v := range votes {
		if v.Label == truth[i] {
			right++
		}
	}
	return float64(right) / float64(len(truth))
}

// Three simulated annotators of 95%, 85% and 70% accuracy on 20,000 generated samples of 10
// classes, three seeds: Dawid–Skene's labels are at least as accurate as the majority's, its
// estimate of each annotator's accuracy is within 0.01 of the truth, and it converges.
func TestDawidSkeneBeatsMajority(t *testing.T) {
	acc := []float64{0.95, 0.85, 0.70}
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		truth := make([]int32, 20000)
		for i := range truth {
			truth[i] = int32(rng.IntN(10))
		}
		p := mustPanel(t, simulate(truth, 10, acc, seed))
		est, err := p.DawidSkene(context.Background(), DSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		maj, ds := accuracy(p.Majority(), truth), accuracy(est.Votes, truth)
		t.Logf("seed %d: majority %.4f, Dawid–Skene %.4f (%d iterations); estimated accuracy %.4f", seed, maj, ds, est.Iterations, est.Accuracy)
		if ds < maj {
			t.Errorf("seed %d: Dawid–Skene %.4f below the majority %.4f", seed, ds, maj)
		}
		if !est.Converged {
			t.Errorf("seed %d: did not converge in %d iterations", seed, est.Iterations)
		}
		for a, want := range acc {
			if math.Abs(est.Accuracy[a]-want) > 0.01 {
				t.Errorf("seed %d: annotator %d's accuracy estimated %.4f, is %.2f", seed, a, est.Accuracy[a], want)
			}
		}
	}
}

// An annotator who never gives some classes (here: never 7, 8 or 9, and never labels a third
// of the samples) leaves no zero, NaN or infinity in the model: every probability is finite and
// positive, every row of a confusion matrix sums to 1, the run is deterministic, and its labels
// are at least as accurate as the majority's.
func TestDawidSkeneSmoothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	truth := make([]int32, 3000)
	for i := range truth {
		truth[i] = int32(rng.IntN(10))
	}
	cols := simulate(truth, 10, []float64{0.9, 0.8, 0.75}, 3)
	for i, l := range cols[2].Labels {
		if l >= 7 {
			cols[2].Labels[i] = 0
		}
		if i%3 == 0 {
			cols[2].Labels[i] = NoLabel
		}
	}
	p := mustPanel(t, cols)
	est, err := p.DawidSkene(context.Background(), DSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	C := len(est.Classes)
	for a, m := range est.Confusion {
		for r := range C {
			var sum float64
			for c := range C {
				v := m[r*C+c]
				if !(v > 0) || math.IsInf(v, 0) {
					t.Fatalf("annotator %d: P(%d | %d) = %v", a, c, r, v)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("annotator %d, true class %d: the row sums to %v", a, r, sum)
			}
		}
	}
	for a, v := range est.Accuracy {
		if math.IsNaN(v) || v <= 0 || v > 1 {
			t.Fatalf("annotator %d: accuracy %v", a, v)
		}
	}
	again, _ := p.DawidSkene(context.Background(), DSOptions{})
	if !slices.Equal(again.Votes, est.Votes) || !slices.Equal(again.Accuracy, est.Accuracy) || !slices.Equal(again.Confidence, est.Confidence) {
		t.Fatal("two runs differ")
	}
	if ds, maj := accuracy(est.Votes, truth), accuracy(p.Majority(), truth); ds < maj {
		t.Errorf("accuracy %.4f with the third annotator's gaps, below the majority's %.4f", ds, maj)
	}
}

// Dawid–Skene leaves a sample nobody labelled without a label, stops at MaxIterations
// (Converged false), refuses too many classes and stops when its context is cancelled.
func TestDawidSkeneEdges(t *testing.T) {
	p := mustPanel(t, columns([][]int32{{1, 1}, {x, x}, {2, 1}}))
	est, err := p.DawidSkene(context.Background(), DSOptions{MaxIterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if est.Votes[1] != (Vote{x, 0, 0}) || est.Confidence[1] != 0 || est.Iterations != 1 || est.Converged {
		t.Fatalf("votes %v confidence %v iterations %d converged %v", est.Votes, est.Confidence, est.Iterations, est.Converged)
	}
	big := make([]int32, MaxDSClasses+1)
	for i := range big {
		big[i] = int32(i)
	}
	if _, err := mustPanel(t, []Column{{Labels: big}, {Labels: big}}).DawidSkene(context.Background(), DSOptions{}); err == nil {
		t.Error("more than MaxDSClasses classes accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.DawidSkene(ctx, DSOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	empty := mustPanel(t, []Column{{Labels: []int32{x}}, {Labels: []int32{x}}})
	if est, err := empty.DawidSkene(context.Background(), DSOptions{}); err != nil || est.Votes[0].Label != x {
		t.Errorf("no label at all: %v %v", est, err)
	}
}
