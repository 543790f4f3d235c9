package activelearn

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"idxlabel/suspect/cnn"
)

// tuning holds the self-training recipe (see tune).
type tuning struct {
	rounds    []float64 // per round, the share of each class's unlabelled samples trained on, most confident first
	draws     int       // samples drawn per round of training (epochs = draws / trained, at least minEpochs)
	minEpochs int
	smoothing float64 // label smoothing of the networks
	holdOut   bool    // the last round leaves the typed labels out, to calibrate on them
	blend     float64 // weight of the spread scores blended into each round's ranking (0: the network's alone)
}

// tune is the recipe measured on MNIST (bench/suggest).
var tune = tuning{rounds: []float64{0.5, 0.8}, draws: 120000, minEpochs: 3, smoothing: 0.1, holdOut: true}

// selfTrain trains the package cnn network on the typed labels and the most confident
// pseudo-labels of prior (N×classes, rows summing to 1), round after round, each round ranking
// by the previous round's probabilities; it returns the last network's probabilities of every
// sample (N×classes) and the typed labels it did not learn (held out for calibration).
// progress gets the share done. Errors: the context's error when cancelled.
func selfTrain(ctx context.Context, px func(int) []byte, lab *labelling, prior []float32, seed uint64, progress func(float64)) ([]float32, []int, error) {
	n, nc := len(lab.cls), len(lab.classes)
	probs := slices.Clone(prior)
	pseudo := make([]int, n)
	var held []int
	for r, share := range tune.rounds {
		last := r == len(tune.rounds)-1
		train := pick(probs, lab, share, pseudo)
		if last && tune.holdOut && len(lab.labelled) >= minCalibration {
			held = lab.labelled
			train = slices.DeleteFunc(train, func(i int) bool { return lab.cls[i] >= 0 })
		}
		if debugTruth != nil {
			debugAcc(fmt.Sprintf("round %d train set (%d)", r, len(train)), train, pseudo, lab)
		}
		epochs := max(tune.minEpochs, (tune.draws+len(train)-1)/max(1, len(train)))
		cfg := cnn.Config{Epochs: epochs, LabelSmoothing: tune.smoothing}
		rng := rand.New(rand.NewPCG(seed, 0x5e1f+uint64(r)))
		base := float64(r) / float64(len(tune.rounds))
		net, err := cnn.Train(ctx, cnn.Samples{Pixels: px, Labels: pseudo}, train, nc, cfg, rng, func(step, steps int) {
			if progress != nil && step%20 == 0 {
				progress(base + 0.95*float64(step)/float64(steps)/float64(len(tune.rounds)))
			}
		})
		if err != nil {
			return nil, nil, err
		}
		out, err := predictAll(ctx, net, px, n)
		if err != nil {
			return nil, nil, err
		}
		if tune.blend > 0 {
			for i := range out {
				out[i] = float32((1-tune.blend)*float64(out[i]) + tune.blend*float64(prior[i]))
			}
		}
		probs = out
		if debugTruth != nil {
			all := make([]int, 0, n)
			for i := range n {
				if lab.cls[i] < 0 {
					all = append(all, i)
				}
				pseudo[i] = argmax(out[i*nc : (i+1)*nc])
			}
			debugAcc(fmt.Sprintf("round %d net on unlabelled", r), all, pseudo, lab)
		}
	}
	_ = nc
	return probs, held, nil
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
	h := n / 2
	var errs [2]error
	var wg sync.WaitGroup
	for k, part := range [2][2]int{{0, h}, {h, n}} {
		wg.Go(func() {
			errs[k] = net.Probabilities(ctx, cnn.Samples{Pixels: px}, idx[part[0]:part[1]], out[part[0]*nc:part[1]*nc])
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
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

var debugTruth []int

func debugAcc(what string, idx, pseudo []int, lab *labelling) {
	right := 0
	for _, i := range idx {
		if lab.classes[pseudo[i]] == debugTruth[i] {
			right++
		}
	}
	fmt.Printf("  %s: %.2f%%\n", what, 100*float64(right)/float64(len(idx)))
}
