package activelearn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
	"idxlabel/suspect/nn"
)

// tuning holds the refinement's recipe and the features network's training (see tune).
type tuning struct {
	rounds    int     // networks in a chain, each fine-tuned from the one before
	draws     int     // samples each network of a chain draws (0: refineDraws of N)
	features  int     // samples the features network draws (0: featuresDraws of N)
	smoothing float64 // label smoothing of every network
	blend     float64 // the spread's share in the classes a chain's later networks learn
}

// tune is the recipe measured on MNIST's t10k (bench/suggest/README.md): after label
// spreading over the features' graph, a network fine-tuned from the features network on every
// sample's most probable class learns much of the spread's regional errors away, and a second,
// fine-tuned from the first on its probabilities blended 0.7 / 0.3 with the spread's, a little
// more (seed 1, 100 labels: the spread 98.0%, the first network 98.5%, the second 98.8%; over
// 3 seeds the chain 98.7–99.0%). Training on the most confident half of each class instead of
// every sample made the network worse than the spread (95.3%).
var tune = tuning{rounds: 2, smoothing: 0.1, blend: 0.3}

// refineDraws returns the samples each network of a chain draws for n samples: 4 passes over
// 10,000, at least 10,000, 2 a sample above 20,000, at most 200,000.
func refineDraws(n int) int {
	if tune.draws > 0 {
		return tune.draws
	}
	return min(200000, max(10000, min(4*n, 40000), 2*n))
}

// Refine is a round's better suggestions, in seconds: a chain of tune.rounds networks
// (package cnn), each fine-tuned from the one before and the first from the space's Net, each
// learning every sample's class (its typed label, else the most probable class of the spread
// labels for the first, of the first network's probabilities blended with the spread's for the
// second). The suggestions are the typed labels spread over the neighbour graph of the last
// network's features, blended with its probabilities (respread), calibrated by agreement
// (fitAgreement): the typed labels are dealt into calibrationFolds stratified folds, and for
// each a network fine-tuned from the space's Net learns the spread of the other folds' labels
// (half the draws; a class's only typed label is never held out); each sample's confidence is
// the accuracy the votes of those networks for the suggestion's class say among the samples
// without a typed label of about the same raw confidence, the votes against counting
// agreementKappa times, by how many passes the networks draw. The samples with an accepted label
// are among those, so an accept leaves the confidences of the rest as they were. Below
// MinCalibration typed labels of classes with two or more there are no calibration networks
// and the confidences are the chain's own (Calibrated false). labels and opts are as
// Suggest's; d is the dataset of the space (its pixels, N samples). Growth: the chain's
// networks draw refineDraws(N) samples each and pass every sample once; respread builds one
// neighbour graph; the calibration networks draw half as many and pass every sample once; the
// calibration O(N log N). Errors: those of Suggest, a dataset of another size than the
// space's, or the context's error when cancelled.
func (s *Space) Refine(ctx context.Context, d sample.Set, labels []int, opts Options) (*Suggestions, error) {
	o := opts.withDefaults()
	if d.N != s.N() {
		return nil, fmt.Errorf("a dataset of %d samples for a space of %d", d.N, s.N())
	}
	l, err := learning(labels, s.N(), o)
	if err != nil {
		return nil, err
	}
	nc := len(l.classes)
	holdable := l.holdable()
	calibrate := len(holdable) >= MinCalibration
	nets := float64(tune.rounds)
	if calibrate {
		nets += calibrationFolds / 2 // each draws half as many samples
	}
	o.report("networks", 0)
	done := 0.0 // networks trained so far, in chain networks, for the progress
	progress := func(f float64) { o.report("networks", (done+f)/nets) }
	px := pixels28(d)
	f, err := spread(ctx, s.Graph, l.cls, nc)
	if err != nil {
		return nil, err
	}
	draws := refineDraws(s.N())
	probs, feats, err := s.chain(ctx, px, l.cls, nc, f, chainRun{seed: o.Seed, rounds: tune.rounds, draws: draws, workers: o.Workers, features: true}, func(f float64) { progress(f) })
	if err != nil {
		return nil, err
	}
	if probs, err = respread(ctx, feats, l.cls, probs, nc, o); err != nil {
		return nil, err
	}
	done = float64(tune.rounds)
	out := &Suggestions{Classes: l.classes, Probs: probs, Refined: true, Typed: len(l.labelled)}
	if calibrate {
		top := make([]int32, s.N()) // the chain's class
		for i := range top {
			top[i] = int32(argmax(probs[i*nc : (i+1)*nc]))
		}
		agree := make([]uint8, s.N()) // the calibration networks whose class is the chain's
		rec := newCalibRecord(l, probs, nc)
		for k, held := range folds.Stratified(holdable, l.cls, nil, calibrationFolds, o.Seed) {
			hidden := slices.Clone(l.cls)
			for _, i := range held {
				hidden[i] = -1
			}
			fh, err := spread(ctx, s.Graph, hidden, nc)
			if err != nil {
				return nil, err
			}
			run := chainRun{seed: o.Seed + 1 + uint64(k), rounds: 1, draws: calibrationDraws(draws, s.N()), workers: o.Workers}
			ph, _, err := s.chain(ctx, px, hidden, nc, fh, run, func(f float64) { progress(f / 2) })
			if err != nil {
				return nil, err
			}
			done += 0.5
			rec.network(held, ph)
			for i, c := range top {
				if argmax(ph[i*nc:(i+1)*nc]) == int(c) {
					agree[i]++
				}
			}
		}
		rec.write()
		fit := make([]bool, s.N()) // no typed label: unlabelled, or accepted
		for i, c := range l.cls {
			fit[i] = c < 0
		}
		passes := float64(calibrationDraws(draws, s.N())) / float64(s.N())
		if m := fitAgreement(probs, nc, agree, calibrationFolds, fit, agreementKappa(passes)); m != nil {
			m.apply(probs, nc)
			out.Calibrated = true
		}
	}
	out.List = listOf(probs, l.classes, func(i int) bool { return l.unlabelled[i] }, s.N())
	o.report("networks", 1)
	return out, nil
}

// calibrationFolds is how many folds Refine deals the typed labels into: one calibration
// network for each, without its fold's labels.
const calibrationFolds = 4

// chainRun is how a chain trains: its seed, networks, samples each draws, workers, and
// whether it gives the last network's features too.
type chainRun struct {
	seed          uint64
	rounds, draws int
	workers       int
	features      bool // the last network's penultimate features of every sample too
}

// chain trains run.rounds networks from the class indices cls (−1: none) and their spread
// probabilities f, and returns the last one's probabilities of every sample, N×nc, and with
// run.features its features of every sample (unit length, N×cnn.Features; from the same
// pass); progress gets the share of the chain done.
func (s *Space) chain(ctx context.Context, px func(int) []byte, cls []int, nc int, f []float32, run chainRun, progress func(float64)) ([]float32, nn.Vectors, error) {
	n := len(cls)
	pseudo := make([]int, n)
	list := make([]int, n)
	for i := range list {
		list[i] = i
	}
	epochs := max(1, (run.draws+n-1)/n)
	prev, start := f, s.Net
	for r := range run.rounds {
		for i, c := range cls {
			pseudo[i] = c
			if c < 0 {
				pseudo[i] = argmax(prev[i*nc : (i+1)*nc])
			}
		}
		rng := rand.New(rand.NewPCG(run.seed, 0x5e1f+uint64(r)))
		train := list
		if run.draws < n { // fewer draws than samples: a pass over as many, drawn at random
			train = rng.Perm(n)[:run.draws]
			slices.Sort(train)
		}
		cfg := cnn.Config{Epochs: epochs, LabelSmoothing: tune.smoothing, Start: start}
		nw, err := cnn.Train(ctx, cnn.Samples{Pixels: px, Labels: pseudo}, train, nc, cfg, rng, func(step, steps int) {
			if step%20 == 0 {
				progress((float64(r) + 0.95*float64(step)/float64(steps)) / float64(run.rounds))
			}
		})
		if err != nil {
			return nil, nn.Vectors{}, err
		}
		if r == run.rounds-1 {
			return netOutputs(ctx, nw, px, n, true, run.features, run.workers, nil)
		}
		p, err := predictAll(ctx, nw, px, n, run.workers)
		if err != nil {
			return nil, nn.Vectors{}, err
		}
		for i := range p {
			p[i] = float32((1-tune.blend)*float64(p[i]) + tune.blend*float64(f[i]))
		}
		prev, start = p, nw
	}
	return prev, nn.Vectors{}, nil
}

// netShare is the last network's share in the refined suggestions; the rest is the typed
// labels spread over the neighbour graph of its own penultimate features (respread).
const netShare = 0.3

// respread returns the refined probabilities: (1 − netShare) of the typed labels (cls, −1:
// none) spread over the neighbour graph of the chain's last network's features (feats, unit
// length), netShare of that network's probabilities (probs, N×nc) (refinedBlend; its
// class-mass normalisation is off: normaliseClassMass). Fine-tuned on every
// sample's class, the network's features part the classes better than the space's, learnt
// without labels: measured on t10k with 100 labels (10, 10, 30, 50 asks; seeds 1, 2, 3), the
// samples' classes spread over their graph were 99.04, 99.07, 98.70% right against the
// network's 98.89, 98.96, 98.68%, and blended 99.03, 99.07, 98.74%. Growth: the graph of N
// points (nn's index: exact below nn.ExactBelow, O(N²·cnn.Features); near-linear above), a
// spreading of nc columns, N×nc values.
func respread(ctx context.Context, feats nn.Vectors, cls []int, probs []float32, nc int, o Options) ([]float32, error) {
	g, err := neighbourGraph(ctx, feats, Options{Seed: o.Seed, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	f, err := spreadScores(ctx, g, cls, nc)
	if err != nil {
		return nil, err
	}
	keepRespread(f, probs)
	refinedBlend(f, probs, cls, nc, normaliseClassMass && massNormalised(cls, nc))
	return f, nil
}
