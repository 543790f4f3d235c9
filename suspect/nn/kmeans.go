package nn

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
)

// KMeansOptions tune KMeans. The zero value takes the defaults, save K.
type KMeansOptions struct {
	K int // clusters, 1 to the points' number
	// Sample is the most points Lloyd's iterations run on, drawn at random with the seed
	// (default and at most: every point).
	Sample     int
	Iterations int // Lloyd's iterations (default 8)
	// PlusPlus starts from k-means++ centres (Arthur & Vassilvitskii 2007: each next one a
	// sample point drawn with probability proportional to its squared distance to the nearest
	// chosen, O(Sample·K·Dim) more); otherwise from K distinct sample points drawn at random.
	PlusPlus bool
	// Cosine clusters by angle: the sample is scaled to unit length first (v is not changed).
	Cosine   bool
	Seed     uint64        // every random choice (default 1)
	Workers  int           // goroutines (default runtime.NumCPU())
	Progress func(float64) // the share of the iterations done (0–1), one call at a time; may be nil
}

// KMeans returns opts.K centroids (K×Dim) of the points of v, found by Lloyd's algorithm on a
// sample of at most opts.Sample of them (drawn with the seed; scaled to unit length with
// opts.Cosine). Each iteration files the sample under its nearest centroids (the exact search)
// and moves every centroid to the mean of its points (summed in float64, in point order, so the
// result does not depend on the workers); a centroid left without points takes the sample point
// farthest from its own centroid, farthest first. The same points and options give the same
// centroids. File every point under its nearest with Across(ctx, centroids, v, 1, …). Growth:
// O(Sample·K·Dim) time per iteration, O(Sample·Dim + K·Dim) memory. Errors: ErrShape (v's
// sizes, K outside 1…N), or the context's error when cancelled.
func KMeans(ctx context.Context, v Vectors, opts KMeansOptions) (Vectors, error) {
	if err := v.check(); err != nil {
		return Vectors{}, err
	}
	if opts.K < 1 || opts.K > v.N {
		return Vectors{}, fmt.Errorf("%w: %d clusters of %d points", ErrShape, opts.K, v.N)
	}
	if opts.Sample <= 0 || opts.Sample > v.N {
		opts.Sample = v.N
	}
	opts.Sample = max(opts.Sample, opts.K)
	if opts.Iterations <= 0 {
		opts.Iterations = 8
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
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
	var cent Vectors
	if opts.PlusPlus {
		var err error
		if cent, err = plusPlus(ctx, sample, opts.K, rng); err != nil {
			return Vectors{}, err
		}
	} else {
		cent = sample.Gather(rng.Perm(sample.N)[:opts.K])
	}
	dim := v.Dim
	sums := make([]float64, opts.K*dim)
	counts := make([]int, opts.K)
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
		for c := range opts.K {
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
		if opts.Progress != nil {
			opts.Progress(float64(it+1) / float64(opts.Iterations))
		}
	}
	return cent, nil
}

// plusPlus returns k-means++ centres of the sample: the first a point drawn at random, each
// next one drawn with probability proportional to its squared distance to the nearest centre
// chosen (any point when every distance is 0). O(N·k·Dim).
func plusPlus(ctx context.Context, sample Vectors, k int, rng *rand.Rand) (Vectors, error) {
	dim := sample.Dim
	row := func(x Vectors, i int) []float32 { return x.Data[i*dim : (i+1)*dim] }
	cent := Vectors{Data: make([]float32, k*dim), N: k, Dim: dim}
	near := make([]float64, sample.N)
	copy(row(cent, 0), row(sample, rng.IntN(sample.N)))
	for i := range sample.N {
		near[i] = sqDist(row(sample, i), row(cent, 0))
	}
	for c := 1; c < k; c++ {
		if err := ctx.Err(); err != nil {
			return Vectors{}, err
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
	return cent, nil
}

func sqDist(a, b []float32) float64 {
	var s float64
	for i := range a {
		d := float64(a[i] - b[i])
		s += d * d
	}
	return s
}
