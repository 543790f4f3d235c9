package cnn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestParamsRoundTrip: NetFrom(Params()) predicts as the network does; a wrong count, a NaN or
// classes out of range are errors.
func TestParamsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n, _ := newNet(7, rng)
	m, err := NetFrom(7, n.Params())
	if err != nil {
		t.Fatal(err)
	}
	img := randomImages(rng, 1)[0]
	if !slices.Equal(n.Predict(img), m.Predict(img)) {
		t.Error("the network read back predicts otherwise")
	}
	p := n.Params()
	p[0] = 99
	if n.params[0] == 99 {
		t.Error("Params is not a copy")
	}
	bad := n.Params()
	bad[5] = float32(math.NaN())
	for name, err := range map[string]error{
		"short":   func() error { _, err := NetFrom(7, p[:len(p)-1]); return err }(),
		"classes": func() error { _, err := NetFrom(8, p); return err }(),
		"one":     func() error { _, err := NetFrom(1, p); return err }(),
		"NaN":     func() error { _, err := NetFrom(7, bad); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestTrainFromStart: a network trained from Start begins as Start's copy (every layer, or
// every layer but the last when the classes differ, which is drawn anew): after one step its
// convolutions are within a step of Start's, far nearer than a new network's; Start is not
// changed.
func TestTrainFromStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	imgs := randomImages(rng, 64)
	s := Samples{Pixels: func(i int) []byte { return imgs[i] }, Labels: make([]int, 64)}
	idx := make([]int, 64)
	for i := range idx {
		idx[i], s.Labels[i] = i, i%3
	}
	start, err := Train(context.Background(), s, idx, 3, Config{Epochs: 1}, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	saved := start.Params()
	far := func(a, b []float32) float64 {
		d := 0.0
		for i := range a {
			d = max(d, math.Abs(float64(a[i]-b[i])))
		}
		return d
	}
	conv := len(start.w1) + len(start.b1)
	for _, classes := range []int{3, 5} {
		tuned, err := Train(context.Background(), s, idx, classes, Config{Epochs: 1, Start: start}, rand.New(rand.NewPCG(2, 2)), nil)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := Train(context.Background(), s, idx, classes, Config{Epochs: 1}, rand.New(rand.NewPCG(2, 2)), nil)
		if d, f := far(tuned.params[:conv], saved[:conv]), far(fresh.params[:conv], saved[:conv]); d > 0.01 || f < 0.1 {
			t.Errorf("%d classes: the first convolution moved %.4f from Start's (a new network's is %.4f away)", classes, d, f)
		}
		if tuned.Classes != classes {
			t.Errorf("%d classes asked, %d given", classes, tuned.Classes)
		}
	}
	if !slices.Equal(start.Params(), saved) {
		t.Error("training from Start changed Start")
	}
}
