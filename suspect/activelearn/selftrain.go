package activelearn

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"idxlabel/internal/parallel"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
)

// tuning holds the self-training recipe (see tune).
type tuning struct {
	rounds    []float64 // per round, the share of each class's unlabelled samples trained on, most confident first
	draws     int       // samples drawn per network (epochs = draws / trained, minEpochs to maxEpochs)
	minEpochs int
	maxEpochs int
	smoothing float64 // label smoothing of the networks
	blend     float64 // weight of the spread scores in each round's probabilities (the network's: 1 − blend)
}

// tune is the recipe measured on MNIST's t10k (bench/suggest, 100 labels asked for): the
// spread labels alone 97.5% right; a network on the most confident half of them 97.6%, blended
// with the spread 98.3%; a second round on every sample 98.6%.
var tune = tuning{rounds: []float64{0.5, 1}, draws: 120000, minEpochs: 3, maxEpochs: 30, smoothing: 0.1, blend: 0.7}

// selfTrain trains the package cnn network on the typed labels and the most confident
// pseudo-labels, round after round: each round trains on the typed labels and, of every class,
// the unlabelled samples most confidently given it by the previous probabilities (prior, the
// spread scores, for the first round), and its probabilities are the network's blended with
// prior. The last round trains two networks, each without one half of the typed labels
// (cross-fitting), and averages them. It returns the last probabilities of every sample
// (N×classes) and, for calibration, the halves (held[k] the typed samples network k did not
// learn) with each held-out sample's probabilities from the network that did not learn it, not
// yet blended (heldNet, len(held[0])+len(held[1]) rows, held[0]'s first). Below minCalibration
// typed labels the last round trains one network on all of them and held is empty. progress
// gets the share done. Errors: the context's error when cancelled.
func selfTrain(ctx context.Context, px func(int) []byte, lab *labelling, prior []float32, seed uint64, progress func(float64)) (probs []float32, held [2][]int, heldNet []float32, err error) {
	n, nc := len(lab.cls), len(lab.classes)
	probs = slices.Clone(prior)
	pseudo := make([]int, n)
	rounds := len(tune.rounds)
	nets := rounds
	if len(lab.labelled) >= minCalibration {
		h := folds.Stratified(lab.labelled, lab.cls, nil, 2, seed)
		held = [2][]int{h[0], h[1]}
		nets++
	}
	trained := 0
	train := func(list []int, r, k int) ([]float32, error) {
		epochs := min(tune.maxEpochs, max(tune.minEpochs, (tune.draws+len(list)-1)/max(1, len(list))))
		cfg := cnn.Config{Epochs: epochs, LabelSmoothing: tune.smoothing}
		rng := rand.New(rand.NewPCG(seed, 0x5e1f+uint64(16*r+k)))
		net, err := cnn.Train(ctx, cnn.Samples{Pixels: px, Labels: pseudo}, list, nc, cfg, rng, func(step, steps int) {
			if progress != nil && step%20 == 0 {
				progress((float64(trained) + 0.95*float64(step)/float64(steps)) / float64(nets))
			}
		})
		if err != nil {
			return nil, err
		}
		trained++
		return predictAll(ctx, net, px, n)
	}
	for r, share := range tune.rounds {
		list := pick(probs, lab, share, pseudo)
		var out []float32
		if r < rounds-1 || len(held[0]) == 0 {
			if out, err = train(list, r, 0); err != nil {
				return nil, held, nil, err
			}
		} else {
			out = make([]float32, n*nc)
			for k, h := range held {
				p, err := train(folds.Rest(list, h), r, k)
				if err != nil {
					return nil, held, nil, err
				}
				for i := range out {
					out[i] += p[i] / 2
				}
				for _, i := range h {
					heldNet = append(heldNet, p[i*nc:(i+1)*nc]...)
				}
			}
		}
		for i := range out {
			out[i] = float32((1-tune.blend)*float64(out[i]) + tune.blend*float64(prior[i]))
		}
		probs = out
	}
	return probs, held, heldNet, nil
}

// pick returns the samples a round trains on, ascending: every labelled sample with its class,
// and of the unlabelled samples whose most probable class under probs is c, the most probable
// share of them, for every class c; pseudo receives each chosen sample's class.
func pick(probs []float32, lab *labelling, share float64, pseudo []int) []int {
	nc := len(lab.classes)
	byClass := make([][]int, nc)
	conf := make([]float32, len(lab.cls))
	var train []int
	for i, c := range lab.cls {
		if c >= 0 {
			pseudo[i] = c
			train = append(train, i)
			continue
		}
		row := probs[i*nc : (i+1)*nc]
		b := argmax(row)
		conf[i] = row[b]
		pseudo[i] = b
		byClass[b] = append(byClass[b], i)
	}
	for _, list := range byClass {
		slices.SortStableFunc(list, func(a, b int) int { return cmp.Compare(conf[b], conf[a]) })
		train = append(train, list[:int(share*float64(len(list))+0.5)]...)
	}
	slices.Sort(train)
	return train
}

// predictAll returns the network's probabilities of samples 0…n−1 (n×Classes), computed in two
// halves at once.
func predictAll(ctx context.Context, net *cnn.Net, px func(int) []byte, n int) ([]float32, error) {
	nc := net.Classes
	out := make([]float32, n*nc)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	err := parallel.Each(ctx, n, parallel.Options{Workers: 2, Chunk: (n + 1) / 2}, func(lo, hi int) error {
		return net.Probabilities(ctx, cnn.Samples{Pixels: px}, idx[lo:hi], out[lo*nc:hi*nc])
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func argmax(p []float32) int {
	b := 0
	for c, v := range p {
		if v > p[b] {
			b = c
		}
	}
	return b
}
