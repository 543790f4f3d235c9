package cnn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWarpScale: WarpScale widens every range of the random warps about the identity (1.5:
// rotation, the scale's distance from 1 and the shift 1.5 times theirs); 0 and 1 train the
// recipe's network to the bit, another factor another network from the same draws.
func TestWarpScale(t *testing.T) {
	a := [4]float64{0.1, 0.95, -1, 2}
	got := scaleAffine(a, 1.5)
	want := [4]float64{0.15, 0.925, -1.5, 3}
	for k := range got {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Fatalf("scaleAffine(%v, 1.5) = %v, want %v", a, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	imgs := randomImages(rng, 32)
	labels := make([]int, len(imgs))
	for i := range labels {
		labels[i] = i % 3
	}
	s := Samples{Pixels: func(i int) []byte { return imgs[i] }, Labels: labels}
	train := make([]int, len(imgs))
	for i := range train {
		train[i] = i
	}
	params := func(f float64) []float32 {
		n, err := Train(context.Background(), s, train, 3, Config{Epochs: 1, Batch: 16, WarpScale: f}, rand.New(rand.NewPCG(7, 7)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return n.Params()
	}
	recipe := params(0)
	if !slices.Equal(params(1), recipe) {
		t.Error("WarpScale 1 trained another network than the recipe's")
	}
	if slices.Equal(params(1.5), recipe) {
		t.Error("WarpScale 1.5 trained the recipe's network: the warps were not widened")
	}
}
