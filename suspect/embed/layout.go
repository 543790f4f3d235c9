package embed

import (
	"context"
	"errors"
	"fmt"
	"math"

	"idxlabel/internal/parallel"
	"idxlabel/suspect/nn"
)

// ErrShape reports inputs whose sizes do not fit together: a neighbour graph that is not one
// row per point or names a point outside them, start coordinates of the wrong length, labels
// or vectors of the wrong length.
var ErrShape = errors.New("embed: shape mismatch")

// Options tune Layout. The zero value takes the defaults.
type Options struct {
	// Epochs is the number of optimisation passes (default 500 for up to 10,000 points, 200
	// above: UMAP's defaults). More epochs cost time in proportion.
	Epochs int
	// Negative is how many random other points push a point away for each graph edge that pulls
	// it (default 5, UMAP's negative sample rate).
	Negative float64
	// Seed chooses the random start (when none is given) and the random pushes (default 1).
	Seed    uint64
	Workers int // goroutines (default runtime.NumCPU()); the result does not depend on it
	// Progress, when set, is called with the share of the layout done (0–1), one call at a
	// time, from the calling goroutine.
	Progress func(float64)
}

// DefaultEpochs returns Layout's epochs for n points when Options.Epochs is 0: 500 up to 10,000
// points, 200 above (UMAP's defaults).
func DefaultEpochs(n int) int {
	if n > 10000 {
		return 200
	}
	return 500
}

func (o Options) withDefaults(n int) Options {
	if o.Epochs <= 0 {
		o.Epochs = DefaultEpochs(n)
	}
	if o.Negative <= 0 {
		o.Negative = 5
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	o.Workers = defaultWorkers(o.Workers)
	return o
}

// Layout places the g.Rows() points of a neighbour graph in the plane so that neighbours sit
// together (see the package comment for the method) and returns their coordinates, N×2
// (x, y) in layout units: clusters come out a few units across, the whole map a few tens (about
// 25 on MNIST).
// g holds each point's K nearest other points among the same points (nn.Among's result, or
// any graph of that shape: distances need only be comparable within a row). start holds N×2
// starting coordinates (e.g. Project's); nil starts from random positions chosen by the seed.
//
// The result depends only on g, start and opts other than Workers. Errors: ErrShape (g is not
// N rows of indices in [0, N) or −1, a distance is negative or NaN, start is not 2N values),
// or the context's error when cancelled.
func Layout(ctx context.Context, g *nn.Graph, start []float32, opts Options) ([]float32, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: no neighbour graph", ErrShape)
	}
	n := len(g.Idx) / max(1, g.K)
	if err := checkGraph(g, n, n); err != nil {
		return nil, err
	}
	if start != nil && len(start) != 2*n {
		return nil, fmt.Errorf("%w: %d start coordinates for %d points", ErrShape, len(start), n)
	}
	opts = opts.withDefaults(n)
	w, err := memberships(ctx, g, opts.Workers)
	if err != nil {
		return nil, err
	}
	f := symmetrize(g, w)
	pos := initial(start, n, opts.Seed)
	if n < 2 {
		return pos, ctx.Err()
	}
	return optimize(ctx, f, pos, opts)
}

// initial returns the starting coordinates: start rescaled so each axis spans 0–10 (UMAP's
// scaling of its initialisation), or points uniform in that square chosen by the seed.
func initial(start []float32, n int, seed uint64) []float32 {
	pos := make([]float32, 2*n)
	if start == nil {
		for i := range pos {
			pos[i] = 10 * unit(mix(seed, uint64(i), 0xa5a5))
		}
		return pos
	}
	for a := range 2 {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for i := range n {
			lo, hi = min(lo, start[2*i+a]), max(hi, start[2*i+a])
		}
		scale := float32(0)
		if hi > lo {
			scale = 10 / (hi - lo)
		}
		for i := range n {
			pos[2*i+a] = (start[2*i+a] - lo) * scale
		}
	}
	return pos
}

// optimize runs the epochs of stochastic gradient steps on pos (N×2, changed in place and
// returned). Each edge i–j of weight w is sampled every max(w)/w epochs (edges below
// max(w)/epochs never are); when sampled, i moves toward j by the gradient of log q, with
// q = 1/(1 + d²), and away from Negative random points per sample by the gradient of
// log(1 − q) (each step's coordinates clipped to ±4), with a learning rate falling linearly
// from 1 to 0. A point's steps use the positions all points had at the start of the epoch
// (its own as it moves) and a random stream of its own, so workers never share a write.
func optimize(ctx context.Context, f *fuzzy, pos []float32, opts Options) ([]float32, error) {
	n := len(f.start) - 1
	maxW := float32(0)
	for _, x := range f.w {
		maxW = max(maxW, x)
	}
	epochs := opts.Epochs
	// Per edge: epochs between samples, the epoch of the next sample, and likewise for its
	// negative samples (UMAP's epochs_per_sample bookkeeping).
	every := make([]float32, len(f.w))
	nextPos := make([]float32, len(f.w))
	nextNeg := make([]float32, len(f.w))
	for e, x := range f.w {
		every[e] = -1
		if x > 0 && x >= maxW/float32(epochs) {
			every[e] = maxW / x
			nextPos[e] = every[e]
			nextNeg[e] = every[e] / float32(opts.Negative)
		}
	}
	prev, next := pos, make([]float32, len(pos))
	const chunk = 512
	for epoch := range epochs {
		alpha := 1 - float32(epoch)/float32(epochs)
		ep := float32(epoch)
		err := parallel.Each(ctx, n, parallel.Options{Workers: opts.Workers, Chunk: chunk}, func(i0, i1 int) error {
			for i := i0; i < i1; i++ {
				rng := stream(mix(opts.Seed, uint64(i), uint64(epoch)+1))
				x, y := prev[2*i], prev[2*i+1]
				for e := f.start[i]; e < f.start[i+1]; e++ {
					if every[e] < 0 || nextPos[e] > ep {
						continue
					}
					j := f.to[e]
					x, y = attract(x, y, prev[2*j], prev[2*j+1], alpha)
					nextPos[e] += every[e]
					per := every[e] / float32(opts.Negative)
					negs := int((ep - nextNeg[e]) / per)
					for range negs {
						k := int((rng.next() >> 32) * uint64(n) >> 32)
						if k == i {
							continue
						}
						x, y = repel(x, y, prev[2*k], prev[2*k+1], alpha)
					}
					nextNeg[e] += float32(negs) * per
				}
				next[2*i], next[2*i+1] = x, y
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		prev, next = next, prev
		if opts.Progress != nil {
			opts.Progress(float64(epoch+1) / float64(epochs))
		}
	}
	return prev, nil
}

// attract moves (x, y) toward (ox, oy): the gradient of log q with q = 1/(1 + d²) is
// −2·(p − o)/(1 + d²); each coordinate's step is clipped to ±4 and scaled by alpha.
func attract(x, y, ox, oy, alpha float32) (float32, float32) {
	dx, dy := x-ox, y-oy
	d2 := dx*dx + dy*dy
	if d2 <= 0 {
		return x, y
	}
	c := -2 / (1 + d2)
	return x + alpha*clip(c*dx), y + alpha*clip(c*dy)
}

// repel moves (x, y) away from (ox, oy): the gradient of log(1 − q) is
// 2·(p − o)/((ε + d²)(1 + d²)) with ε = 0.001 (UMAP's); clipped and scaled as in attract.
// Coincident points do not move.
func repel(x, y, ox, oy, alpha float32) (float32, float32) {
	dx, dy := x-ox, y-oy
	d2 := dx*dx + dy*dy
	if d2 <= 0 {
		return x, y
	}
	c := 2 / ((0.001 + d2) * (1 + d2))
	return x + alpha*clip(c*dx), y + alpha*clip(c*dy)
}

func clip(v float32) float32 {
	return min(4, max(-4, v))
}

// mix returns a well-mixed nonzero 64-bit value from a seed and two keys (splitmix64's
// finalizer over their combination), so each point and epoch has its own random stream.
func mix(seed, a, b uint64) uint64 {
	z := seed*0x9e3779b97f4a7c15 ^ a*0xbf58476d1ce4e5b9 ^ b*0x94d049bb133111eb
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	if z ^= z >> 31; z == 0 {
		return 1
	}
	return z
}

// stream is a xorshift64* generator (Vigna 2016); its state must not be 0.
type stream uint64

func (s *stream) next() uint64 {
	*s ^= *s >> 12
	*s ^= *s << 25
	*s ^= *s >> 27
	return uint64(*s) * 0x2545f4914f6cdd1d
}

// unit maps a random state to [0, 1).
func unit(s uint64) float32 {
	return float32(s>>40) / (1 << 24)
}
