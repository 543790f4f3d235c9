package nn

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
)

// kmeans returns opts.Cells centroids (Cells×Dim) of a sample of opts.Sample points of v (scaled
// to unit length with opts.Cosine), after
// opts.Iterations of Lloyd's algorithm started from distinct sample points. Each iteration
// files the sample under its nearest centroids (the exact search) and moves every centroid to
// the mean of its points (summed in float64, in point order, so the result does not depend on
// the workers); a cell left empty takes the sample point farthest from its centroid. progress
// gets the share done. Errors: the context's error when cancelled.
func kmeans(ctx context.Context, v Vectors, opts IndexOptions, progress func(float64)) (Vectors, error) {
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6b6d65616e73))
	pick := rng.Perm(v.N)[:opts.Sample]
	slices.Sort(pick)
	sample := v.Gather(pick)
	if opts.Cosine {
		for i := range sample.N {
			row := sample.Data[i*v.Dim : (i+1)*v.Dim]
			scale, _ := rowScale(row, true)
			for k := range row {
				row[k] *= scale
			}
		}
	}
	first := rng.Perm(sample.N)[:opts.Cells]
	cent := sample.Gather(first)
	dim := v.Dim
	sums := make([]float64, opts.Cells*dim)
	counts := make([]int, opts.Cells)
	for it := range opts.Iterations {
		g, err := exact(cent).search(ctx, vectorRows(sample, nil, false), noSelf, 1, nil, Options{Workers: opts.Workers})
		if err != nil {
			return Vectors{}, err
		}
		clear(sums)
		clear(counts)
		for i, c := range g.Idx {
			counts[c]++
			s := sums[int(c)*dim : (int(c)+1)*dim]
			for k, x := range sample.Data[i*dim : (i+1)*dim] {
				s[k] += float64(x)
			}
		}
		// Empty cells take the points farthest from their centroids, farthest first.
		var far []int
		for c := range opts.Cells {
			if counts[c] == 0 {
				if far == nil {
					far = make([]int, sample.N)
					for i := range far {
						far[i] = i
					}
					slices.SortStableFunc(far, func(a, b int) int { return cmp.Compare(g.Dist[b], g.Dist[a]) })
				}
				copy(cent.Data[c*dim:(c+1)*dim], sample.Data[far[0]*dim:(far[0]+1)*dim])
				far = far[1:]
				continue
			}
			for k := range dim {
				cent.Data[c*dim+k] = float32(sums[c*dim+k] / float64(counts[c]))
			}
		}
		progress(float64(it+1) / float64(opts.Iterations))
	}
	return cent, nil
}
