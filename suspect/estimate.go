package suspect

import (
	"runtime"
	"time"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
)

// cnnRate is how many units of a CNN scan's work (forward passes of one 28×28 sample, as
// scanProgress counts them) one core does per second. Measured on this project's 2-core
// machine on MNIST's t10k (10,000 samples): the default recipe, 1,793,436 units in 128 s, 7,030
// a core a second; the quick recipe of the window's tests (2 folds, 1 seed, 2 epochs), 100,672
// units in 10.9 s, 4,636 (its fixed costs weigh more); both under a load of 6–9 from other work.
// An idle or faster machine is faster.
const cnnRate = 7000

// jobWork returns a fold model's work in units (forward passes of one sample; see scanProgress)
// and, within it, its neighbour search's: training on train samples, predicting held held-out
// ones (and, with a vote, passing the other labelled samples too and searching among all
// labelled ones), with Shifts 9 more passes per held-out sample, and predicting the unlabelled.
func jobWork(train, held, labelled, unlabelled int, opts CNNOptions, cfg cnn.Config) (units, vote float64) {
	const batch = 64
	units = float64(3*batch*cfg.Steps(train)) + float64(held+unlabelled)
	if opts.Neighbours > 0 {
		units += float64(labelled - held)
		vote = float64(held) * float64(labelled) / 5000
		units += vote
	}
	if opts.Shifts {
		units += float64(9 * held)
	}
	return units, vote
}

// EstimateCNN returns about how long ScanCNN takes on this machine for d with opts: its work
// (jobWork over every seed and fold, each fold holding out a share of d's labelled samples) at
// cnnRate per core, on runtime.GOMAXPROCS cores (or twice opts.Workers when fewer). An estimate:
// the rate was measured on one machine at one load, and the networks see every image at 28×28,
// so the image size (H×W) adds only the resize. 0 when no scan can run (fewer labelled samples
// than folds). O(N) (counts the labelled samples).
func EstimateCNN(d sample.Set, opts CNNOptions) time.Duration {
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
	if labelled < opts.Folds || opts.Folds < 2 {
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
			u, _ := jobWork(labelled-held, held, labelled, unlabelled, opts, cfg)
			total += u
		}
	}
	cores := max(1, min(runtime.GOMAXPROCS(0), opts.Workers*2))
	return time.Duration(total / (cnnRate * float64(cores)) * float64(time.Second))
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
