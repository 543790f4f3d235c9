package annotate

import (
	"context"
	"testing"

	"idxlabel/fixture/mnisttest"
)

// On the real t10k labels as the truth, three simulated annotators of 95%, 85% and 70%
// accuracy (errors spread evenly over the other nine classes), three seeds: Dawid–Skene's
// weighted consensus is at least as accurate as the majority's (a sample without a majority
// counts as wrong), and estimates each annotator's accuracy within 0.015. go test -v prints
// both accuracies (bench/agree/README.md lists them).
func TestDawidSkeneOnT10k(t *testing.T) {
	_, labels := mnisttest.Load(t)
	truth := make([]int32, labels.Len())
	for i := range truth {
		truth[i] = int32(labels.Int(i))
	}
	acc := []float64{0.95, 0.85, 0.70}
	for seed := uint64(1); seed <= 3; seed++ {
		p := mustPanel(t, simulate(truth, 10, acc, seed))
		est, err := p.DawidSkene(context.Background(), DSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		votes := p.Majority()
		maj, ds := accuracy(votes, truth), accuracy(est.Votes, truth)
		none, wrong, dsWrong := 0, 0, 0 // samples without a majority; majority labels wrong; weighted wrong where the majority has a label
		for i, v := range votes {
			switch {
			case v.Label == NoLabel:
				none++
			case v.Label != truth[i]:
				wrong++
			}
			if v.Label != NoLabel && est.Votes[i].Label != truth[i] {
				dsWrong++
			}
		}
		t.Logf("seed %d: majority %.4f (%d samples without one, %d wrong), weighted (Dawid–Skene) %.4f (%d wrong where the majority has a label), %d iterations; estimated accuracies %.4f",
			seed, maj, none, wrong, ds, dsWrong, est.Iterations, est.Accuracy)
		if ds < maj {
			t.Errorf("seed %d: weighted %.4f below the majority %.4f", seed, ds, maj)
		}
		for a, want := range acc {
			if d := est.Accuracy[a] - want; d > 0.015 || d < -0.015 {
				t.Errorf("seed %d: annotator %d estimated %.4f, is %.2f", seed, a, est.Accuracy[a], want)
			}
		}
	}
}
