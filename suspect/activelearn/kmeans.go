package activelearn

import (
	"context"

	"idxlabel/suspect/nn"
)

// k-means settings: Lloyd's iterations, and the most points they run on (a sample drawn with
// the seed; every point is then filed under its nearest centroid).
const (
	kmeansIterations = 10
	kmeansSample     = 20000
)

// kmeans returns the cluster of every point of v (0…k−1) and each cluster's size: nn.KMeans
// from k-means++ centres, kmeansIterations of Lloyd's algorithm on a sample of at most
// kmeansSample points, then every point filed under its nearest centroid. Growth:
// O(min(N, kmeansSample)·k·Dim) per iteration and O(N·k·Dim) for the filing. Errors: the
// context's error when cancelled.
func kmeans(ctx context.Context, v nn.Vectors, k int, seed uint64, workers int) (cluster []int32, size []int, err error) {
	k = max(1, min(k, v.N))
	cent, err := nn.KMeans(ctx, v, nn.KMeansOptions{K: k, Sample: kmeansSample, Iterations: kmeansIterations, PlusPlus: true, Seed: seed, Workers: workers})
	if err != nil {
		return nil, nil, err
	}
	g, err := nn.Across(ctx, cent, v, 1, nn.Options{Workers: workers})
	if err != nil {
		return nil, nil, err
	}
	size = make([]int, k)
	for _, c := range g.Idx {
		size[c]++
	}
	return g.Idx, size, nil
}
