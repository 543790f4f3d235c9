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

// TestRerank: reranked by the points the graph was built from, a neighbour graph gives back
// its own nearest neighbours (they are among the candidates), in order; by other vectors, each
// row holds the nearest of the candidates (the first 4 neighbours and theirs) by those, exactly, and a
// sample with fewer candidates than asked gets its row padded with −1 and +Inf.
func TestRerank(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n, k = 200, 6
	v := randomVectors(rng, n, 3)
	g, err := nn.Among(context.Background(), v, nil, k, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := rerank(context.Background(), g, k, v, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		want, _ := g.Of(i)
		row, _ := got.Of(i)
		if !slices.Equal(row, want[:4]) {
			t.Fatalf("sample %d: reranked by its own points %v, its graph's %v", i, row, want[:4])
		}
	}
	w := randomVectors(rng, n, 5)
	got, err = rerank(context.Background(), g, 4, w, k, 2)
	if err != nil {
		t.Fatal(err)
	}
	sq := func(i, j int) float32 {
		var d float32
		for c := range w.Dim {
			e := w.Data[i*w.Dim+c] - w.Data[j*w.Dim+c]
			d += e * e
		}
		return d
	}
	for i := range n {
		var cand []int
		first, _ := g.Of(i)
		for _, j := range first[:4] {
			cand = append(cand, int(j))
			second, _ := g.Of(int(j))
			for _, j2 := range second[:4] {
				cand = append(cand, int(j2))
			}
		}
		slices.Sort(cand)
		cand = slices.DeleteFunc(slices.Compact(cand), func(j int) bool { return j == i })
		slices.SortStableFunc(cand, func(a, b int) int {
			if da, db := sq(i, a), sq(i, b); da != db {
				if da < db {
					return -1
				}
				return 1
			}
			return a - b
		})
		row, dist := got.Of(i)
		for t2 := range k {
			if int(row[t2]) != cand[t2] || dist[t2] != sq(i, cand[t2]) {
				t.Fatalf("sample %d: reranked %v %v, nearest candidates %v", i, row, dist, cand[:k])
			}
		}
	}
	// Two points linked to each other alone: one candidate each, the rest padding.
	pair := &nn.Graph{K: 1, Idx: []int32{1, 0}, Dist: []float32{1, 1}}
	got, err = rerank(context.Background(), pair, 1, nn.Vectors{Data: []float32{0, 2}, N: 2, Dim: 1}, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if row, dist := got.Of(0); row[0] != 1 || dist[0] != 4 || row[1] != -1 || row[2] != -1 || !math.IsInf(float64(dist[2]), 1) {
		t.Errorf("a pair reranked: %v %v", row, dist)
	}
}
