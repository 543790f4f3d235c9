package suspect

import (
	"context"
	"errors"
	"testing"

	"idxlabel/sample"
)

// labelledSet returns n samples (no pixels: the estimate reads labels only), the first
// labelled of them labelled 0 or 1, the others without a label.
func labelledSet(n, labelled int) sample.Set {
	d := sample.Set{N: n, H: 28, W: 28, Labels: make([]int, n)}
	for i := range d.Labels {
		d.Labels[i] = i % 2
		if i >= labelled {
			d.Labels[i] = sample.NoLabel
		}
	}
	return d
}

// TestEstimateCNNGrows: the estimate grows with the labelled samples, the seeds and the
// epochs, and is 0 when no scan can run (fewer labelled samples than folds).
func TestEstimateCNNGrows(t *testing.T) {
	base := EstimateCNN(labelledSet(10000, 10000), CNNOptions{}, 100000)
	if base <= 0 {
		t.Fatalf("10,000 samples: %v", base)
	}
	for name, more := range map[string]int64{
		"more samples":   int64(EstimateCNN(labelledSet(20000, 20000), CNNOptions{}, 100000)),
		"more seeds":     int64(EstimateCNN(labelledSet(10000, 10000), CNNOptions{Seeds: 3}, 100000)),
		"more epochs":    int64(EstimateCNN(labelledSet(10000, 10000), CNNOptions{Epochs: 20}, 100000)),
		"unlabelled too": int64(EstimateCNN(labelledSet(15000, 10000), CNNOptions{}, 100000)),
	} {
		if more <= int64(base) {
			t.Errorf("%s: %v, not above %v", name, more, base)
		}
	}
	if e := EstimateCNN(labelledSet(2, 2), CNNOptions{Folds: 3}, 100000); e != 0 {
		t.Errorf("2 labelled samples in 3 folds: %v", e)
	}
	if half := EstimateCNN(labelledSet(10000, 10000), CNNOptions{}, 50000); half < 19*base/10 || half > 21*base/10 {
		t.Errorf("half the rate: %v, at the full rate %v", half, base)
	}
}

// TestEstimateCNNAtAMillion: above the training budget a fold model's training stops growing
// and a neighbour query visits about √(8N) points, not N: the estimate for 1,000,000 labelled
// samples is within 10× the one for 10,000 (4.8× here; a 1,000,000-sample check's scan took
// minutes, where counting every point of the vote said 1 h 35 min).
func TestEstimateCNNAtAMillion(t *testing.T) {
	small := EstimateCNN(labelledSet(10000, 10000), CNNOptions{}, 100000)
	large := EstimateCNN(labelledSet(1000000, 1000000), CNNOptions{}, 100000)
	if large <= small || large > 10*small {
		t.Fatalf("1,000,000 samples: %v; 10,000: %v", large, small)
	}
}

// TestCalibrateCNN: the calibration trains and times some steps and gives a positive rate; a
// cancelled context is its error.
func TestCalibrateCNN(t *testing.T) {
	rate, err := CalibrateCNN(context.Background())
	if err != nil || !(rate > 0) {
		t.Fatalf("rate %v, %v", rate, err)
	}
	t.Logf("%.0f units a second (t10k's default scan: %v)", rate, EstimateCNN(labelledSet(10000, 10000), CNNOptions{}, rate))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CalibrateCNN(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestSettled: options that scan alike settle alike; options that do not, do not.
func TestSettled(t *testing.T) {
	zero := CNNOptions{}.Settled()
	if given := (CNNOptions{Folds: 3, Seed: 1, Seeds: 2, Neighbours: 10, Workers: 7}).Settled(); given.Folds != zero.Folds || given.Seed != zero.Seed ||
		given.Seeds != zero.Seeds || given.Neighbours != zero.Neighbours || given.Workers != zero.Workers || given.Epochs != zero.Epochs {
		t.Errorf("the defaults given: %+v, left zero: %+v", given, zero)
	}
	if a, b := (CNNOptions{Neighbours: -1}).Settled(), (CNNOptions{Neighbours: -5}).Settled(); a.Neighbours != b.Neighbours || a.Neighbours == zero.Neighbours {
		t.Errorf("no vote: %d and %d, the default %d", a.Neighbours, b.Neighbours, zero.Neighbours)
	}
	if e := (CNNOptions{Epochs: 4}).Settled().Epochs; e != 4 {
		t.Errorf("4 epochs settle as %d", e)
	}
	if s := (CNNOptions{Seeds: 1}).Settled().Seeds; s != 1 {
		t.Errorf("1 seed settles as %d", s)
	}
}
