package suspect

import (
	"cmp"
	"context"
	"fmt"
	"idxlabel/sample"
	"runtime"
	"slices"
	"time"
)

// Method names a way to rank suspects.
type Method string

// The methods: the cross-validated CNN (ScanCNN, the default) and the k nearest neighbours
// (Scan, fast, and the source of neighbours).
const (
	MethodCNN Method = "cnn"
	MethodKNN Method = "knn"
)

// CNNOptions tune ScanCNN. The zero value takes the defaults, the recipe measured on MNIST's
// test set: 2 seeds × 3 folds, label smoothing 0.1, DefaultEpochs, and a vote of each sample's
// 10 nearest neighbours in the fold model's features blended half and half with its
// probabilities.
type CNNOptions struct {
	Folds int // cross-validation folds, at least 2 (default 3)
	// Epochs per fold (default DefaultEpochs of the training samples per fold).
	Epochs int
	Seed   uint64 // seeds every random choice (default 1): the same seed gives the same ranking
	// Seeds is how many cross-validations to run, with seeds Seed, Seed+1, …, each dealing its
	// own folds; their out-of-fold probabilities are averaged (default 2; each costs a scan).
	Seeds int
	// Workers is how many folds train at once (default: one per CPU); each fold uses two
	// goroutines, so on 2 cores a fold that trains alone still uses both. The result does not
	// depend on it.
	Workers int
	// Neighbours is how many nearest labelled samples, by the Euclidean distance of the fold
	// model's features, vote on a held-out sample's class (default 10; below 0: no vote, the
	// network's probabilities alone).
	Neighbours int
	// Shifts averages each held-out sample's network probabilities over its 9 translations by
	// up to one pixel (test-time augmentation; 9 more predictions per sample).
	Shifts bool
	// TrainBudget bounds the labelled samples each fold model learns from (default
	// DefaultTrainBudget; below 0: no bound). When the other folds hold more, the model learns
	// from that many of them drawn at random with the seed, and its held-out samples' vote
	// comes from those and the held-out samples; every labelled sample is still held out once
	// per seed, so each gets its out-of-fold probabilities.
	TrainBudget int
	// Groups (nil: none) numbers each sample's group of near-copies, one value per sample
	// (neardup.GroupIDs): a group's labelled samples are held out in one fold together, and
	// never vote on each other, so a sample's copies cannot sit in the folds that predict it
	// (an augmented dataset's out-of-fold error would otherwise be near 0 and hide its label
	// errors).
	Groups []int32
}

// The recipe's fixed parts: label smoothing of the training targets, and the kNN vote's share of
// the blended probabilities.
const (
	labelSmoothing = 0.1
	knnShare       = 0.5
)

func (o CNNOptions) withDefaults(trainPerFold int) CNNOptions {
	if o.Folds == 0 {
		o.Folds = 3
	}
	if o.Epochs <= 0 {
		o.Epochs = DefaultEpochs(trainPerFold)
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Workers <= 0 {
		o.Workers = max(1, runtime.NumCPU())
	}
	if o.Seeds <= 0 {
		o.Seeds = 2
	}
	if o.Neighbours == 0 {
		o.Neighbours = 10
	}
	if o.TrainBudget == 0 {
		o.TrainBudget = DefaultTrainBudget
	}
	return o
}

// DefaultTrainBudget is the most labelled samples a fold model of ScanCNN learns from by
// default: with 3 folds, every sample of a set up to 180,000 (MNIST's 60,000 and 70,000 are
// learnt whole); above, training and the neighbour vote cost the same whatever the set's size,
// and only the held-out predictions grow with N. At 120,000 samples a model draws 240,000 in
// its 2 epochs (DefaultEpochs), against 1,333,000 at 1,000,000 samples without the bound. On
// 4,000 t10k digits with 100 planted label errors, a budget of half a fold's training set put
// 90 of them in the top 200 against 93 without (TestScanCNNTrainBudget); the check of
// 1,000,000 augmented samples is measured in bench/README.md.
const DefaultTrainBudget = 120000

// DefaultEpochs returns the epochs per fold ScanCNN uses for n training samples per fold: 14 (the
// recipe measured on 10,000 samples in 3 folds) up to about epochSamples/14 samples, then fewer
// so that each fold model draws about epochSamples samples (rounded), and at least 2. With 3
// folds: 14 epochs up to about 26,000 samples, 6 for MNIST's 60,000, 3 for 120,000, 2 from
// 240,000.
func DefaultEpochs(n int) int {
	if n <= 0 {
		return 14
	}
	return min(14, max(2, (epochSamples+n/2)/n))
}

// epochSamples bounds the samples each fold model draws in training by default (DefaultEpochs),
// so training time grows with N only once every fold trains 2 epochs. Measured on MNIST's 60,000
// training samples with 300 planted label errors (3 folds, 40,000 training samples each; 2
// cores): 2 epochs — 1.75% out-of-fold error of the networks, 296 of the planted errors in the
// top 400, 40 s of CPU; 3 — 1.49%, 299, 47 s; 4 — 1.33%, 300, 55 s; 6 — 1.20%, 300, 69 s.
const epochSamples = 240000

// Progress reports how far a CNN scan is. Calls come from the training goroutines, one at a
// time.
type Progress struct {
	Fold, Folds   int           // the fold model that advanced (1-based) and the models in all (folds × seeds)
	Epoch, Epochs int           // its epoch (1-based) and the epochs per fold
	Done          float64       // share of the whole scan done, 0–1
	Elapsed       time.Duration // since the scan started
	Left          time.Duration // estimated time left (elapsed × (1 − done) / done)
}

// progressClock times a scan for its Progress reports.
type progressClock struct{ start time.Time }

func newProgressClock() progressClock { return progressClock{time.Now()} }

func (c progressClock) progress(fold, folds, epoch, epochs int, done float64) Progress {
	p := Progress{Fold: fold, Folds: folds, Epoch: epoch, Epochs: epochs, Done: done, Elapsed: time.Since(c.start)}
	if done > 0 {
		p.Left = time.Duration(float64(p.Elapsed) * (1 - done) / done)
	}
	return p
}

// CNNResult is a CNN scan's outcome.
type CNNResult struct {
	// Suspects lists every labelled sample, most suspicious first: Score = 1 − p(label), p the
	// blended out-of-fold probabilities of Probs (self-confidence, Northcutt et al. 2021), ties
	// broken by the highest probability of another class (Support, higher first), then by lower
	// index.
	Suspects []Suspect
	// Unlabelled lists the samples labelled sample.NoLabel, most confident suggestion first. They are
	// not trained on; their probabilities are Model's (the calibrated mean of the fold models).
	Unlabelled []Suspect
	// Error is the out-of-fold error of the blended probabilities: the share of labelled samples
	// whose most probable class is not their label.
	Error float64
	// SeedErrors is the out-of-fold error of each seed's networks alone (without the vote).
	SeedErrors []float64
	// CNNError is the out-of-fold error of the networks' probabilities averaged over the seeds,
	// without the vote.
	CNNError float64
	// Model predicts labels for new samples (drawn digits): the mean of the fold models (of
	// every seed), calibrated on the out-of-fold probabilities.
	Model *Model
	// Classes lists the labels of Probs' columns, ascending.
	Classes []int
	// Probs holds N×len(Classes) class probabilities, row i for sample i. A labelled sample's row
	// is what its Suspect is scored by: 0.5 × the held-out network's probabilities plus 0.5 × the
	// kNN vote of its neighbours in that network's features (only the network's with a negative
	// CNNOptions.Neighbours), averaged over the seeds; not calibrated. An unlabelled sample's row
	// is Model's prediction (calibrated, no vote).
	Probs []float32
	// Features holds N×cnn.Features embeddings, row i for sample i: the penultimate activations
	// of the first seed's fold model that held sample i out (of its first fold model for an
	// unlabelled sample), so no sample is embedded by a model that trained on it; mapped into
	// one space, the first fold model's, by an affine map fitted per fold (commonFeatures), so
	// distances between samples of different folds mean what they mean within a fold.
	Features []float32
}

// ScanCNN ranks every labelled sample of d by how likely its label is wrong, by confident
// learning with cross-validated CNNs. For each seed the labelled samples are dealt into
// stratified folds (each class shuffled with the seed and dealt round-robin); a network
// (package cnn, trained with label smoothing) learns all folds but one and predicts the held-out
// fold. Its penultimate features (cnn.Features values per sample) of every labelled sample (of
// the held-out ones and those it learnt from, when CNNOptions.TrainBudget bounds the latter)
// then give each held-out sample a vote of its nearest labelled neighbours, each weighted
// 1/(1 + d/m), d its Euclidean distance and m the median distance of the held-out samples to
// their nearest neighbour, the votes normalized to sum to 1. A sample's out-of-fold p is
// 0.5 × the network's probabilities + 0.5 × the vote, averaged over the seeds. Images other than
// 28×28 are resized to 28×28 for the model (bilinear, disintegration/imaging). The result
// depends only on d and opts, not on the number of cores or workers. progress (may be nil) is
// called as training advances.
//
// Growth: training is linear in N up to the budget (DefaultEpochs bounds the samples drawn per
// fold model), then constant (CNNOptions.TrainBudget); the held-out predictions are linear in N;
// the neighbour vote searches the held-out samples among themselves and the training budget
// with the neighbour index (suspect/nn: exact below nn.ExactBelow points, then O(Q·√P·D) for Q
// queries among P points); memory O(N·(cnn.Features + classes)) per fold model at work.
//
// Errors: fewer than 2 samples, labels or pixels of the wrong length, fewer than 2 classes or
// more than cnn.MaxClasses, folds below 2 or above the labelled samples, or the context's error
// when cancelled.
func ScanCNN(ctx context.Context, d sample.Set, opts CNNOptions, progress func(Progress)) (*CNNResult, error) {
	in, err := prepare(d)
	if err != nil {
		return nil, err
	}
	if opts.Folds == 0 {
		opts.Folds = 3
	}
	if opts.Folds < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, not %d", opts.Folds)
	}
	if len(in.labelled) < opts.Folds {
		return nil, fmt.Errorf("%d folds for %d labelled samples", opts.Folds, len(in.labelled))
	}
	if opts.Groups != nil && len(opts.Groups) != d.N {
		return nil, fmt.Errorf("%d groups for %d samples", len(opts.Groups), d.N)
	}
	trainPerFold := len(in.labelled) - len(in.labelled)/opts.Folds
	if b := cmp.Or(opts.TrainBudget, DefaultTrainBudget); b > 0 {
		trainPerFold = min(trainPerFold, b)
	}
	opts = opts.withDefaults(trainPerFold)
	sc := newCNNScan(in, d, opts)
	if err := sc.run(ctx, progress); err != nil {
		return nil, err
	}
	return sc.result(ctx)
}

// verdict turns one sample's class probabilities p (in the order of classes) into its Suspect:
// Suggested is the most probable class (the label when it ties for most probable, else the
// first of the tied), Confidence its probability, Score 1 − p(label) and Support the highest
// probability of a class other than the label (cls, its index; −1 for none).
func verdict(i, label, cls int, p []float32, classes []int) Suspect {
	best, other := argmax(p), -1
	if cls >= 0 && p[cls] == p[best] {
		best = cls // a tie is no evidence against the label
	}
	for j := range p {
		if j != cls && (other < 0 || p[j] > p[other]) {
			other = j
		}
	}
	s := Suspect{Index: i, Label: label, Suggested: classes[best], Confidence: float64(p[best]), Score: 1}
	if cls >= 0 {
		s.Score = 1 - float64(p[cls])
	}
	if other >= 0 {
		s.Support = float64(p[other])
	}
	return s
}

// argmax returns the index of the largest value (the first on ties).
func argmax(p []float32) int {
	best := 0
	for j := range p {
		if p[j] > p[best] {
			best = j
		}
	}
	return best
}

// sortSuspects orders most suspicious first: higher Score, then higher Support, then lower Index.
func sortSuspects(out []Suspect) {
	slices.SortStableFunc(out, func(a, b Suspect) int {
		switch {
		case a.Score != b.Score:
			return cmpDesc(a.Score, b.Score)
		case a.Support != b.Support:
			return cmpDesc(a.Support, b.Support)
		}
		return a.Index - b.Index
	})
}
