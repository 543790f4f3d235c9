package suspect

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"

	"idxlabel/internal/parallel"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
)

// cnnScan is one ScanCNN run: its input, its fold models (jobs) and what each produced.
type cnnScan struct {
	in         *input
	n          int // samples
	nc         int // classes
	opts       CNNOptions
	cfg        cnn.Config
	jobs       []cnnJob
	unlabelled []int     // the samples labelled sample.NoLabel, ascending
	features   []float32 // N×cnn.Features: CNNResult.Features, rows written by the jobs that own them, then aligned
	prog       scanProgress
	// apply is held by the fold model computing its features and neighbour vote: that stage
	// holds a cnn.Features row per sample it passes (and the search as many again), so one at a time halves the
	// peak memory, while the other fold model trains on the other core.
	apply sync.Mutex
}

// cnnJob is one fold model: the seed whose folds it belongs to, the labelled samples it holds
// out and learns from (ascending; the latter at most CNNOptions.TrainBudget of the other
// folds'), and, once run, its outputs.
type cnnJob struct {
	seed        uint64
	held, train []int
	net         *cnn.Net
	probs       []float32 // len(held)×classes: the network's probabilities (shift-averaged with Shifts)
	votes       []float32 // len(held)×classes: the neighbour vote, nil without one
	unlProbs    []float32 // len(unlabelled)×classes
}

func newCNNScan(in *input, d sample.Set, opts CNNOptions) *cnnScan {
	sc := &cnnScan{in: in, n: d.N, nc: len(in.classes), opts: opts, features: make([]float32, d.N*cnn.Features),
		cfg: cnn.Config{Epochs: opts.Epochs, LabelSmoothing: labelSmoothing}}
	for i, c := range in.cls {
		if c < 0 {
			sc.unlabelled = append(sc.unlabelled, i)
		}
	}
	// One job per seed and fold: the folds are dealt anew for each seed.
	for r := range opts.Seeds {
		seed := opts.Seed + uint64(r)
		for _, held := range folds.Stratified(in.labelled, in.cls, opts.Groups, opts.Folds, seed) {
			mark := make([]bool, d.N)
			for _, i := range held {
				mark[i] = true
			}
			train := make([]int, 0, len(in.labelled)-len(held))
			for _, i := range in.labelled {
				if !mark[i] {
					train = append(train, i)
				}
			}
			train = budgeted(train, opts.TrainBudget, seed, len(sc.jobs)%opts.Folds)
			sc.jobs = append(sc.jobs, cnnJob{seed: seed, held: held, train: train})
		}
	}
	return sc
}

// budgeted returns train when it holds at most budget samples, else budget of them drawn at
// random with the seed and the fold (r), ascending: what a fold model learns from when the
// other folds hold more.
func budgeted(train []int, budget int, seed uint64, r int) []int {
	if budget <= 0 || len(train) <= budget {
		return train
	}
	rng := rand.New(rand.NewPCG(seed, 0x6275646765740000+uint64(r)))
	pick := slices.Clone(train)
	for m := range budget { // a partial Fisher–Yates shuffle: the first budget places
		k := m + rng.IntN(len(pick)-m)
		pick[m], pick[k] = pick[k], pick[m]
	}
	pick = pick[:budget:budget]
	slices.Sort(pick)
	return pick
}

// run trains and applies every fold model, opts.Workers at a time; the first failure cancels
// the rest.
func (sc *cnnScan) run(ctx context.Context, progress func(Progress)) error {
	sc.prog.start(sc, progress)
	return parallel.For(ctx, len(sc.jobs), parallel.Options{Workers: sc.opts.Workers}, func(ctx context.Context) func(k, _ int) error {
		return func(k, _ int) error { return sc.runJob(ctx, k) }
	})
}

// runJob trains fold model k, then computes its held-out probabilities, the features of every
// labelled sample and the neighbour vote of the held-out ones, and its predictions of the
// unlabelled samples.
func (sc *cnnScan) runJob(ctx context.Context, k int) error {
	j := &sc.jobs[k]
	r := k % sc.opts.Folds
	rng := rand.New(rand.NewPCG(j.seed, uint64(r+1)))
	net, err := cnn.Train(ctx, sc.in.samples, j.train, sc.nc, sc.cfg, rng, func(step, steps int) { sc.prog.trained(k, step, steps) })
	if err != nil {
		return err
	}
	j.net = net
	sc.apply.Lock()
	defer sc.apply.Unlock()
	// The samples passed through the network: when they vote, the held-out ones and those the
	// model learnt from (their features are the held-out samples' neighbours: every labelled
	// sample when no budget drew from the other folds), else the held-out ones; row at(m) is
	// held-out sample m's.
	pass, at := j.held, func(m int) int { return m }
	if sc.opts.Neighbours > 0 {
		pass = mergeSorted(j.held, j.train)
		at = func(m int) int { p, _ := slices.BinarySearch(pass, j.held[m]); return p }
	}
	feats := make([]float32, len(pass)*cnn.Features)
	probs := make([]float32, len(pass)*sc.nc)
	if err := outputsParallel(ctx, net, sc.in.samples, pass, probs, feats); err != nil {
		return err
	}
	sc.prog.add(k, len(pass))
	j.probs = make([]float32, len(j.held)*sc.nc)
	if sc.opts.Shifts {
		if err := shiftedParallel(ctx, net, sc.in.samples, j.held, j.probs); err != nil {
			return err
		}
		sc.prog.add(k, 9*len(j.held))
	} else {
		for m := range j.held {
			copy(j.probs[m*sc.nc:(m+1)*sc.nc], probs[at(m)*sc.nc:])
		}
	}
	if j.seed == sc.opts.Seed { // the first seed's folds hold every labelled sample out once
		for m, i := range j.held {
			copy(sc.features[i*cnn.Features:(i+1)*cnn.Features], feats[at(m)*cnn.Features:])
		}
	}
	if sc.opts.Neighbours > 0 {
		lab := pass
		queries := make([]int, len(j.held))
		for m := range j.held {
			queries[m] = at(m)
		}
		cls := make([]int, len(lab))
		var groups []int32 // by place in lab: a held-out sample's near-copies cast no vote on it
		if sc.opts.Groups != nil {
			groups = make([]int32, len(lab))
		}
		for p, i := range lab {
			cls[p] = sc.in.cls[i]
			if groups != nil {
				groups[p] = sc.opts.Groups[i]
			}
		}
		j.votes, err = featureVote(ctx, feats, cls, groups, queries, sc.nc, sc.opts.Neighbours, sc.opts.Workers, func(f float64) { sc.prog.voted(k, f) })
		if err != nil {
			return err
		}
	}
	if len(sc.unlabelled) > 0 {
		j.unlProbs = make([]float32, len(sc.unlabelled)*sc.nc)
		var f []float32
		if k == 0 {
			f = make([]float32, len(sc.unlabelled)*cnn.Features)
		}
		if err := outputsParallel(ctx, net, sc.in.samples, sc.unlabelled, j.unlProbs, f); err != nil {
			return err
		}
		if f != nil {
			for m, i := range sc.unlabelled {
				copy(sc.features[i*cnn.Features:(i+1)*cnn.Features], f[m*cnn.Features:])
			}
		}
		sc.prog.add(k, len(sc.unlabelled))
	}
	return nil
}

// mergeSorted returns the union of two ascending lists without common elements, ascending.
func mergeSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// result combines the jobs, in job order, into the scan's result.
func (sc *cnnScan) result(ctx context.Context) (*CNNResult, error) {
	nc, seeds := sc.nc, float32(sc.opts.Seeds)
	cnnP := make([]float32, sc.n*nc) // the networks' out-of-fold probabilities, mean over seeds
	var vote []float32
	if sc.opts.Neighbours > 0 {
		vote = make([]float32, sc.n*nc)
	}
	res := &CNNResult{Classes: slices.Clone(sc.in.classes), Features: sc.features}
	// The first seed's held-out features, each fold's in its own model's space, into the first
	// fold model's (the unlabelled samples' are already there).
	first := sc.jobs[:sc.opts.Folds]
	nets0, held0 := make([]*cnn.Net, len(first)), make([][]int, len(first))
	for m, j := range first {
		nets0[m], held0[m] = j.net, j.held
	}
	if err := commonFeatures(ctx, sc.in.samples, sc.n, nets0, held0, sc.features, sc.opts.Workers); err != nil {
		return nil, err
	}
	seedWrong := make([]int, sc.opts.Seeds)
	nets := make([]*cnn.Net, len(sc.jobs))
	for k, j := range sc.jobs {
		nets[k] = j.net
		for m, i := range j.held {
			p := j.probs[m*nc : (m+1)*nc]
			if argmax(p) != sc.in.cls[i] {
				seedWrong[k/sc.opts.Folds]++
			}
			for c, v := range p {
				cnnP[i*nc+c] += v / seeds
			}
			if vote != nil {
				for c, v := range j.votes[m*nc : (m+1)*nc] {
					vote[i*nc+c] += v / seeds
				}
			}
		}
	}
	labelled := len(sc.in.labelled)
	for _, w := range seedWrong {
		res.SeedErrors = append(res.SeedErrors, float64(w)/float64(labelled))
	}
	res.Probs = cnnP
	if vote != nil {
		res.Probs = make([]float32, sc.n*nc)
		for _, i := range sc.in.labelled {
			for c := i * nc; c < (i+1)*nc; c++ {
				res.Probs[c] = (1-knnShare)*cnnP[c] + knnShare*vote[c]
			}
		}
	}
	// The model: every fold model, calibrated on the networks' out-of-fold probabilities.
	y := make([]int, labelled)
	oof := make([]float32, labelled*nc)
	cnnWrong, wrong := 0, 0
	for p, i := range sc.in.labelled {
		y[p] = sc.in.cls[i]
		copy(oof[p*nc:(p+1)*nc], cnnP[i*nc:])
		if argmax(cnnP[i*nc:(i+1)*nc]) != y[p] {
			cnnWrong++
		}
		s := verdict(i, sc.in.labels[i], y[p], res.Probs[i*nc:(i+1)*nc], sc.in.classes)
		if s.Suggested != s.Label {
			wrong++
		}
		res.Suspects = append(res.Suspects, s)
	}
	res.Error = float64(wrong) / float64(labelled)
	res.CNNError = float64(cnnWrong) / float64(labelled)
	sortSuspects(res.Suspects)
	res.Model = &Model{nets: nets, classes: sc.in.classes, h: sc.in.h, w: sc.in.w, labelled: labelled,
		temperature: fitTemperature(oof, y, nc)}
	// Unlabelled samples: the model's calibrated mean, summed as Model.probabilities sums it.
	if len(sc.unlabelled) > 0 {
		mean := make([]float32, len(sc.unlabelled)*nc)
		for _, j := range sc.jobs {
			for c, v := range j.unlProbs {
				mean[c] += v / float32(len(nets))
			}
		}
		res.Model.calibrate(mean)
		for m, i := range sc.unlabelled {
			p := mean[m*nc : (m+1)*nc]
			copy(res.Probs[i*nc:(i+1)*nc], p)
			res.Unlabelled = append(res.Unlabelled, verdict(i, sample.NoLabel, -1, p, sc.in.classes))
		}
		sortSuggestions(res.Unlabelled)
	}
	return res, ctx.Err()
}

// outputsParallel is net.Outputs over idx in two halves on two goroutines (a row does not depend
// on the other samples, so the halves give the bits one pass would).
func outputsParallel(ctx context.Context, net *cnn.Net, s cnn.Samples, idx []int, probs, feats []float32) error {
	return halves(idx, func(lo, hi int) error {
		var f []float32
		if feats != nil {
			f = feats[lo*cnn.Features : hi*cnn.Features]
		}
		return net.Outputs(ctx, s, idx[lo:hi], probs[lo*net.Classes:hi*net.Classes], f)
	})
}

// shiftedParallel is net.ShiftedProbabilities over idx in two halves on two goroutines.
func shiftedParallel(ctx context.Context, net *cnn.Net, s cnn.Samples, idx []int, probs []float32) error {
	return halves(idx, func(lo, hi int) error {
		return net.ShiftedProbabilities(ctx, s, idx[lo:hi], probs[lo*net.Classes:hi*net.Classes])
	})
}

// halves runs f on the two halves [0, h) and [h, len(idx)) of idx concurrently and returns the
// first error.
func halves(idx []int, f func(lo, hi int) error) error {
	return parallel.Each(context.Background(), len(idx), parallel.Options{Workers: 2, Chunk: (len(idx) + 1) / 2}, f)
}

// scanProgress turns the fold models' advances into Progress reports. Work is counted in
// forward passes of one sample: a training step of b samples counts 3b (the backward pass costs
// about twice the forward), and a neighbour search of q queries among n points
// nn.Work(n, q)/5000 (its distances' multiply-adds against a forward pass's, 1.4 million).
type scanProgress struct {
	mu       sync.Mutex
	report   func(Progress)
	clock    progressClock
	epochs   int
	jobs     int
	total    float64
	done     float64
	searched []float64 // each job's share of its search reported so far
	vote     []float64 // each job's search, in units
}

func (p *scanProgress) start(sc *cnnScan, report func(Progress)) {
	p.report, p.clock, p.epochs, p.jobs = report, newProgressClock(), sc.opts.Epochs, len(sc.jobs)
	p.searched, p.vote = make([]float64, len(sc.jobs)), make([]float64, len(sc.jobs))
	for k, j := range sc.jobs {
		units, vote := jobWork(len(j.train), len(j.held), len(sc.unlabelled), sc.opts, sc.cfg)
		p.total += units
		p.vote[k] = vote
	}
}

// trained counts step (1-based) of steps of job k, reporting every 10 steps and at each epoch's
// end.
func (p *scanProgress) trained(k, step, steps int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += 3 * 64
	perEpoch := (steps + p.epochs - 1) / p.epochs
	if step%10 == 0 || step%perEpoch == 0 || step == steps {
		p.send(k, min((step-1)/perEpoch+1, p.epochs))
	}
}

// add counts units of job k's work after training.
func (p *scanProgress) add(k, units int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += float64(units)
	p.send(k, p.epochs)
}

// voted sets the share done of job k's neighbour search.
func (p *scanProgress) voted(k int, share float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += (share - p.searched[k]) * p.vote[k]
	p.searched[k] = share
	p.send(k, p.epochs)
}

func (p *scanProgress) send(k, epoch int) {
	if p.report != nil {
		p.report(p.clock.progress(k+1, p.jobs, epoch, p.epochs, min(1, p.done/p.total)))
	}
}
