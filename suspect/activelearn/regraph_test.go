package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// TestRerank: reranked by the points the graph was built from, a neighbour graph gives back
// its own nearest neighbours (they are among the candidates), in order; by other vectors, each
// row holds the nearest of the candidates (the first 4 neighbours and theirs) by those, exactly, and a
// sample with fewer candidates than asked gets its row padded with −1 and +Inf.
func TestRerank(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n, k = 200, 6
	random := func(dim int) nn.Vectors {
		v := nn.Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
		for i := range v.Data {
			v.Data[i] = float32(rng.NormFloat64())
		}
		return v
	}
	v := random(3)
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
	w := random(5)
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
