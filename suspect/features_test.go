package suspect

import (
	"context"
	"math"
	"testing"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
)

// The scan's Model gives the features of samples it never saw in the space of the scan's
// Features: for the samples the first fold model held out (whose features that model gave, and
// which no map moved), Model.Features gives the same values; other sizes and indices are refused.
func TestModelFeaturesShareTheScansSpace(t *testing.T) {
	d := mnistData(t, 1000)
	opts := CNNOptions{Folds: 2, Seeds: 1, Epochs: 1, Seed: 3}
	res, err := ScanCNN(context.Background(), d, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	labelled := make([]int, d.N)
	for i := range labelled {
		labelled[i] = i
	}
	held := folds.Stratified(labelled, d.Labels, nil, opts.Folds, opts.Seed)[0][:50]
	got, err := res.Model.Features(context.Background(), d, held)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(held)*cnn.Features {
		t.Fatalf("%d values for %d samples", len(got), len(held))
	}
	worst := 0.0
	for k, i := range held {
		for f := range cnn.Features {
			a, b := float64(got[k*cnn.Features+f]), float64(res.Features[i*cnn.Features+f])
			worst = max(worst, math.Abs(a-b)/max(1, math.Abs(b)))
		}
	}
	if worst > 1e-4 {
		t.Errorf("features of the first fold's held-out samples differ from the scan's by up to %.2g", worst)
	}
	if _, err := res.Model.Features(context.Background(), d, []int{d.N}); err == nil {
		t.Error("an index past the samples was accepted")
	}
	small := sample.Set{N: 1, H: 10, W: 10, Pixels: func(int) []byte { return make([]byte, 100) }}
	if _, err := res.Model.Features(context.Background(), small, []int{0}); err == nil {
		t.Error("samples of another size were accepted")
	}
}
