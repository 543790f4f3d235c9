package activelearn

import (
	"context"
	"fmt"
	"math"
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
	chains    int     // chains Refine trains and joins (an ensemble)
	warp      float64 // the chains' random warps' ranges, times the cnn recipe's
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
//
// Refine trains two such chains (training seeds Seed and Seed + chainSeedStep), their random
// warps 1.5 times wider than the cnn recipe's, and spreads the typed labels over the neighbour
// graph of their last networks' features joined (an ensemble: the chains err apart where the
// draws differ). Measured on t10k with 100 labels (asks 10, 10, 30, 50, the least sure by the
// spreading's raw margin; seeds 1–3, each with the chains' seeds + 0, + 100 and + 200), the
// samples of the other 9,900 wrong summed over the three seeds: 294, 289 and 300 where one
// chain of the recipe's warps left 308, 319 and 300 on the same asks (313, 319 and 308 on the
// normalised margin's), one chain of the wider warps 310, 309 and 316; on the 60,000 training
// digits (seeds 1 and 2) 629 and 655 wrong where one chain left 681 and 734
// (bench/suggest/README.md).
var tune = tuning{rounds: 2, chains: 2, warp: 1.5, smoothing: 0.1, blend: 0.3}

// chainSeedStep is how far apart the training seeds of Refine's chains are.
const chainSeedStep = 100

// refineDraws returns the samples each network of a chain draws for n samples: 4 passes over
// 10,000, at least 10,000, 2 a sample above 20,000, at most 200,000.
func refineDraws(n int) int {
	if tune.draws > 0 {
		return tune.draws
	}
	return min(200000, max(10000, min(4*n, 40000), 2*n))
}

// Refine is a round's better suggestions, in seconds: tune.chains chains of tune.rounds
// networks (package cnn), each fine-tuned from the one before and the first from the space's
// Net, each learning every sample's class (its typed label, else the most probable class of
// the spread labels for the first, of the first network's probabilities blended with the
// spread's for the second); the chains differ by their training seeds. The suggestions are the
// typed labels spread over the neighbour graph of the chains' last networks' features joined
// (joinVectors), blended with their mean probabilities (respread), calibrated by agreement
// (fitAgreement): the typed labels are dealt into calibrationFolds stratified folds, and for
// the first calibrationVoters of them a network fine-tuned from the space's Net learns the
// spread of the other folds' labels (half the draws; a class's only typed label is never held
// out); each sample's confidence is the accuracy the votes of those networks for the
// suggestion's class say among the samples without a typed label of about the same raw
// confidence, the votes against counting agreementKappa times, by how many passes the
// networks draw. The samples with an accepted label are among those, so an accept leaves the
// confidences of the rest as they were. Below MinCalibration typed labels of classes with two
// or more there are no calibration networks and the confidences are the chains' own
// (Calibrated false). labels and opts are as Suggest's; d is the dataset of the space (its
// pixels, N samples). Growth: the chains' networks draw refineDraws(N) samples each and pass
// every sample once; respread builds one neighbour graph of the joined features (N ×
// tune.chains·cnn.Features float32 while it is built, beside each chain's N × cnn.Features);
// the calibration networks draw half as many and pass every sample once; the calibration
// O(N log N). Errors: those of Suggest, a dataset of another size than the space's, or the
// context's error when cancelled.
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
	nets := float64(tune.rounds * tune.chains)
	if calibrate {
		nets += calibrationVoters / 2.0 // each draws half as many samples
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
	probs := make([]float32, s.N()*nc) // the chains' last networks' mean probabilities
	members := make([]nn.Vectors, tune.chains)
	for m := range tune.chains {
		run := chainRun{seed: o.Seed + chainSeedStep*uint64(m), rounds: tune.rounds, draws: draws, warp: tune.warp, workers: o.Workers, features: true}
		p, fe, err := s.chain(ctx, px, l.cls, nc, f, run, func(f float64) { progress(f * float64(tune.rounds)) })
		if err != nil {
			return nil, err
		}
		for i, v := range p {
			probs[i] += v / float32(tune.chains)
		}
		members[m] = fe
		done += float64(tune.rounds)
	}
	if probs, err = respread(ctx, joinVectors(members), l.cls, probs, nc, o); err != nil {
		return nil, err
	}
	out := &Suggestions{Classes: l.classes, Probs: probs, Refined: true, Typed: len(l.labelled)}
	if calibrate {
		top := make([]int32, s.N()) // the suggestions' class
		for i := range top {
			top[i] = int32(argmax(probs[i*nc : (i+1)*nc]))
		}
		agree := make([]uint8, s.N()) // the calibration networks whose class is the suggestions'
		rec := newCalibRecord(l, probs, nc)
		for k, held := range folds.Stratified(holdable, l.cls, nil, calibrationFolds, o.Seed)[:calibrationVoters] {
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
		if m := fitAgreement(probs, nc, agree, calibrationVoters, fit, agreementKappa(passes)); m != nil {
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

// calibrationVoters is how many of those folds get their calibration network (the first ones):
// fewer voters than folds leave the time for the second chain (see tune).
const calibrationVoters = 3

// chainRun is how a chain trains: its seed, networks, samples each draws, workers, and
// whether it gives the last network's features too.
type chainRun struct {
	seed          uint64
	rounds, draws int
	warp          float64 // cnn.Config.WarpScale of its networks (0: the cnn recipe's warps)
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
		cfg := cnn.Config{Epochs: epochs, LabelSmoothing: tune.smoothing, Start: start, WarpScale: run.warp}
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

// netShare is the chains' last networks' share in the refined suggestions; the rest is the
// typed labels spread over the neighbour graph of their own penultimate features (respread).
const netShare = 0.3

// respread returns the refined probabilities: (1 − netShare) of the typed labels (cls, −1:
// none) spread over the neighbour graph of the chains' last networks' features (feats, unit
// length; Refine joins two chains' with joinVectors), netShare of those networks' mean
// probabilities (probs, N×nc) (refinedBlend; its class-mass normalisation is off:
// normaliseClassMass). Fine-tuned on every sample's class, the networks' features part the
// classes better than the space's, learnt without labels: measured on t10k with 100 labels
// (10, 10, 30, 50 asks; seeds 1, 2, 3; one chain), the samples' classes spread over its graph
// were 99.04, 99.07, 98.70% right against the network's 98.89, 98.96, 98.68%, and blended
// 99.03, 99.07, 98.74%. Growth: the graph of N points (nn's index: exact below nn.ExactBelow,
// O(N²·feats.Dim); near-linear above), a spreading of nc columns, N×nc values.
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

// joinVectors returns the rows of several vector sets of N rows, each unit length, joined
// (N × the sum of their widths) and scaled by 1/√(sets), so that each row is unit length and
// a squared distance is the mean of the sets' own. Growth: N × the widths, float32.
func joinVectors(vs []nn.Vectors) nn.Vectors {
	if len(vs) == 1 {
		return vs[0]
	}
	n, dim := vs[0].N, 0
	for _, v := range vs {
		dim += v.Dim
	}
	w := float32(1 / math.Sqrt(float64(len(vs))))
	out := make([]float32, n*dim)
	for i := range n {
		at := i * dim
		for _, v := range vs {
			for j, x := range v.Data[i*v.Dim : (i+1)*v.Dim] {
				out[at+j] = w * x
			}
			at += v.Dim
		}
	}
	return nn.Vectors{Data: out, N: n, Dim: dim}
}
