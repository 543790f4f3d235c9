// Package outlier ranks the samples of a dataset by how unlike every class they are: not a
// digit at all (a letter, a symbol, noise, a blank or near-blank image, a filled shape, an
// inverted scan, two digits in one image).
//
// Several detectors each measure how far a sample lies from its K nearest other samples in one
// space: the pixel statistics of Stats (always), and each embedding the caller gives (the CNN's
// held-out penultimate features, the pixel descriptors of suspect/neardup), compared by angle.
// No one detector sees every kind of outlier (measured on MNIST's t10k with 30 planted
// non-digits: the statistics find blanks, noise, shapes and inverted scans; the embeddings
// letters, symbols and pairs of digits), so their verdicts are combined by Fisher's method on
// ranks: Score = Σ over the detectors of w·−ln(r/N), r the sample's rank (1 = farthest) among
// N and w the detector's weight (1 for the statistics, Embedding.Weight for an embedding). A
// sample far out in one detector, or fairly far out in several, scores high. outlier never
// imports Fyne.
package outlier

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"idxlabel/suspect"
	"idxlabel/suspect/nn"
)

// DefaultK is the number of neighbours whose mean distance measures how far out a sample lies.
const DefaultK = 10

// Options tune Scores. The zero value takes the defaults.
type Options struct {
	K       int // neighbours per sample (default DefaultK)
	Workers int // goroutines (default runtime.NumCPU())
	// Index tunes the neighbour indexes (nn.NewIndex: exact below nn.ExactBelow samples).
	Index nn.IndexOptions
	// Progress (may be nil) gets a stage ("statistics", "embedding 1", …) and the share of it
	// done, from one goroutine at a time.
	Progress func(stage string, done float64)
}

// Embedding is one space in which a detector measures how far out each sample lies: N×D
// vectors, compared by angle, and the weight of the detector's ranks in the Score (0: 1).
type Embedding struct {
	Vectors nn.Vectors
	Weight  float64
}

// Scores returns one score per sample of d (N values, larger = more of an outlier; see the
// package comment), from the pixel statistics and each embedding.
// Growth: the neighbour searches' (near-linear in N, nn.Index) and O(N log N) for the ranks;
// memory O(N·D) per embedding while its index exists. Errors: an embedding with another number
// of rows, pixels of the wrong length, fewer than 2 samples, or the context's error.
func Scores(ctx context.Context, d suspect.Data, embeddings []Embedding, opts Options) ([]float64, error) {
	if opts.K <= 0 {
		opts.K = DefaultK
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if d.N < 2 {
		return nil, fmt.Errorf("outliers need at least 2 samples, the dataset has %d", d.N)
	}
	for _, e := range embeddings {
		if e.Vectors.N != d.N {
			return nil, fmt.Errorf("an embedding of %d rows for %d samples", e.Vectors.N, d.N)
		}
	}
	stats, err := Stats(ctx, d)
	if err != nil {
		return nil, err
	}
	score := make([]float64, d.N)
	detect := func(stage string, v nn.Vectors, cosine bool, weight float64) error {
		report := func(f float64) {
			if opts.Progress != nil {
				opts.Progress(stage, f)
			}
		}
		io := opts.Index
		io.Workers, io.Cosine = opts.Workers, cosine
		io.Progress = func(f float64) { report(f / 2) }
		ix, err := nn.NewIndex(ctx, v, io)
		if err != nil {
			return err
		}
		k := min(opts.K, d.N-1)
		g, err := ix.Among(ctx, nil, k, nn.Options{Workers: opts.Workers, Progress: func(f float64) { report(0.5 + f/2) }})
		if err != nil {
			return err
		}
		far := make([]float64, d.N)
		for i := range d.N {
			_, dist := g.Of(i)
			for _, x := range dist {
				far[i] += math.Sqrt(float64(x)) / float64(k)
			}
		}
		addRanks(score, far, weight)
		return nil
	}
	if err := detect("statistics", stats, false, 1); err != nil {
		return nil, err
	}
	for e, emb := range embeddings {
		w := emb.Weight
		if w == 0 {
			w = 1
		}
		if err := detect(fmt.Sprintf("embedding %d", e+1), emb.Vectors, true, w); err != nil {
			return nil, err
		}
	}
	return score, nil
}

// addRanks adds w·−ln(r/N) to score[i] for each sample, r its rank by far (1 = largest; equal
// values ranked by lower index first).
func addRanks(score, far []float64, w float64) {
	n := len(far)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(far[b], far[a]) })
	for r, i := range order {
		score[i] -= w * math.Log(float64(r+1)/float64(n))
	}
}

// Rank returns the sample indices ordered by score, highest first (equal scores: lower index
// first).
func Rank(score []float64) []int {
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	return order
}
