package suspect

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"time"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// calibrationTime bounds how long CalibrateCNN trains: long enough for a few dozen steps on an
// idle core, short beside any scan worth an estimate.
const calibrationTime = 300 * time.Millisecond

// CalibrateCNN measures how many units of a CNN scan's work (forward passes of one 28×28
// sample, as scanProgress counts them: a training step of b samples counts 3b) one fold model
// does per second on this machine now, load included: it trains a network on 640 generated
// samples for up to calibrationTime (at most 200 steps) and times the steps after the first
// (which allocates). For scale: on this project's 2-core machine (AVX-512), idle, MNIST's t10k
// by the default recipe is 1,793,436 units in 17.6 s of CPU, about 100,000 a second on 2
// cores; under a load of 6–9 from other work, 128 s wall. Errors: the context's.
func CalibrateCNN(ctx context.Context) (float64, error) {
	const n, batch = 640, 64
	rng := rand.New(rand.NewPCG(1, 2))
	px := make([]byte, n*784)
	for i := range px {
		px[i] = byte(rng.IntN(256))
	}
	s := cnn.Samples{Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }, Labels: make([]int, n)}
	train := make([]int, n)
	for i := range train {
		train[i] = i
		s.Labels[i] = i % 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var first time.Time
	steps := 0
	_, err := cnn.Train(ctx, s, train, 2, cnn.Config{Epochs: 20}, rng, func(step, _ int) {
		if step == 1 {
			first = time.Now()
			return
		}
		steps = step - 1
		if time.Since(first) >= calibrationTime {
			cancel()
		}
	})
	if err := context.Cause(ctx); err != nil && steps == 0 {
		return 0, err
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return 0, err
	}
	if steps == 0 {
		return 0, errors.New("no training step to time")
	}
	return float64(3*batch*steps) / time.Since(first).Seconds(), nil
}

// jobWork returns a fold model's work in units (forward passes of one sample; see scanProgress)
// and, within it, its neighbour search's: training on train samples (the other folds', at most
// CNNOptions.TrainBudget), predicting held held-out ones (and, with a vote, passing the train
// samples too and searching among them and the held-out ones), with Shifts 9 more passes per
// held-out sample, and predicting the unlabelled.
func jobWork(train, held, unlabelled int, opts CNNOptions, cfg cnn.Config) (units, vote float64) {
	const batch = 64
	units = float64(3*batch*cfg.Steps(train)) + float64(held+unlabelled)
	if opts.Neighbours > 0 {
		units += float64(train)
		vote = nn.Work(held+train, held) / 5000
		units += vote
	}
	if opts.Shifts {
		units += float64(9 * held)
	}
	return units, vote
}

// EstimateCNN returns about how long ScanCNN takes for d with opts on this machine now: its
// work (jobWork over every seed and fold, each fold holding out a share of d's labelled samples)
// at rate units a second for one fold model (CalibrateCNN), times the fold models that run at
// once on runtime.GOMAXPROCS cores (each uses two goroutines; opts.Workers at a time). An
// estimate: the load may change, and the networks see every image at 28×28, so the image size
// (H×W) adds only the resize. 0 when no scan can run (fewer labelled samples than folds) or rate
// is not positive. O(N) (counts the labelled samples).
func EstimateCNN(d sample.Set, opts CNNOptions, rate float64) time.Duration {
	labelled := 0
	for _, l := range d.Labels {
		if l != sample.NoLabel {
			labelled++
		}
	}
	unlabelled := d.N - labelled
	if opts.Folds == 0 {
		opts.Folds = 3
	}
	if labelled < opts.Folds || opts.Folds < 2 || !(rate > 0) {
		return 0
	}
	opts = opts.withDefaults(labelled - labelled/opts.Folds)
	cfg := cnn.Config{Epochs: opts.Epochs, LabelSmoothing: labelSmoothing}
	total := 0.0
	for range opts.Seeds {
		for f := range opts.Folds {
			held := labelled / opts.Folds
			if f < labelled%opts.Folds {
				held++
			}
			train := labelled - held
			if opts.TrainBudget > 0 {
				train = min(train, opts.TrainBudget)
			}
			u, _ := jobWork(train, held, unlabelled, opts, cfg)
			total += u
		}
	}
	// A fold model's two goroutines use up to 2 cores; more fold models at once use more.
	cores := runtime.GOMAXPROCS(0)
	atOnce := min(opts.Workers, opts.Folds*opts.Seeds)
	speedup := float64(min(cores, 2*atOnce)) / float64(min(cores, 2))
	return time.Duration(total / (rate * speedup) * float64(time.Second))
}

// Settled returns o with the defaults ScanCNN takes for its zero fields filled in, so that two
// options that scan alike are equal: Folds, Seed, Seeds and Neighbours (any value below 0 is
// −1, no vote); Epochs stays 0 when at or below 0 (its default depends on the labelled
// samples); Workers is 0 (the result does not depend on it).
func (o CNNOptions) Settled() CNNOptions {
	epochs, neighbours := max(0, o.Epochs), o.Neighbours
	if o.Folds == 0 {
		o.Folds = 3
	}
	o = o.withDefaults(1)
	o.Epochs, o.Workers = epochs, 0
	if neighbours < 0 {
		o.Neighbours = -1
	}
	return o
}
