package embed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"idxlabel/suspect/nn"
)

// MapOptions tune Map. The zero value takes the defaults.
type MapOptions struct {
	Options
	K int // neighbours per point in the graph (default 15, UMAP's n_neighbors)
	// Pool is how many points are laid out directly (default 50,000): with more points, a
	// random pool of this size (chosen by the seed) is laid out and every other point is placed
	// by its K nearest pool points (Place). The neighbour searches cost O(Pool²·D) and
	// O((N − Pool)·Pool·D).
	Pool int
}

// placeChunk is how many points Map places per neighbour search, bounding the copy of their
// vectors (placeChunk×D values).
const placeChunk = 1 << 16

// Map lays out the points of v (N×D feature vectors in one space, e.g. a network's penultimate
// activations) in the plane, N×2 (x, y): the K-nearest-neighbour graph of the pool (an
// nn.Index: exact below nn.ExactBelow pool points, the inverted-file index above),
// started from the pool's principal axes (Project) and laid out by Layout; then the points
// outside the pool placed by their neighbours in it (the same index, Place). opts.Progress sees the
// share done of the whole (rising, from 0 to 1), one call at a time, from the calling goroutine
// or from the neighbour search's. The result depends only on v and opts other than Workers.
//
// Growth: below nn.ExactBelow points, O(N²·D) search plus Layout's O(E·N·K); above, the
// index's O(N·√Pool·D) search (k-means cells, 8 searched per query) and O(N·K) memory beyond v. Errors: ErrShape (v's sizes),
// those of nn, Project and Layout, or the context's error when cancelled.
func Map(ctx context.Context, v nn.Vectors, opts MapOptions) ([]float32, error) {
	if v.N < 0 || v.Dim <= 0 || len(v.Data) != v.N*v.Dim {
		return nil, fmt.Errorf("%w: %d values for %d×%d", ErrShape, len(v.Data), v.N, v.Dim)
	}
	if opts.K <= 0 {
		opts.K = 15
	}
	if opts.Pool <= 0 {
		opts.Pool = 50000
	}
	if v.N == 0 {
		return []float32{}, ctx.Err()
	}
	pool := poolOf(v.N, opts.Pool, opts.Seed)
	p := len(pool)
	opts.Options = opts.withDefaults(p)
	// Progress shares, by rough cost: the pool's search, its layout, the placement's search.
	search := float64(p) * float64(p) * float64(v.Dim)
	layout := float64(opts.Epochs) * float64(p) * float64(opts.K) * (1 + opts.Negative) * 60
	place := float64(v.N-p) * float64(p) * float64(v.Dim)
	total := search + layout + place
	report := func(base, share float64) func(float64) {
		if opts.Progress == nil {
			return nil
		}
		return func(f float64) { opts.Progress((base + share*f) / total) }
	}
	pv := v
	if p < v.N {
		pv = v.Gather(pool)
	}
	// One neighbour index of the pool serves its graph and the placement of the rest: exact
	// below nn.ExactBelow points, the inverted-file index above.
	ix, err := nn.NewIndex(ctx, pv, nn.IndexOptions{Workers: opts.Workers, Seed: opts.Seed})
	if err != nil {
		return nil, err
	}
	g, err := ix.Among(ctx, nil, min(opts.K, max(1, p-1)), nn.Options{Workers: opts.Workers, Progress: report(0, search)})
	if err != nil {
		return nil, err
	}
	start, err := Project(pv)
	if err != nil {
		return nil, err
	}
	lo := opts.Options
	lo.Progress = report(search, layout)
	xy, err := Layout(ctx, g, start, lo)
	if err != nil {
		return nil, err
	}
	if p == v.N {
		return xy, nil
	}
	out := make([]float32, 2*v.N)
	inPool := make([]bool, v.N)
	for r, i := range pool {
		inPool[i] = true
		out[2*i], out[2*i+1] = xy[2*r], xy[2*r+1]
	}
	rest := make([]int, 0, v.N-p)
	for i := range v.N {
		if !inPool[i] {
			rest = append(rest, i)
		}
	}
	for c0 := 0; c0 < len(rest); c0 += placeChunk {
		part := rest[c0:min(len(rest), c0+placeChunk)]
		done := search + layout + float64(c0)*float64(p)*float64(v.Dim)
		ng, err := ix.Across(ctx, v.Gather(part), opts.K, nn.Options{Workers: opts.Workers,
			Progress: report(done, float64(len(part))*float64(p)*float64(v.Dim))})
		if err != nil {
			return nil, err
		}
		at, err := Place(ctx, xy, ng, opts.Workers)
		if err != nil {
			return nil, err
		}
		for r, i := range part {
			out[2*i], out[2*i+1] = at[2*r], at[2*r+1]
		}
	}
	return out, nil
}

// poolOf returns the points Map lays out directly, ascending: all n, or size of them chosen at
// random by the seed.
func poolOf(n, size int, seed uint64) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n <= size {
		return all
	}
	rng := rand.New(rand.NewPCG(seed, 0x706f6f6c))
	for k := range size {
		j := k + rng.IntN(n-k)
		all[k], all[j] = all[j], all[k]
	}
	pool := all[:size]
	slices.Sort(pool)
	return pool
}
