package suspect

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"idxlabel/suspect/cnn"
)

// Method names a way to rank suspects.
type Method string

// The methods: the cross-validated CNN (ScanCNN, the default) and the k nearest neighbours
// (Scan, fast, and the source of neighbours and near duplicates).
const (
	MethodCNN Method = "cnn"
	MethodKNN Method = "knn"
)

// CNNOptions tune ScanCNN. The zero value takes the defaults: the recipe measured in issue 12.
type CNNOptions struct {
	Folds int // cross-validation folds, at least 2 (default 5)
	// Epochs per fold (default: 12 for up to 8,000 training samples per fold, fewer for more so
	// the optimizer steps per fold stay near 1,500 — 96,000 samples drawn — and at least 2).
	Epochs int
	Seed   uint64 // seeds every random choice (default 1): the same seed gives the same ranking
	// Workers is how many folds train at once (default: one per CPU); each fold uses two
	// goroutines, so on 2 cores a fold that trains alone still uses both. Measured on t10k, 2
	// cores, with the assembly kernels: 45 s with 2 workers, 63 s with 1 (the same ranking: the
	// arithmetic does not depend on the workers).
	Workers int
	// Seeds is how many cross-validations to run, with seeds Seed, Seed+1, …, each dealing its
	// own folds; their out-of-fold probabilities are averaged (default 1; each costs a scan).
	Seeds int
}

func (o CNNOptions) withDefaults(trainPerFold int) CNNOptions {
	if o.Folds == 0 {
		o.Folds = 5
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
		o.Seeds = 1
	}
	return o
}

// DefaultEpochs returns the epochs per fold ScanCNN uses for n training samples per fold:
// 96,000 samples drawn (12 epochs of 8,000, the recipe measured on t10k with 5 folds), rounded,
// between 2 and 12.
func DefaultEpochs(n int) int {
	if n <= 0 {
		return 12
	}
	return min(12, max(2, (96000+n/2)/n))
}

// Progress reports how far a CNN scan is. Calls come from the training goroutines, one at a
// time.
type Progress struct {
	Fold, Folds   int           // the fold that advanced (1-based) and the folds in all (folds × seeds)
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
	// Suspects lists every labelled sample, most suspicious first: Score = 1 − the out-of-fold
	// probability of its label (self-confidence, Northcutt et al. 2021), ties broken by the
	// normalized margin (Support: the highest probability of another class, higher first),
	// then by lower index.
	Suspects []Suspect
	// Unlabelled lists the samples labelled NoLabel, most confident suggestion first. They are
	// not trained on; their probabilities are the mean of the fold models'.
	Unlabelled []Suspect
	// Error is the out-of-fold error: the share of labelled samples whose most probable class
	// is not their label.
	Error float64
	// SeedErrors is the out-of-fold error of each seed's cross-validation alone.
	SeedErrors []float64
	// Model predicts labels for new samples (drawn digits): the mean of the fold models (of
	// every seed).
	Model *Model
	// Classes lists the labels of Probs' columns, ascending.
	Classes []int
	// Probs holds N×len(Classes) class probabilities, row i for sample i: out-of-fold (averaged
	// over the seeds) for a labelled sample, the mean of the fold models for an unlabelled one.
	Probs []float32
	// Features holds N×cnn.Features embeddings, row i for sample i: the penultimate activations
	// of the first seed's fold model that held sample i out (of its first fold model for an
	// unlabelled sample), so no sample is embedded by a model that trained on it; mapped into
	// one space, the first fold model's, by an affine map fitted per fold (commonFeatures), so
	// distances between samples of different folds mean what they mean within a fold.
	Features []float32
}

// ScanCNN ranks every labelled sample of d by how likely its label is wrong, by confident
// learning with a cross-validated CNN: the labelled samples are dealt into stratified folds
// (each class shuffled with the seed and dealt round-robin), a network (package cnn) is trained
// on all folds but one and predicts the held-out fold, so every sample gets an out-of-fold
// probability for each class. Images other than 28×28 are resized to 28×28 for the model
// (bilinear, disintegration/imaging). The result depends only on d and opts (not on the number
// of cores). progress (may be nil) is called as training advances.
//
// Errors: fewer than 2 samples, labels or pixels of the wrong length, fewer than 2 classes or
// more than cnn.MaxClasses, folds below 2 or above the labelled samples, or the context's error
// when cancelled.
func ScanCNN(ctx context.Context, d Data, opts CNNOptions, progress func(Progress)) (*CNNResult, error) {
	in, err := prepare(d)
	if err != nil {
		return nil, err
	}
	if opts.Folds == 0 {
		opts.Folds = 5
	}
	if opts.Folds < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, not %d", opts.Folds)
	}
	if len(in.labelled) < opts.Folds {
		return nil, fmt.Errorf("%d folds for %d labelled samples", opts.Folds, len(in.labelled))
	}
	opts = opts.withDefaults(len(in.labelled) - len(in.labelled)/opts.Folds)
	cfg := cnn.Config{Epochs: opts.Epochs}
	// One job per seed and fold: the folds are dealt anew for each seed.
	type job struct {
		seed        uint64
		held, train []int
	}
	var jobs []job
	for r := range opts.Seeds {
		seed := opts.Seed + uint64(r)
		for _, held := range stratifiedFolds(in.labelled, in.cls, opts.Folds, seed) {
			mark := make(map[int]bool, len(held))
			for _, i := range held {
				mark[i] = true
			}
			train := make([]int, 0, len(in.labelled)-len(held))
			for _, i := range in.labelled {
				if !mark[i] {
					train = append(train, i)
				}
			}
			jobs = append(jobs, job{seed, held, train})
		}
	}

	// Progress: optimizer steps done over the steps of all jobs.
	total := 0
	for _, j := range jobs {
		total += cfg.Steps(len(j.train))
	}
	clock := newProgressClock()
	var mu sync.Mutex
	done := 0
	report := func(job, step, steps int) {
		mu.Lock()
		defer mu.Unlock()
		done++
		perEpoch := (steps + opts.Epochs - 1) / opts.Epochs
		if progress == nil || (step%10 != 0 && step%perEpoch != 0 && step != steps) {
			return
		}
		progress(clock.progress(job+1, len(jobs), min((step-1)/perEpoch+1, opts.Epochs), opts.Epochs, float64(done)/float64(total)))
	}

	nc := len(in.classes)
	outs := make([][]float32, len(jobs)) // each job's held-out probabilities
	nets := make([]*cnn.Net, len(jobs))
	feats := make([][]float32, opts.Folds) // the first seed's held-out features
	errs := make([]error, len(jobs))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx) // a job's failure stops the others
	defer cancel()
	sem := make(chan struct{}, opts.Workers)
	var wg sync.WaitGroup
	for k, j := range jobs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			rng := rand.New(rand.NewPCG(j.seed, uint64(k%opts.Folds+1)))
			net, err := cnn.Train(ctx, in.samples, j.train, nc, cfg, rng, func(step, steps int) { report(k, step, steps) })
			if err == nil {
				outs[k] = make([]float32, len(j.held)*nc)
				var f []float32
				if k < opts.Folds {
					f = make([]float32, len(j.held)*cnn.Features)
					feats[k] = f
				}
				err = net.Outputs(ctx, in.samples, j.held, outs[k], f)
			}
			nets[k], errs[k] = net, err
			if err != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil && err != context.Canceled {
			return nil, err
		}
	}
	// Out-of-fold probabilities, averaged over the seeds in job order.
	probs := make([]float32, d.N*nc)
	seedWrong := make([]int, opts.Seeds)
	for k, j := range jobs {
		for m, i := range j.held {
			p := outs[k][m*nc : (m+1)*nc]
			if argmax(p) != in.cls[i] {
				seedWrong[k/opts.Folds]++
			}
			for c, v := range p {
				probs[i*nc+c] += v / float32(opts.Seeds)
			}
		}
	}
	model := &Model{nets: nets, classes: in.classes, h: in.h, w: in.w}
	res := &CNNResult{Model: model, Classes: slices.Clone(in.classes), Probs: probs,
		Features: make([]float32, d.N*cnn.Features)}
	held := make([][]int, opts.Folds)
	for k := range held {
		held[k] = jobs[k].held
	}
	if err := commonFeatures(ctx, in.samples, d.N, nets[:opts.Folds], held, feats, res.Features, opts.Workers); err != nil {
		return nil, err
	}
	for _, w := range seedWrong {
		res.SeedErrors = append(res.SeedErrors, float64(w)/float64(len(in.labelled)))
	}
	wrong := 0
	for _, i := range in.labelled {
		s := verdict(i, d.Labels[i], in.cls[i], probs[i*nc:(i+1)*nc], in.classes)
		if s.Suggested != s.Label {
			wrong++
		}
		res.Suspects = append(res.Suspects, s)
	}
	res.Error = float64(wrong) / float64(len(in.labelled))
	sortSuspects(res.Suspects)
	// Unlabelled samples: the fold models' mean.
	var unl []int
	for i, l := range d.Labels {
		if l == NoLabel {
			unl = append(unl, i)
		}
	}
	if len(unl) > 0 {
		p, err := model.probabilities(ctx, in.samples, unl)
		if err != nil {
			return nil, err
		}
		f := make([]float32, len(unl)*cnn.Features)
		if err := nets[0].Outputs(ctx, in.samples, unl, nil, f); err != nil {
			return nil, err
		}
		for k, i := range unl {
			copy(probs[i*nc:(i+1)*nc], p[k*nc:])
			copy(res.Features[i*cnn.Features:(i+1)*cnn.Features], f[k*cnn.Features:])
			res.Unlabelled = append(res.Unlabelled, verdict(i, NoLabel, -1, p[k*nc:(k+1)*nc], in.classes))
		}
		sortSuggestions(res.Unlabelled)
	}
	return res, nil
}

// verdict turns one sample's class probabilities p (in the order of classes) into its Suspect:
// Suggested is the most probable class (the first on ties), Confidence its probability, Score
// 1 − p(label) and Support the highest probability of a class other than the label (cls, its
// index; −1 for none).
func verdict(i, label, cls int, p []float32, classes []int) Suspect {
	best, other := argmax(p), -1
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

// stratifiedFolds deals the labelled samples into k folds: each class's samples (cls[i] is
// sample i's class index) are shuffled with the seed, then dealt round-robin, continuing from
// class to class, so every fold has nearly the same size and class mix.
func stratifiedFolds(labelled []int, cls []int, k int, seed uint64) [][]int {
	byClass := map[int][]int{}
	for _, i := range labelled {
		byClass[cls[i]] = append(byClass[cls[i]], i)
	}
	keys := make([]int, 0, len(byClass))
	for c := range byClass {
		keys = append(keys, c)
	}
	slices.Sort(keys)
	rng := rand.New(rand.NewPCG(seed, 0))
	folds := make([][]int, k)
	next := 0
	for _, c := range keys {
		m := byClass[c]
		rng.Shuffle(len(m), func(a, b int) { m[a], m[b] = m[b], m[a] })
		for _, i := range m {
			folds[next] = append(folds[next], i)
			next = (next + 1) % k
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}
