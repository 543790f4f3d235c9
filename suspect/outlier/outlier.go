// Package outlier ranks the samples of a dataset by how unlike every class they are: not a
// digit at all (a letter, a symbol, noise, a blank or near-blank image, a filled shape, an
// inverted scan, two digits in one image).
//
// Several detectors each measure how far a sample lies from its K nearest other samples in one
// space: the pixel statistics of Stats (always), and each embedding the caller gives (the CNN's
// held-out penultimate features, the pixel descriptors of suspect/neardup), compared by angle.
// No one detector sees every kind of outlier (measured on MNIST's t10k with 30 planted
// non-digits: the statistics find blanks, noise, shapes and inverted scans; the embeddings
// letters, symbols and pairs of digits), so their verdicts are added: Score = Σ over the
// detectors of ln(1 + max(0, z)), z the robust z-score of the sample's mean distance to its K
// nearest neighbours in that detector ((d − median)/(1.4826·MAD) over the dataset). The logarithm
// lets a sample far out in one detector (a filled square in the statistics) and one fairly far
// out in several both score high, while no one detector's scale dominates. This sum put more
// planted non-digits in the top 50 than Fisher's method on the detectors' ranks, a plain sum
// of z-scores or their maximum, and weighing the CNN features half did no better than counting
// them fully (bench/check/README.md). outlier never
// imports Fyne.
package outlier

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"idxlabel/sample"
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

// Scores returns one score per sample of d (N values, larger = more of an outlier; see the
// package comment), from the pixel statistics and each embedding: a Scorer given the
// statistics, then each embedding in order.
// Growth: the neighbour searches' (near-linear in N, nn.Index) and O(N log N) for the medians;
// memory O(N·D) per embedding while its index exists. Errors: an embedding with another number
// of rows, pixels of the wrong length, fewer than 2 samples, or the context's error.
func Scores(ctx context.Context, d sample.Set, embeddings []nn.Vectors, opts Options) ([]float64, error) {
	sc, err := NewScorer(d.N, opts)
	if err != nil {
		return nil, err
	}
	if err := sc.AddStats(ctx, d); err != nil {
		return nil, err
	}
	for _, v := range embeddings {
		if err := sc.AddEmbedding(ctx, v); err != nil {
			return nil, err
		}
	}
	return sc.Scores(), nil
}

// Scorer adds the detectors' verdicts one at a time, so that a caller can let go of an
// embedding once its detector has run (the pixel descriptors before a CNN scan makes its
// features): N float64 of state. Scores is the same whatever the detectors are added in, up
// to the rounding of the sum; Scores (the function) adds the statistics first, then each
// embedding in order.
type Scorer struct {
	score     []float64
	opts      Options
	embedding int // embeddings added so far (their progress stages are numbered)
}

// NewScorer returns a Scorer of n samples. Errors: fewer than 2 samples.
func NewScorer(n int, opts Options) (*Scorer, error) {
	if opts.K <= 0 {
		opts.K = DefaultK
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if n < 2 {
		return nil, fmt.Errorf("outliers need at least 2 samples, the dataset has %d", n)
	}
	return &Scorer{score: make([]float64, n), opts: opts}, nil
}

// AddStats adds the pixel statistics' detector (Stats, Euclidean distance; progress stage
// "statistics"). Errors: another number of samples, pixels of the wrong length, or the
// context's error.
func (s *Scorer) AddStats(ctx context.Context, d sample.Set) error {
	if d.N != len(s.score) {
		return fmt.Errorf("%d samples for a scorer of %d", d.N, len(s.score))
	}
	stats, err := Stats(ctx, d)
	if err != nil {
		return err
	}
	return s.detect(ctx, "statistics", stats, false)
}

// AddEmbedding adds the detector of an embedding (N rows, compared by angle; progress stage
// "embedding k", k counting the embeddings added). Errors: another number of rows, or the
// context's error.
func (s *Scorer) AddEmbedding(ctx context.Context, v nn.Vectors) error {
	if v.N != len(s.score) {
		return fmt.Errorf("an embedding of %d rows for %d samples", v.N, len(s.score))
	}
	s.embedding++
	return s.detect(ctx, fmt.Sprintf("embedding %d", s.embedding), v, true)
}

// Scores returns the sum of the detectors' verdicts so far, one per sample (the Scorer's own
// slice: adding another detector changes it).
func (s *Scorer) Scores() []float64 { return s.score }

// detect adds ln(1 + z⁺) of each sample's mean distance to its K nearest neighbours in v.
func (s *Scorer) detect(ctx context.Context, stage string, v nn.Vectors, cosine bool) error {
	opts, n := s.opts, len(s.score)
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
	k := min(opts.K, n-1)
	g, err := ix.Among(ctx, nil, k, nn.Options{Workers: opts.Workers, Progress: func(f float64) { report(0.5 + f/2) }})
	if err != nil {
		return err
	}
	ix = nil // the index's copy of v can go before the distances are summed
	far := make([]float64, n)
	for i := range n {
		_, dist := g.Of(i)
		for _, x := range dist {
			far[i] += math.Sqrt(float64(x)) / float64(k)
		}
	}
	addZ(s.score, far)
	return nil
}

// addZ adds ln(1 + max(0, z)) to score[i] for each sample, z the robust z-score of far[i]:
// (far[i] − median)/(1.4826·MAD), the MAD floored at 1e-9 of the median (or 1e-12).
func addZ(score, far []float64) {
	med := median(far)
	dev := make([]float64, len(far))
	for i, x := range far {
		dev[i] = math.Abs(x - med)
	}
	scale := max(1.4826*median(dev), 1e-9*math.Abs(med), 1e-12)
	for i, x := range far {
		score[i] += math.Log1p(max(0, (x-med)/scale))
	}
}

// median returns the median of v (the upper one for an even count); v is not changed.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
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
