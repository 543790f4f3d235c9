package neardup

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"idxlabel/sample"
	"idxlabel/suspect/nn"
)

// DefaultThreshold is the Similarity at or above which two images count as copies. On real
// MNIST it lists few natural pairs (the test and training sets were written by different
// people) and every planted copy (exact, shifted by 1 or 2 pixels, noise σ 4, 85% intensity):
// see bench/check/README.md for the counts.
const DefaultThreshold = 0.99

// DefaultCandidates is how many nearest descriptors are verified for each image.
const DefaultCandidates = 8

// MaxDistance bounds the squared descriptor distance of a candidate worth verifying. Copies of
// MNIST digits (shifted by up to 2 pixels, noise σ 4, 85% intensity; 200 of each) stay below
// 0.03; on real MNIST no pair with a Similarity of 0.98 or more lies beyond 0.05 (the same
// pairs are found with no bound at all: t10k against the training set and the training set
// within). Most natural neighbours lie beyond it, so few pairs need the exact Similarity.
const MaxDistance = 0.06

// Pair is two images that are copies of each other.
type Pair struct {
	A, B       int     // Within: two images of the set, A < B; Across: A in the set, B in the other
	Similarity float64 // their Similarity, at least the threshold (1: the same image up to a shift and intensity)
	Shift      Shift   // the shift of B that matches A best
}

// Options tune Within and Across. The zero value takes the defaults.
type Options struct {
	Threshold  float64 // Similarity at or above which a pair is reported (default DefaultThreshold)
	Candidates int     // nearest descriptors verified per image (default DefaultCandidates)
	// MaxDistance bounds the squared descriptor distance of a candidate verified (default
	// MaxDistance).
	MaxDistance float64
	Workers     int // goroutines (default runtime.NumCPU())
	// Index tunes the descriptors' neighbour index (nn.NewIndex; exact below nn.ExactBelow).
	Index nn.IndexOptions
	// Progress (may be nil) gets a stage ("index", "candidates", "verify") and the share of it
	// done, from one goroutine at a time.
	Progress func(stage string, done float64)
}

func (o Options) withDefaults() Options {
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.MaxDistance <= 0 {
		o.MaxDistance = MaxDistance
	}
	if o.Candidates <= 0 {
		o.Candidates = DefaultCandidates
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	o.Index.Workers = o.Workers
	return o
}

func (o Options) report(stage string) func(float64) {
	return func(f float64) {
		if o.Progress != nil {
			o.Progress(stage, f)
		}
	}
}

// Within finds the pairs of images of d that are copies of each other: each identical image
// (by hash, whatever its descriptor) paired with the first of its copies, and every pair among each image's
// opts.Candidates nearest descriptors (desc, from a Basis fitted on d or a set of the same
// size) whose Similarity reaches the threshold. Pairs are ordered most similar first, then by A
// and B. Growth: the neighbour index's (nn.Index: near-linear), plus N·Candidates pairs at most
// and one Similarity (≤ 18 products of H·W pixels) per candidate pair within MaxDistance.
// Errors: descriptors that are not d's, images of the wrong size, or the context's error.
func Within(ctx context.Context, d sample.Set, desc *Descriptors, opts Options) ([]Pair, error) {
	opts = opts.withDefaults()
	h, w, err := size(d)
	if err != nil {
		return nil, err
	}
	if desc.Vectors.N != d.N || len(desc.Offsets) != d.N {
		return nil, fmt.Errorf("%d descriptors for %d samples", desc.Vectors.N, d.N)
	}
	if d.N < 2 {
		return nil, nil
	}
	ix, err := nn.NewIndex(ctx, desc.Vectors, withProgress(opts.Index, opts.report("index")))
	if err != nil {
		return nil, err
	}
	k := min(opts.Candidates, d.N-1)
	g, err := ix.Among(ctx, nil, k, nn.Options{Workers: opts.Workers, Progress: opts.report("candidates")})
	if err != nil {
		return nil, err
	}
	cand := candidates(g, opts.MaxDistance, func(i, j int32) [2]int32 { return [2]int32{min(i, j), max(i, j)} })
	slices.SortFunc(cand, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	cand = slices.Compact(cand)
	pairs, err := verify(ctx, d, d, desc, desc, cand, h, w, opts)
	if err != nil {
		return nil, err
	}
	// Identical images: each copy paired with the first of its group (a group of g copies
	// gives g−1 pairs, not g²), unless the candidates found the pair (pairs is in candidate
	// order: by A, then B).
	found := len(pairs)
	for _, grp := range identical(d) {
		for _, b := range grp[1:] {
			if _, ok := slices.BinarySearchFunc(pairs[:found], [2]int{grp[0], b}, func(p Pair, t [2]int) int {
				return cmp.Or(cmp.Compare(p.A, t[0]), cmp.Compare(p.B, t[1]))
			}); !ok {
				pairs = append(pairs, Pair{A: grp[0], B: b, Similarity: 1})
			}
		}
	}
	sortPairs(pairs)
	return pairs, nil
}

// Across finds, for each image of d, its most similar image of other among its opts.Candidates
// nearest descriptors there (or an identical one, by hash), and reports it when the Similarity
// reaches the threshold: at most one Pair per image of d, A in d and B in other, most similar
// first. desc and otherDesc must come from one Basis. Growth: an index of other, then as
// Within per image of d. Errors: images of different sizes, descriptors that do not fit, or the
// context's error when cancelled.
func Across(ctx context.Context, d sample.Set, desc *Descriptors, other sample.Set, otherDesc *Descriptors, opts Options) ([]Pair, error) {
	opts = opts.withDefaults()
	h, w, err := size(d)
	if err != nil {
		return nil, err
	}
	oh, ow, err := size(other)
	if err != nil {
		return nil, err
	}
	if oh != h || ow != w {
		return nil, fmt.Errorf("samples of %d×%d pixels against %d×%d", h, w, oh, ow)
	}
	if desc.Vectors.N != d.N || otherDesc.Vectors.N != other.N || desc.Vectors.Dim != otherDesc.Vectors.Dim {
		return nil, fmt.Errorf("descriptors do not fit the samples (%d and %d for %d and %d)", desc.Vectors.N, otherDesc.Vectors.N, d.N, other.N)
	}
	if d.N == 0 || other.N == 0 {
		return nil, nil
	}
	ix, err := nn.NewIndex(ctx, otherDesc.Vectors, withProgress(opts.Index, opts.report("index")))
	if err != nil {
		return nil, err
	}
	k := min(opts.Candidates, other.N)
	g, err := ix.Across(ctx, desc.Vectors, k, nn.Options{Workers: opts.Workers, Progress: opts.report("candidates")})
	if err != nil {
		return nil, err
	}
	cand := candidates(g, opts.MaxDistance, func(i, j int32) [2]int32 { return [2]int32{i, j} })
	pairs, err := verify(ctx, d, other, desc, otherDesc, cand, h, w, opts)
	if err != nil {
		return nil, err
	}
	best := map[int]Pair{}
	for _, p := range pairs {
		if q, ok := best[p.A]; !ok || p.Similarity > q.Similarity || p.Similarity == q.Similarity && p.B < q.B {
			best[p.A] = p
		}
	}
	// Identical images, by hash: the lowest-numbered copy in other.
	seed := maphash.MakeSeed()
	hashes := hashAll(other, seed)
	for i := range d.N {
		px := d.Pixels(i)
		h := maphash.Bytes(seed, px)
		at, _ := slices.BinarySearchFunc(hashes, h, func(e hashed, h uint64) int { return cmp.Compare(e.hash, h) })
		for ; at < len(hashes) && hashes[at].hash == h; at++ {
			if j := int(hashes[at].index); slices.Equal(px, other.Pixels(j)) {
				if q, ok := best[i]; !ok || q.Similarity < 1 || q.B > j {
					best[i] = Pair{A: i, B: j, Similarity: 1}
				}
				break
			}
		}
	}
	out := make([]Pair, 0, len(best))
	for _, p := range best {
		out = append(out, p)
	}
	sortPairs(out)
	return out, nil
}

// candidates lists, row by row, each neighbour within maxDist (squared) as the pair pair(row,
// neighbour).
func candidates(g *nn.Graph, maxDist float64, pair func(i, j int32) [2]int32) [][2]int32 {
	var out [][2]int32
	for i := range g.Rows() {
		idx, dist := g.Of(i)
		for m, j := range idx {
			if j >= 0 && float64(dist[m]) <= maxDist {
				out = append(out, pair(int32(i), j))
			}
		}
	}
	return out
}

func withProgress(o nn.IndexOptions, f func(float64)) nn.IndexOptions {
	o.Progress = f
	return o
}

// verify computes the Similarity of each candidate pair (an image of a, an image of b) on the
// workers and returns those that reach the threshold, in candidate order.
func verify(ctx context.Context, a, b sample.Set, da, db *Descriptors, cand [][2]int32, h, w int, opts Options) ([]Pair, error) {
	sim := make([]float64, len(cand))
	shift := make([]Shift, len(cand))
	const chunk = 4096
	chunks := (len(cand) + chunk - 1) / chunk
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	report := opts.report("verify")
	for range min(opts.Workers, chunks) {
		wg.Go(func() {
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks || ctx.Err() != nil {
					return
				}
				for m := c * chunk; m < min(len(cand), (c+1)*chunk); m++ {
					i, j := cand[m][0], cand[m][1]
					sim[m], shift[m] = Similarity(a.Pixels(int(i)), b.Pixels(int(j)), h, w, da.Offsets[i], db.Offsets[j])
				}
				n := done.Add(1)
				mu.Lock()
				report(float64(n) / float64(chunks))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Pair
	for m, c := range cand {
		if sim[m] >= opts.Threshold {
			out = append(out, Pair{A: int(c[0]), B: int(c[1]), Similarity: sim[m], Shift: shift[m]})
		}
	}
	return out, nil
}

// hashed is an image's hash and number.
type hashed struct {
	hash  uint64
	index int32
}

// hashAll returns every image's hash, sorted by hash then number (16 bytes per image).
func hashAll(d sample.Set, seed maphash.Seed) []hashed {
	out := make([]hashed, d.N)
	for i := range d.N {
		out[i] = hashed{maphash.Bytes(seed, d.Pixels(i)), int32(i)}
	}
	slices.SortFunc(out, func(a, b hashed) int { return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.index, b.index)) })
	return out
}

// identical returns the groups of two or more images of d with the same pixels, each ascending.
func identical(d sample.Set) [][]int {
	hashes := hashAll(d, maphash.MakeSeed())
	var out [][]int
	for lo := 0; lo < len(hashes); {
		hi := lo + 1
		for hi < len(hashes) && hashes[hi].hash == hashes[lo].hash {
			hi++
		}
		g := make([]int, 0, hi-lo)
		for _, e := range hashes[lo:hi] {
			g = append(g, int(e.index))
		}
		lo = hi
		// A hash collision splits into groups of equal pixels.
		for len(g) > 1 {
			ref := d.Pixels(g[0])
			same, rest := []int{g[0]}, []int(nil)
			for _, j := range g[1:] {
				if slices.Equal(ref, d.Pixels(j)) {
					same = append(same, j)
				} else {
					rest = append(rest, j)
				}
			}
			if len(same) > 1 {
				out = append(out, same)
			}
			g = rest
		}
	}
	return out
}

// sortPairs orders most similar first, then by A, then by B.
func sortPairs(p []Pair) {
	slices.SortFunc(p, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(y.Similarity, x.Similarity), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
}
