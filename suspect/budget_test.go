package suspect

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBudgeted checks the draw of a fold model's training samples: all of them up to the
// budget; above, budget distinct samples of the list, ascending, the same for the same seed
// and fold, another for another fold.
func TestBudgeted(t *testing.T) {
	train := make([]int, 0, 1000)
	for i := range 1500 {
		if i%3 != 0 {
			train = append(train, i)
		}
	}
	if got := budgeted(train, len(train), 1, 0); !slices.Equal(got, train) {
		t.Fatal("a list within the budget was changed")
	}
	if got := budgeted(train, -1, 1, 0); !slices.Equal(got, train) {
		t.Fatal("no budget changed the list")
	}
	got := budgeted(train, 300, 1, 0)
	if len(got) != 300 || !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != 300 {
		t.Fatalf("%d samples drawn (want 300 distinct, ascending)", len(got))
	}
	for _, i := range got {
		if _, ok := slices.BinarySearch(train, i); !ok {
			t.Fatalf("sample %d drawn is not a training sample", i)
		}
	}
	if !slices.Equal(got, budgeted(train, 300, 1, 0)) {
		t.Fatal("the same seed and fold drew other samples")
	}
	if slices.Equal(got, budgeted(train, 300, 1, 1)) || slices.Equal(got, budgeted(train, 300, 2, 0)) {
		t.Fatal("another fold or seed drew the same samples")
	}
}

// TestScanCNNTrainBudget checks a scan whose fold models learn from a budget of the other
// folds' samples: each learns from that many, every labelled sample is still held out once
// per seed and gets its out-of-fold probabilities, and 100 labels planted wrong in 4,000 real
// digits are still found (in the top 200) about as well as without the budget.
func TestScanCNNTrainBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 4000)
	rng := rand.New(rand.NewPCG(9, 9))
	planted := map[int]bool{}
	for len(planted) < 100 {
		i := rng.IntN(d.N)
		if !planted[i] {
			planted[i] = true
			d.Labels[i] = (d.Labels[i] + 1 + rng.IntN(9)) % 10
		}
	}
	in, err := prepare(d)
	if err != nil {
		t.Fatal(err)
	}
	opts := CNNOptions{Folds: 2, Epochs: 2, Seeds: 1, TrainBudget: 1000}.withDefaults(1000)
	sc := newCNNScan(in, d, opts)
	held := 0
	for k, j := range sc.jobs {
		if len(j.train) != 1000 {
			t.Errorf("fold model %d learns from %d samples, want the budget, 1000", k, len(j.train))
		}
		for _, i := range j.train {
			if _, ok := slices.BinarySearch(j.held, i); ok {
				t.Fatalf("fold model %d learns from its held-out sample %d", k, i)
			}
		}
		held += len(j.held)
	}
	if held != d.N {
		t.Fatalf("%d samples held out, want every one of %d", held, d.N)
	}
	found := func(budget int) int {
		res, err := ScanCNN(context.Background(), d, CNNOptions{Folds: 2, Epochs: 2, Seeds: 1, Seed: 3, TrainBudget: budget}, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkOutputs(t, d, res)
		if len(res.Suspects) != d.N {
			t.Fatalf("%d suspects for %d labelled samples", len(res.Suspects), d.N)
		}
		n := 0
		for _, s := range res.Suspects[:200] {
			if planted[s.Index] {
				n++
			}
		}
		t.Logf("budget %d: out-of-fold error %.2f%%, %d of 100 planted errors in the top 200", budget, 100*res.Error, n)
		return n
	}
	whole, budgeted := found(-1), found(1000)
	if budgeted < 80 || budgeted < whole-10 {
		t.Errorf("with a budget of 1,000 of 2,000 training samples, %d of 100 planted errors in the top 200 (%d without)", budgeted, whole)
	}
}
