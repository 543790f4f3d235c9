package neardup

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"

	"idxlabel/internal/parallel"
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
	// Within: A is the first (lowest-numbered) image of a group of copies and B another
	// member; Across: A in the set, B in the other.
	A, B       int
	Similarity float64 // their Similarity (1: the same image up to a shift and intensity)
	Shift      Shift   // the shift of B that matches A best
	// Uniqueness says how distinct the match is: 1 − its distance (1 − Similarity) over the
	// distance of the nearest sample beyond the copy group (copyGroup), 0–1; at least
	// 1 − Ratio for every pair reported, 1 for identical images found by hash. Within, a
	// member's best among the matches that put it in its group.
	Uniqueness float64
}

// Options tune Within and Across. The zero value takes the defaults.
type Options struct {
	Threshold  float64 // Similarity at or above which a pair can be reported (default DefaultThreshold)
	Candidates int     // nearest descriptors verified per image (default DefaultCandidates)
	// Ratio bounds a copy's distance (1 − Similarity) as a share of the distance of the nearest
	// sample beyond its copy group (default DefaultRatio; 1 or more: any match above the
	// threshold).
	Ratio float64
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
	if o.Ratio <= 0 {
		o.Ratio = DefaultRatio
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

// Within groups the images of d that are copies of each other. Identical images are grouped
// by hash first, whatever their descriptors, and only the first of each is searched further
// (a set made of exact copies costs what its distinct images cost); then each image's
// opts.Candidates nearest descriptors (desc, from a Basis fitted on d or a set of the same size)
// within MaxDistance are verified (Similarity), and an image's copy group (copyGroup: the
// nearest matches at or above the threshold that stand apart from its other neighbours by
// opts.Ratio) joins it to them; groups are the connected sets of such matches, their parts
// found apart joined as the parts' first images match (see below). A group of k images is reported as k − 1
// pairs, its first image (A) with each other member (B), their Similarity computed directly (in
// a group joined through a chain of matches it may fall below the threshold). Pairs are ordered
// most similar first, then by A and B. Growth: the neighbour index's (nn.Index: near-linear),
// plus N·Candidates candidate pairs (12 bytes each) and one Similarity (≤ 18 products of H·W
// pixels) per candidate pair within MaxDistance, and one per image grouped; N−1 pairs at most.
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
	// Identical images first, by hash: one of each is searched.
	uf := newUnionFind(d.N)
	best := make([]float32, d.N) // each image's best uniqueness among the matches that grouped it
	ident := make([]int32, d.N)  // the first image with the same pixels
	for i := range ident {
		ident[i] = int32(i)
	}
	var keep []int // the images searched (nil: all)
	if same := identical(d); len(same) > 0 {
		for _, grp := range same {
			for _, b := range grp[1:] {
				uf.union(int32(grp[0]), int32(b))
				ident[b], best[b] = int32(grp[0]), 1
			}
		}
		for i := range d.N {
			if ident[i] == int32(i) {
				keep = append(keep, i)
			}
		}
	}
	sd, sdesc := d, desc
	if keep != nil {
		sd = sample.Set{N: len(keep), H: d.H, W: d.W, Transposed: d.Transposed, Pixels: func(k int) []byte { return d.Pixels(keep[k]) }}
		sdesc = &Descriptors{Vectors: desc.Vectors.Gather(keep), Offsets: make([]Offset, len(keep))}
		for k, i := range keep {
			sdesc.Offsets[k] = desc.Offsets[i]
		}
	}
	// join searches sd (the images keep lists, nil: all) and joins each image to its copies;
	// it reports whether any two groups were joined.
	join := func(sd sample.Set, sdesc *Descriptors, keep []int, alone bool) (bool, error) {
		at := func(k int32) int32 {
			if keep == nil {
				return k
			}
			return int32(keep[k])
		}
		joined := false
		err := nearMatches(ctx, sd, sdesc, h, w, opts, alone, func(i, j int32, u float32) {
			i, j = at(i), at(j)
			best[i], best[j] = max(best[i], u), max(best[j], u)
			joined = uf.union(i, j) || joined
		})
		return joined, err
	}
	if sd.N >= 2 {
		if _, err := join(sd, sdesc, keep, false); err != nil {
			return nil, err
		}
	}
	// An image with many copies (augmentation's dozens) may find only copies of one kind among
	// its few candidates (the same shift, say), so its group can come out in parts; the parts'
	// first images, searched among themselves, find each other (a few rounds at most, few
	// images: not reported as progress). Their natural neighbours are not among them, so a
	// match there must be a copy on its own (as if nothing stood beyond it: 0.995 and up).
	opts.Progress = nil
	for range 3 {
		keep = uf.roots()
		if len(keep) < 2 {
			break
		}
		sd = sample.Set{N: len(keep), H: d.H, W: d.W, Transposed: d.Transposed, Pixels: func(k int) []byte { return d.Pixels(keep[k]) }}
		sdesc = &Descriptors{Vectors: desc.Vectors.Gather(keep), Offsets: make([]Offset, len(keep))}
		for k, i := range keep {
			sdesc.Offsets[k] = desc.Offsets[i]
		}
		joined, err := join(sd, sdesc, keep, true)
		if err != nil {
			return nil, err
		}
		if !joined {
			break
		}
	}
	sd, sdesc, keep = sample.Set{}, nil, nil
	groups := uf.groups()
	var pairs []Pair
	for _, grp := range groups {
		for _, b := range grp[1:] {
			pairs = append(pairs, Pair{A: int(grp[0]), B: int(b), Uniqueness: float64(best[b])})
		}
	}
	// Each member's Similarity to its group's first image, computed once per distinct image.
	var compute []Pair
	for _, p := range pairs {
		if r := int(ident[p.B]); r == p.B && ident[p.A] != ident[p.B] {
			compute = append(compute, Pair{A: p.A, B: r})
		}
	}
	if err := similarities(ctx, d, desc, compute, h, w, opts.Workers); err != nil {
		return nil, err
	}
	for m := range pairs {
		p := &pairs[m]
		if ident[p.A] == ident[p.B] {
			p.Similarity = 1
			continue
		}
		at, _ := slices.BinarySearchFunc(compute, [2]int{p.A, int(ident[p.B])}, func(c Pair, t [2]int) int {
			return cmp.Or(cmp.Compare(c.A, t[0]), cmp.Compare(c.B, t[1]))
		})
		p.Similarity, p.Shift = compute[at].Similarity, compute[at].Shift
	}
	sortPairs(pairs)
	return pairs, nil
}

// nearMatches finds, for each image of d, its copy group among its opts.Candidates nearest
// descriptors within MaxDistance (copyGroup), and calls found(i, j, u) from one goroutine for
// each image j in image i's group, u their uniqueness. alone: d is a sample of a set whose
// other images are missing, so a match must stand apart from 2 × (1 − threshold) whatever
// its next candidate (copyGroup's bound on the next distance).
func nearMatches(ctx context.Context, d sample.Set, desc *Descriptors, h, w int, opts Options, alone bool, found func(i, j int32, u float32)) error {
	ix, err := nn.NewIndex(ctx, desc.Vectors, withProgress(opts.Index, opts.report("index")))
	if err != nil {
		return err
	}
	k := min(opts.Candidates, d.N-1)
	g, err := ix.Among(ctx, nil, k, nn.Options{Workers: opts.Workers, Progress: opts.report("candidates")})
	if err != nil {
		return err
	}
	ix = nil
	// Each unordered pair is verified once.
	cand, at := distinctPairs(g, opts.MaxDistance)
	sim, _, err := verify(ctx, d, d, desc, desc, cand, h, w, opts)
	if err != nil {
		return err
	}
	var ms []match
	for i := range g.Rows() {
		ms = ms[:0]
		idx, _ := g.Of(i)
		for m, j := range idx {
			if c := at[i*g.K+m]; c >= 0 {
				ms = append(ms, match{j, 1 - sim[c]})
			}
		}
		p, next := copyGroup(ms, k, opts.Threshold, opts.Ratio, alone)
		for _, x := range ms[:p] {
			found(int32(i), x.j, float32(uniqueness(x.d, next)))
		}
	}
	return nil
}

// Across finds, for each image of d, its copies in other among its opts.Candidates nearest
// descriptors there (its copy group, as Within finds it) or an identical image (by hash), and
// reports the most similar (the lowest-numbered identical one): at most one Pair per image of
// d, A in d and B in other, most similar first. desc and otherDesc must come from one Basis.
// Growth: an index of other, then as Within per image of d. Errors: images of different sizes,
// descriptors that do not fit, or the context's error when cancelled.
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
	ix = nil
	cand := candidates(g, opts.MaxDistance, func(i, j int32) [2]int32 { return [2]int32{i, j} })
	sim, shift, err := verify(ctx, d, other, desc, otherDesc, cand, h, w, opts)
	if err != nil {
		return nil, err
	}
	best := map[int]Pair{}
	var ms []match
	for lo := 0; lo < len(cand); {
		hi := lo + 1
		for hi < len(cand) && cand[hi][0] == cand[lo][0] {
			hi++
		}
		ms = ms[:0]
		for m := lo; m < hi; m++ {
			ms = append(ms, match{int32(m), 1 - sim[m]}) // j: the candidate's place in cand
		}
		if p, next := copyGroup(ms, k, opts.Threshold, opts.Ratio, false); p > 0 {
			m := ms[0].j
			best[int(cand[m][0])] = Pair{A: int(cand[m][0]), B: int(cand[m][1]), Similarity: float64(sim[m]), Shift: shift[m], Uniqueness: uniqueness(ms[0].d, next)}
		}
		lo = hi
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
					best[i] = Pair{A: i, B: j, Similarity: 1, Uniqueness: 1}
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

// distinctPairs returns the unordered pairs {i, j} of g's neighbours within maxDist, once each
// as (min, max), ordered by their first image then their second, and for each slot of g (row i,
// place m: i·K + m) its pair's place in that list (−1: none). A counting sort by the first
// image, then each image's few pairs sorted: O(pairs + rows), not a sort of every pair.
func distinctPairs(g *nn.Graph, maxDist float64) (cand [][2]int32, at []int32) {
	n := g.Rows()
	near := func(slot int) bool { return g.Idx[slot] >= 0 && float64(g.Dist[slot]) <= maxDist }
	start := make([]int32, n+1) // by first image: its pairs are by[start[i]:start[i+1]]
	for slot := range g.Idx {
		if near(slot) {
			start[min(int32(slot/g.K), g.Idx[slot])+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	type other struct{ j, slot int32 }
	by := make([]other, start[n])
	next := slices.Clone(start[:n])
	for slot := range g.Idx {
		if near(slot) {
			i, j := int32(slot/g.K), g.Idx[slot]
			lo, hi := min(i, j), max(i, j)
			by[next[lo]] = other{hi, int32(slot)}
			next[lo]++
		}
	}
	at = make([]int32, len(g.Idx))
	for slot := range at {
		at[slot] = -1
	}
	for i := range n {
		mine := by[start[i]:start[i+1]]
		slices.SortFunc(mine, func(a, b other) int { return cmp.Compare(a.j, b.j) })
		for m, o := range mine {
			if m == 0 || o.j != mine[m-1].j {
				cand = append(cand, [2]int32{int32(i), o.j})
			}
			at[o.slot] = int32(len(cand) - 1)
		}
	}
	return cand, at
}

func withProgress(o nn.IndexOptions, f func(float64)) nn.IndexOptions {
	o.Progress = f
	return o
}

// verify computes the Similarity of each candidate pair (an image of a, an image of b) on the
// workers: its similarity and best shift, in candidate order (float32: 4 bytes, and 2 for the
// shift, per pair).
func verify(ctx context.Context, a, b sample.Set, da, db *Descriptors, cand [][2]int32, h, w int, opts Options) ([]float32, []Shift, error) {
	sim := make([]float32, len(cand))
	shift := make([]Shift, len(cand))
	err := parallel.For(ctx, len(cand), parallel.Options{Workers: opts.Workers, Chunk: verifyChunk, Progress: opts.report("verify")}, func(context.Context) func(lo, hi int) error {
		var sc simScratch
		return func(lo, hi int) error {
			for m := lo; m < hi; m++ { // candidates come by their first image: its table is kept
				i, j := cand[m][0], cand[m][1]
				s, at := sc.similarity(a.Pixels(int(i)), b.Pixels(int(j)), h, w, da.Offsets[i], db.Offsets[j], int(i))
				sim[m], shift[m] = float32(s), at
			}
			return nil
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return sim, shift, nil
}

// similarities fills in each pair's Similarity and Shift (images of d) on the workers.
func similarities(ctx context.Context, d sample.Set, desc *Descriptors, pairs []Pair, h, w, workers int) error {
	return parallel.For(ctx, len(pairs), parallel.Options{Workers: workers, Chunk: verifyChunk}, func(context.Context) func(lo, hi int) error {
		var sc simScratch
		return func(lo, hi int) error {
			for m := lo; m < hi; m++ {
				p := &pairs[m]
				p.Similarity, p.Shift = sc.similarity(d.Pixels(p.A), d.Pixels(p.B), h, w, desc.Offsets[p.A], desc.Offsets[p.B], p.A)
			}
			return nil
		}
	})
}

// verifyChunk is how many pairs a worker verifies at a time.
const verifyChunk = 4096

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
