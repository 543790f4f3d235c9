package activelearn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
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
// sample's most probable class learns the spread's regional errors away (t10k, 100 labels:
// spread 97.4–98.0% right, the network 98.1–98.5%), and a second, fine-tuned from the first on
// its probabilities blended 0.7 / 0.3 with the spread's, a little more (98.4–98.9%).
var tune = tuning{rounds: 2, smoothing: 0.1, blend: 0.3}

// refineDraws returns the samples each network of a chain draws for n samples: 4 passes over
// 10,000, at least 10,000, 2 a sample above 20,000, at most 200,000.
func refineDraws(n int) int {
	if tune.draws > 0 {
		return tune.draws
	}
	return min(200000, max(10000, min(4*n, 40000), 2*n))
}

// Refine is a round's better suggestions, in seconds: chains of networks (package cnn), each
// network fine-tuned from the one before and the first from the space's Net, each learning
// every sample's class (its typed label, else the most probable class of the spread labels for
// the first, of the first network's probabilities blended with the spread's for the second).
// The last network's probabilities are the suggestions, calibrated by temperature scaling on
// half of the typed labels as scored by a second chain that never saw them (labels of the
// other half only, spread and learnt); below MinCalibration typed labels there is no second
// chain and the confidences are the network's own (Calibrated false). labels and opts are as
// Suggest's; d is the dataset of the space (its pixels, N samples). Growth: 2 chains of 2
// networks, each drawing refineDraws(N) samples and passing every sample once. Errors: those
// of Suggest, a dataset of another size than the space's, or the context's error when
// cancelled.
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
	calibrate := len(l.labelled) >= MinCalibration
	chains := 1
	if calibrate {
		chains = 2
	}
	o.report("networks", 0)
	net := 0 // networks trained so far, for the progress
	progress := func(f float64) {
		o.report("networks", (float64(net)+f)/float64(chains*tune.rounds))
	}
	px := pixels28(d)
	f, err := spread(ctx, s.Graph, l.cls, nc)
	if err != nil {
		return nil, err
	}
	probs, err := s.chain(ctx, px, l.cls, nc, f, o.Seed, o.Workers, &net, progress)
	if err != nil {
		return nil, err
	}
	out := &Suggestions{Classes: l.classes, Probs: probs, Refined: true, Temperature: 1, Typed: len(l.labelled)}
	if calibrate {
		held := folds.Stratified(l.labelled, l.cls, nil, 2, o.Seed)[0]
		hidden := slices.Clone(l.cls)
		for _, i := range held {
			hidden[i] = -1
		}
		fh, err := spread(ctx, s.Graph, hidden, nc)
		if err != nil {
			return nil, err
		}
		ph, err := s.chain(ctx, px, hidden, nc, fh, o.Seed+1, o.Workers, &net, progress)
		if err != nil {
			return nil, err
		}
		p := make([]float32, 0, len(held)*nc)
		y := make([]int, 0, len(held))
		for _, i := range held {
			p = append(p, ph[i*nc:(i+1)*nc]...)
			y = append(y, l.cls[i])
		}
		out.Temperature, out.Calibrated = temperature(p, y, nc), true
		suspect.Temper(probs, nc, out.Temperature)
	}
	out.List = listOf(probs, l.classes, func(i int) bool { return l.unlabelled[i] }, s.N())
	o.report("networks", 1)
	return out, nil
}

// chain trains tune.rounds networks from the class indices cls (−1: none) and their spread
// probabilities f, and returns the last one's probabilities of every sample (N×nc); *net
// counts the networks trained, progress gets the share of the current one done.
func (s *Space) chain(ctx context.Context, px func(int) []byte, cls []int, nc int, f []float32, seed uint64, workers int, net *int, progress func(float64)) ([]float32, error) {
	n := len(cls)
	pseudo := make([]int, n)
	draws := refineDraws(n)
	list := make([]int, n)
	for i := range list {
		list[i] = i
	}
	epochs := max(1, (draws+n-1)/n)
	prev, start := f, s.Net
	for r := range tune.rounds {
		for i, c := range cls {
			pseudo[i] = c
			if c < 0 {
				pseudo[i] = argmax(prev[i*nc : (i+1)*nc])
			}
		}
		rng := rand.New(rand.NewPCG(seed, 0x5e1f+uint64(r)))
		train := list
		if draws < n { // fewer draws than samples: a pass over as many, drawn at random
			train = rng.Perm(n)[:draws]
			slices.Sort(train)
		}
		cfg := cnn.Config{Epochs: epochs, LabelSmoothing: tune.smoothing, Start: start}
		nw, err := cnn.Train(ctx, cnn.Samples{Pixels: px, Labels: pseudo}, train, nc, cfg, rng, func(step, steps int) {
			if step%20 == 0 {
				progress(0.95 * float64(step) / float64(steps))
			}
		})
		if err != nil {
			return nil, err
		}
		p, err := predictAll(ctx, nw, px, n, workers)
		if err != nil {
			return nil, err
		}
		*net++
		if r == tune.rounds-1 {
			return p, nil
		}
		for i := range p {
			p[i] = float32((1-tune.blend)*float64(p[i]) + tune.blend*float64(f[i]))
		}
		prev, start = p, nw
	}
	return prev, nil
}
