package suspect

import (
	"context"
	"math"
	"testing"

	"idxlabel/suspect/cnn"
)

// TestFeatureVote checks the neighbour vote on points placed along the first feature: each
// query's k nearest other points vote for their classes with weight 1/(1 + d/m), m the median of
// the queries' nearest distances, and the votes are normalized.
func TestFeatureVote(t *testing.T) {
	xs := []float32{0, 1, 3, 6.5, 10, 15}
	cls := []int{2, 0, 1, 1, 2, 0}
	feats := make([]float32, len(xs)*cnn.Features)
	for p, x := range xs {
		feats[p*cnn.Features] = x
		feats[p*cnn.Features+7] = 2 // a shared value: no effect on distances
	}
	queries := []int{0, 2, 5}
	const k, classes = 2, 3
	got, err := featureVote(context.Background(), feats, cls, nil, queries, classes, k, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Nearest distances of the queries: 1, 2, 5 → median 2.
	const m = 2.0
	w := func(d float64) float64 { return 1 / (1 + d/m) }
	want := [][]float64{
		{w(1), w(3), 0},   // point 0: point 1 (class 0, d 1), point 2 (class 1, d 3)
		{w(2), 0, w(3)},   // point 2: point 1 (class 0, d 2), point 0 (class 2, d 3)
		{0, w(8.5), w(5)}, // point 5: point 4 (class 2, d 5), point 3 (class 1, d 8.5)
	}
	for q, row := range want {
		var total float64
		for _, v := range row {
			total += v
		}
		for c := range classes {
			if g := float64(got[q*classes+c]); math.Abs(g-row[c]/total) > 1e-6 {
				t.Fatalf("query %d (point %d), class %d: vote %v, want %v (row %v)", q, queries[q], c, g, row[c]/total, got[q*classes:(q+1)*classes])
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := featureVote(ctx, feats, cls, nil, queries, classes, k, 1, nil); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}
