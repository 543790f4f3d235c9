package activelearn

import (
	"context"
	"math/rand/v2"
	"slices"

	"idxlabel/suspect/nn"
)

// k-means settings: Lloyd's iterations, and the most points they run on (a sample drawn with
// the seed; every point is then filed under its nearest centroid).
const (
	kmeansIterations = 10
	kmeansSample     = 20000
)

// kmeans returns the cluster of every point of v (0…k−1) and each cluster's size: k-means++
// seeding (Arthur & Vassilvitskii 2007) and kmeansIterations of Lloyd's algorithm on a sample of
// at most kmeansSample points, then every point filed under its nearest centroid. Growth:
// O(min(N, kmeansSample)·k·Dim) per iteration and O(N·k·Dim) for the filing. Errors: the
// context's error when cancelled.
func kmeans(ctx context.Context, v nn.Vectors, k int, seed uint64, workers int) (cluster []int32, size []int, err error) {
	k = max(1, min(k, v.N))
	rng := rand.New(rand.NewPCG(seed, 0x6b6d))
	sample := v
	if v.N > kmeansSample {
		pick := rng.Perm(v.N)[:kmeansSample]
		slices.Sort(pick)
		sample = v.Gather(pick)
	}
	dim := v.Dim
	row := func(x nn.Vectors, i int) []float32 { return x.Data[i*dim : (i+1)*dim] }
	// k-means++: each next centre drawn with probability proportional to the squared distance
	// to the nearest centre already chosen.
	cent := nn.Vectors{Data: make([]float32, k*dim), N: k, Dim: dim}
	near := make([]float64, sample.N)
	first := rng.IntN(sample.N)
	copy(row(cent, 0), row(sample, first))
	for i := range sample.N {
		near[i] = sqDist(row(sample, i), row(cent, 0))
	}
	for c := 1; c < k; c++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var total float64
		for _, d := range near {
			total += d
		}
		pick := 0
		if total > 0 {
			r := rng.Float64() * total
			for pick = 0; pick < sample.N-1; pick++ {
				r -= near[pick]
				if r <= 0 {
					break
				}
			}
		} else {
			pick = rng.IntN(sample.N)
		}
		copy(row(cent, c), row(sample, pick))
		for i := range sample.N {
			near[i] = min(near[i], sqDist(row(sample, i), row(cent, c)))
		}
	}
	sums := make([]float64, k*dim)
	counts := make([]int, k)
	for range kmeansIterations {
		g, err := nn.Across(ctx, cent, sample, 1, nn.Options{Workers: workers})
		if err != nil {
			return nil, nil, err
		}
		clear(sums)
		clear(counts)
		for i, c := range g.Idx {
			counts[c]++
			s := sums[int(c)*dim : (int(c)+1)*dim]
			for t, x := range row(sample, i) {
				s[t] += float64(x)
			}
		}
		for c := range k {
			if counts[c] == 0 {
				continue // an empty cluster keeps its centre
			}
			for t := range dim {
				cent.Data[c*dim+t] = float32(sums[c*dim+t] / float64(counts[c]))
			}
		}
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

func sqDist(a, b []float32) float64 {
	var s float64
	for i := range a {
		d := float64(a[i] - b[i])
		s += d * d
	}
	return s
}
