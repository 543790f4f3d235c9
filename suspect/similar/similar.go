// Package similar finds the samples most like a given one ("more like this"): a similarity
// search among a set's samples, by a sample's number or by the pixels of a new image (a digit
// being drawn, a PNG). Samples are compared by the CNN's features when a scan gave them (its
// penultimate activations, suspect.CNNResult.Features or a kept scan's, scancache), else by the
// pixel descriptors of the duplicate check (neardup.Basis: the image centred, blurred, pooled
// and projected on 48 principal axes), in either case by cosine similarity, through the
// neighbour index of package nn (exact below nn.ExactBelow samples, an inverted file above).
// A near-copy of the query (a shift-aligned pixel similarity of at least CopySimilarity,
// neardup.Similarity, among its nearest by pixel descriptors) comes before every other sample,
// whatever the features say: a scan's features of a copy and of its source come from different
// fold networks and need not be each other's nearest.
//
// Build once, query many times: an Index is safe for concurrent queries. It never imports
// Fyne or the store.
package similar

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect/neardup"
	"idxlabel/suspect/nn"
)

// Space is the vectors an Index compares samples by.
type Space int

const (
	Pixels Space = iota // the duplicate check's pixel descriptors (neardup.Basis)
	CNN                 // the CNN's features (a scan's)
)

// String returns "pixel descriptors" or "CNN features", for the person.
func (s Space) String() string {
	if s == CNN {
		return "CNN features"
	}
	return "pixel descriptors"
}

// CopySimilarity is the shift-aligned pixel similarity (neardup.Similarity) at or above which a
// candidate counts as a near-copy of the query and is listed first: copies with noise of σ 4
// grey levels score 0.997 or more, while on real MNIST 5 test digits of 10,000 reach 0.99 against
// the training set (bench/check/README.md), so natural neighbours rarely pass.
const CopySimilarity = 0.99

// copyCandidates is how many of the nearest by the index are checked for being near-copies.
const copyCandidates = 32

// Match is one sample like the query: its position in the set (0…N−1) and its similarity, the
// cosine of the two samples' vectors in the Index's space (1: the same direction), or, for a
// near-copy listed first, its pixel similarity (neardup.Similarity).
type Match struct {
	Index      int
	Similarity float64
	Copy       bool // a near-copy of the query, listed before the others
}

// Options tune Build. The zero value compares pixel descriptors.
type Options struct {
	// Features are the CNN's features of the set's samples, N×Dim (row i for sample i:
	// suspect.CNNResult.Features, or a kept scan's); nil compares pixel descriptors.
	Features []float32
	Dim      int
	// Embed returns the CNN's features of new images (h×w pixels as stored, one row each), in
	// the space of Features (suspect.Model.Features, EmbedWith); nil: queries by pixels are
	// answered by pixel descriptors.
	Embed func(ctx context.Context, images [][]byte) ([]float32, error)
	// Seed chooses the pixel descriptors' sample of images (default 1).
	Seed    uint64
	Workers int // goroutines (default runtime.NumCPU())
	// Index tunes the neighbour index (nn.NewIndex; Cosine is always set).
	Index nn.IndexOptions
	// Progress (may be nil) gets the share of the build done, from one goroutine at a time.
	Progress func(float64)
}

// Index answers similarity queries among one set's samples.
type Index struct {
	d      sample.Set
	space  Space
	vecs   *nn.Index   // the space's index: the CNN features', or the pixels' own
	pixels *pixelIndex // the pixel descriptors', for near-copies and queries by pixels
	embed  func(ctx context.Context, images [][]byte) ([]float32, error)
}

// pixelIndex is a set's pixel descriptors indexed.
type pixelIndex struct {
	basis *neardup.Basis
	ix    *nn.Index
	offs  []neardup.Offset
}

// Build indexes the samples of d for similarity queries: by opts.Features when given, else by
// pixel descriptors; the pixel descriptors are indexed in either case (near-copies are found by
// them). Growth: the descriptors take O(N·H·W) to compute and N·48 float32; each index
// nn.NewIndex's (a copy of its vectors; near-linear build above nn.ExactBelow); the set's pixels
// are read, not copied. Errors: features that are not N×Dim, samples of a size the descriptors
// cannot take, no samples, or the context's error.
func Build(ctx context.Context, d sample.Set, opts Options) (*Index, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if d.N == 0 {
		return nil, fmt.Errorf("similar: no samples to search")
	}
	if opts.Features != nil && (opts.Dim < 1 || len(opts.Features) != d.N*opts.Dim) {
		return nil, fmt.Errorf("similar: %d feature values for %d samples of %d", len(opts.Features), d.N, opts.Dim)
	}
	report := func(from, to float64) func(float64) {
		return func(f float64) {
			if opts.Progress != nil {
				opts.Progress(from + (to-from)*f)
			}
		}
	}
	share := 1.0
	if opts.Features != nil {
		share = 0.6
	}
	opts.Index.Cosine, opts.Index.Workers = true, opts.Workers
	ix := &Index{d: d, embed: opts.Embed, space: Pixels}
	basis, err := neardup.FitBasis(ctx, d, opts.Seed)
	if err != nil {
		return nil, err
	}
	desc, err := basis.Describe(ctx, d, opts.Workers, report(0, 0.4*share))
	if err != nil {
		return nil, err
	}
	io := opts.Index
	io.Progress = report(0.4*share, share)
	pix, err := nn.NewIndex(ctx, desc.Vectors, io)
	if err != nil {
		return nil, err
	}
	ix.pixels = &pixelIndex{basis: basis, ix: pix, offs: desc.Offsets}
	ix.vecs = pix
	if opts.Features != nil {
		io.Progress = report(share, 1)
		if ix.vecs, err = nn.NewIndex(ctx, nn.Vectors{Data: opts.Features, N: d.N, Dim: opts.Dim}, io); err != nil {
			return nil, err
		}
		ix.space = CNN
	}
	return ix, nil
}

// Space returns the vectors the index compares samples by (Pixels or CNN).
func (ix *Index) Space() Space { return ix.space }

// Len returns the number of samples indexed.
func (ix *Index) Len() int { return ix.d.N }

// Like returns the k samples most like sample i (0…N−1), most similar first, i itself left out:
// near-copies of it first (by pixel similarity), then the others by the cosine of their vectors.
// Cost: a query of each index (a few milliseconds at 1,000,000 samples) and copyCandidates
// pixel similarities. A k above N − 1 is taken as N − 1, so memory follows the samples, not k.
// Errors: i out of range, k < 1, or the context's error.
func (ix *Index) Like(ctx context.Context, i, k int) ([]Match, error) {
	if i < 0 || i >= ix.d.N {
		return nil, fmt.Errorf("similar: sample %d of %d", i, ix.d.N)
	}
	if k < 1 {
		return nil, fmt.Errorf("similar: k = %d", k)
	}
	if k = min(k, ix.d.N-1); k == 0 {
		return nil, nil
	}
	one := nn.Options{Workers: 1}
	g, err := ix.vecs.Among(ctx, []int{i}, max(k, copyCandidates), one)
	if err != nil {
		return nil, err
	}
	near := g
	if ix.space == CNN {
		if near, err = ix.pixels.ix.Among(ctx, []int{i}, copyCandidates, one); err != nil {
			return nil, err
		}
	}
	return ix.rank(g, near, ix.d.Pixels(i), ix.pixels.offs[i], k), nil
}

// LikePixels returns the k samples most like an image of the set's size (H×W pixels as
// stored, 0 = background), most similar first, and the space that answered: the CNN's when the
// index compares CNN features and has Embed, else pixel descriptors. A k above N is taken as N,
// so memory follows the samples, not k. Errors: pixels of another size, k < 1, Embed's, or the
// context's error.
func (ix *Index) LikePixels(ctx context.Context, px []byte, k int) ([]Match, Space, error) {
	if len(px) != ix.d.Dim() {
		return nil, 0, fmt.Errorf("similar: an image of %d pixels, the samples have %d×%d", len(px), ix.d.H, ix.d.W)
	}
	if k < 1 {
		return nil, 0, fmt.Errorf("similar: k = %d", k)
	}
	k = min(k, ix.d.N)
	one := nn.Options{Workers: 1}
	q := sample.Set{N: 1, H: ix.d.H, W: ix.d.W, Labels: []int{sample.NoLabel}, Pixels: func(int) []byte { return px }}
	desc, err := ix.pixels.basis.Describe(ctx, q, 1, nil)
	if err != nil {
		return nil, 0, err
	}
	near, err := ix.pixels.ix.Across(ctx, desc.Vectors, max(k, copyCandidates), one)
	if err != nil {
		return nil, 0, err
	}
	g, space := near, Pixels
	if ix.space == CNN && ix.embed != nil {
		f, err := ix.embed(ctx, [][]byte{px})
		if err != nil {
			return nil, 0, err
		}
		if g, err = ix.vecs.Across(ctx, nn.Vectors{Data: f, N: 1, Dim: len(f)}, max(k, copyCandidates), one); err != nil {
			return nil, 0, err
		}
		space = CNN
	}
	return ix.rank(g, near, px, desc.Offsets[0], k), space, nil
}

// rank turns the query's neighbour rows into k matches: its near-copies among the first
// copyCandidates of near (the pixel descriptors' row: neardup.Similarity of at least
// CopySimilarity), most similar first, then the others of g in its order, by cosine (1 − d/2 of
// the index's squared distances between unit vectors).
func (ix *Index) rank(g, near *nn.Graph, px []byte, off neardup.Offset, k int) []Match {
	var out []Match
	copies := map[int32]bool{}
	ni, _ := near.Of(0)
	for _, j := range ni[:min(len(ni), copyCandidates)] {
		if j < 0 {
			break
		}
		if s, _ := neardup.Similarity(px, ix.d.Pixels(int(j)), ix.d.H, ix.d.W, off, ix.pixels.offs[j]); s >= CopySimilarity {
			out = append(out, Match{Index: int(j), Similarity: s, Copy: true})
			copies[j] = true
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if a.Similarity > b.Similarity {
			return -1
		}
		if a.Similarity < b.Similarity {
			return 1
		}
		return 0
	})
	idx, dist := g.Of(0)
	for m, j := range idx {
		if j < 0 || len(out) >= k {
			break
		}
		if !copies[j] {
			out = append(out, Match{Index: int(j), Similarity: 1 - float64(dist[m])/2})
		}
	}
	return out[:min(k, len(out))]
}
