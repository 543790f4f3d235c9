package nn

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// blobs returns n points of dim values around k centres far apart (each point's cluster is
// i mod k), and the clusters.
func blobs(n, k, dim int, seed uint64) (Vectors, []int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	centres := make([]float32, k*dim)
	for i := range centres {
		centres[i] = float32(rng.NormFloat64() * 20)
	}
	v := Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	truth := make([]int, n)
	for i := range n {
		truth[i] = i % k
		for d := range dim {
			v.Data[i*dim+d] = centres[truth[i]*dim+d] + float32(rng.NormFloat64())
		}
	}
	return v, truth
}

// TestKMeansFindsSeparateClusters: on well-separated blobs k-means++ centres and Lloyd's
// iterations put every blob in a cluster of its own (random centres may start two in one blob,
// so only PlusPlus is held to that), on a sample as on every point; the same options give the
// same centroids, whatever the workers; bad K is an error.
func TestKMeansFindsSeparateClusters(t *testing.T) {
	ctx := context.Background()
	v, truth := blobs(3000, 12, 8, 1)
	for _, sample := range []int{0, 600} {
		opts := KMeansOptions{K: 12, Sample: sample, PlusPlus: true, Seed: 4, Workers: 1}
		cent, err := KMeans(ctx, v, opts)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Across(ctx, cent, v, 1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		of := map[int]int32{}
		used := map[int32]bool{}
		for i, c := range g.Idx {
			if was, ok := of[truth[i]]; ok && was != c {
				t.Fatalf("sample %d: blob %d split between clusters %d and %d", sample, truth[i], was, c)
			}
			of[truth[i]] = c
			used[c] = true
		}
		if len(used) != 12 {
			t.Errorf("sample %d: %d clusters used of 12", sample, len(used))
		}
		opts.Workers = 3
		again, err := KMeans(ctx, v, opts)
		if err != nil || !slices.Equal(again.Data, cent.Data) {
			t.Errorf("sample %d: other centroids with 3 workers (%v)", sample, err)
		}
	}
	for _, k := range []int{0, 3001} {
		if _, err := KMeans(ctx, v, KMeansOptions{K: k}); !errors.Is(err, ErrShape) {
			t.Errorf("K = %d: %v, want ErrShape", k, err)
		}
	}
}
