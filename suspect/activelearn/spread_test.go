package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// TestLeaveOneOutIsSpreadingWithout: a typed sample's leave-one-out scores are those of a
// spreading from every typed label but its own (spreading is linear in the labels), to float
// rounding, on a random neighbour graph of 300 points, 3 classes, 40 typed.
func TestLeaveOneOutIsSpreadingWithout(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n, k, classes = 300, 8, 3
	v := randomVectors(rng, n, 4)
	g, err := nn.Among(context.Background(), v, nil, k, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cls := make([]int, n)
	var typed []int
	for i := range cls {
		cls[i] = -1
		if i%7 == 0 && len(typed) < 40 {
			cls[i] = rng.IntN(classes)
			typed = append(typed, i)
		}
	}
	sp := newSpreader(g, spreadNeighbours)
	raw, err := sp.raw(context.Background(), oneHot(cls, classes), classes)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sp.leaveOneOut(context.Background(), raw, cls, classes, typed)
	if err != nil {
		t.Fatal(err)
	}
	for m, i := range typed {
		without := slices.Clone(cls)
		without[i] = -1
		want, err := spread(context.Background(), g, without, classes)
		if err != nil {
			t.Fatal(err)
		}
		for c := range classes {
			if d := math.Abs(float64(got[m*classes+c] - want[i*classes+c])); d > 1e-4 {
				t.Fatalf("sample %d class %d: %v left out, %v spread without it", i, c, got[m*classes+c], want[i*classes+c])
			}
		}
	}
}

// randomVectors returns n points of dim standard normal coordinates.
func randomVectors(rng *rand.Rand, n, dim int) nn.Vectors {
	v := nn.Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	for i := range v.Data {
		v.Data[i] = float32(rng.NormFloat64())
	}
	return v
}
