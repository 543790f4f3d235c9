package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"idxlabel/internal/parallel"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// The features learnt without labels: the package cnn network trained to tell the fine
// clusters of the map apart (each sample's cluster its class), from randomly warped copies of
// every sample (cnn's augmentation) with label smoothing, as a network learns classes. The
// clusters are nearly pure (measured on t10k: 100 fine clusters, 96.9% of the samples in their
// cluster's majority class) and a class's samples fall in several of them, so the network learns
// what tells shapes apart and what a small warp does not change: its penultimate features
// (cnn.Features values, scaled to unit length) put a sample's nearest neighbours in its class
// more often than the pixels do (t10k, 3 seeds: 97.6% of 10 nearest, the pixels' principal
// components 95.6%), and every network of the suggestions starts from it (fine-tuning). It is
// trained once per dataset (DeepCluster's step, Caron et al. 2018, taken once).

// featuresDraws returns the samples the features network draws in training for n samples:
// 15 passes over up to 10,000 samples (at least 20,000 draws), then 150,000 up to 30,000
// samples, 5 a sample above, at most 500,000 (half a pass at 1,000,000 samples).
func featuresDraws(n int) int {
	if tune.features > 0 {
		return tune.features
	}
	if n <= 10000 {
		return max(20000, 15*n)
	}
	return max(150000, min(5*n, 500000))
}

// featuresNet trains the features network on every sample of d, its class each sample's fine
// cluster (fine, clusters of them), reported as the "features network" stage.
func featuresNet(ctx context.Context, d sample.Set, fine []int32, clusters int, o Options) (*cnn.Net, error) {
	o.report("features network", 0)
	all := make([]int, d.N)
	cls := make([]int, d.N)
	for i := range all {
		all[i], cls[i] = i, int(fine[i])
	}
	draws := featuresDraws(d.N)
	rng := rand.New(rand.NewPCG(o.Seed, 0xfea7))
	if draws < d.N { // fewer draws than samples: one pass over as many, drawn at random
		all = rng.Perm(d.N)[:draws]
		slices.Sort(all)
	}
	cfg := cnn.Config{Epochs: max(1, (draws+len(all)-1)/len(all)), LabelSmoothing: tune.smoothing}
	return cnn.Train(ctx, cnn.Samples{Pixels: pixels28(d), Labels: cls}, all, max(2, clusters), cfg, rng, func(step, steps int) {
		if step%20 == 0 {
			o.report("features network", float64(step)/float64(steps))
		}
	})
}

// netFeatures returns the penultimate features of every sample (n rows of cnn.Features, each
// scaled to unit length), computed on the workers, reported as the "features" stage.
func netFeatures(ctx context.Context, net *cnn.Net, px func(int) []byte, n int, o Options) (nn.Vectors, error) {
	_, feats, err := netOutputs(ctx, net, px, n, false, true, o.Workers, func(f float64) { o.report("features", f) })
	return feats, err
}

// predictAll returns the network's probabilities of samples 0…n−1 (n×Classes), computed on
// the workers.
func predictAll(ctx context.Context, net *cnn.Net, px func(int) []byte, n, workers int) ([]float32, error) {
	probs, _, err := netOutputs(ctx, net, px, n, true, false, workers, nil)
	return probs, err
}

// netOutputs passes samples 0…n−1 through the network once on the workers and returns what is
// asked: their probabilities (n×Classes) and their penultimate features (n×cnn.Features, each
// row scaled to unit length); progress (may be nil) gets the share done.
func netOutputs(ctx context.Context, net *cnn.Net, px func(int) []byte, n int, wantProbs, wantFeats bool, workers int, progress func(float64)) ([]float32, nn.Vectors, error) {
	nc := net.Classes
	var probs, feats []float32
	if wantProbs {
		probs = make([]float32, n*nc)
	}
	if wantFeats {
		feats = make([]float32, n*cnn.Features)
	}
	err := parallel.For(ctx, n, parallel.Options{Workers: workers, Chunk: predictChunk, Progress: progress},
		func(ctx context.Context) func(lo, hi int) error {
			idx := make([]int, predictChunk)
			return func(lo, hi int) error {
				for k := range hi - lo {
					idx[k] = lo + k
				}
				var p, f []float32
				if probs != nil {
					p = probs[lo*nc : hi*nc]
				}
				if feats != nil {
					f = feats[lo*cnn.Features : hi*cnn.Features]
				}
				return net.Outputs(ctx, cnn.Samples{Pixels: px}, idx[:hi-lo], p, f)
			}
		})
	if err != nil {
		return nil, nn.Vectors{}, err
	}
	if feats == nil {
		return probs, nn.Vectors{}, nil
	}
	for i := range n {
		row := feats[i*cnn.Features : (i+1)*cnn.Features]
		var ss float64
		for _, x := range row {
			ss += float64(x) * float64(x)
		}
		if ss > 0 {
			sc := float32(1 / math.Sqrt(ss))
			for k := range row {
				row[k] *= sc
			}
		}
	}
	return probs, nn.Vectors{Data: feats, N: n, Dim: cnn.Features}, nil
}

// predictChunk is how many samples a worker passes through a network at a time.
const predictChunk = 512

// pixels28 returns d's samples as the networks read them: 28×28, resized (bilinear) one at a
// time when they are another size, so no second copy of the dataset is held.
func pixels28(d sample.Set) func(int) []byte {
	h, w := d.H, d.W
	if h == 0 && w == 0 || h == cnn.Side && w == cnn.Side {
		return d.Pixels
	}
	return func(i int) []byte { return suspect.Resize28(d.Pixels(i), h, w, nil) }
}
