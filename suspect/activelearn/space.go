package activelearn

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/nn"
)

// Options tune Ask and Suggest. The zero value takes the defaults.
type Options struct {
	Seed    uint64 // every random choice (the same seed gives the same output; default 1)
	Workers int    // goroutines (default runtime.NumCPU())
	// Progress (may be nil) is told the stage running and the share of it done (0–1), one call
	// at a time.
	Progress func(stage string, done float64)
}

func (o Options) withDefaults() Options {
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	return o
}

func (o Options) report(stage string, done float64) {
	if o.Progress != nil {
		o.Progress(stage, done)
	}
}

// Settings of the space.
const (
	featureDims    = 50   // principal components kept
	pcaSamples     = 5000 // samples the axes are estimated from
	neighbours     = 10   // k of the neighbour graph
	scaleNeighbour = 7    // the neighbour whose distance is a sample's local scale (Zelnik-Manor & Perona 2004)
)

// space is the samples' features and their neighbour graph.
type space struct {
	n     int
	feats nn.Vectors
	graph *nn.Graph
	// typical[i] is sample i's typicality: 1 / (mean distance to its neighbours), Euclidean.
	typical []float64
}

// newSpace computes the features and the neighbour graph of d. Errors: fewer than 2 samples,
// pixels of the wrong length, labels not N long, or the context's error when cancelled.
func newSpace(ctx context.Context, d sample.Set, o Options) (*space, error) {
	if d.N < 2 {
		return nil, fmt.Errorf("active learning needs at least 2 samples, the dataset has %d", d.N)
	}
	if len(d.Labels) != d.N {
		return nil, fmt.Errorf("%d labels for %d samples", len(d.Labels), d.N)
	}
	o.report("features", 0)
	f, dims, err := suspect.PixelFeatures(ctx, d, featureDims, pcaSamples, o.Seed, o.Workers)
	if err != nil {
		return nil, err
	}
	s := &space{n: d.N, feats: nn.Vectors{Data: f, N: d.N, Dim: dims}}
	o.report("neighbours", 0)
	ix, err := nn.NewIndex(ctx, s.feats, nn.IndexOptions{Seed: o.Seed, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	k := min(neighbours, d.N-1)
	s.graph, err = ix.Among(ctx, nil, k, nn.Options{Workers: o.Workers, Progress: func(f float64) { o.report("neighbours", f) }})
	if err != nil {
		return nil, err
	}
	s.typical = make([]float64, d.N)
	for i := range d.N {
		idx, dist := s.graph.Of(i)
		var sum float64
		m := 0
		for t, j := range idx {
			if j >= 0 {
				sum += math.Sqrt(float64(dist[t]))
				m++
			}
		}
		if m > 0 {
			s.typical[i] = float64(m) / (sum + 1e-9)
		}
	}
	return s, nil
}
