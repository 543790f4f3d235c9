package activelearn

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/embed"
	"idxlabel/suspect/nn"
)

// Options tune the loop's calls. The zero value takes the defaults.
type Options struct {
	Seed    uint64 // every random choice (the same seed gives the same output; default 1)
	Workers int    // goroutines (default runtime.NumCPU())
	// Progress (may be nil) is told the stage running and the share of it done (0–1), one call
	// at a time.
	Progress func(stage string, done float64)
	// Accepted (nil, or one value per sample) marks the labels that are suggestions accepted
	// without a look (pseudo-labels, as the store's HowSuggestedAccepted), not typed: they are
	// never held out to calibrate the confidences and never taken for a person's word.
	Accepted []bool
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
	featureDims    = 50   // principal components of the pixels kept for the first map
	pcaSamples     = 5000 // samples the axes are estimated from
	neighbours     = 15   // k of the neighbour graphs (UMAP's n_neighbors)
	scaleNeighbour = 7    // the neighbour whose distance is a sample's local scale (Zelnik-Manor & Perona 2004)
	// mapPool is the most samples the map lays out directly; more are placed by their
	// neighbours among them (embed.Map).
	mapPool = 50000
)

// fineClusters returns how many fine clusters a space of n samples has: one per 100 samples,
// 50 to maxClusters (at most n).
func fineClusters(n int) int {
	return min(n, max(50, min(maxClusters, n/100)))
}

// Space is what the loop keeps of a dataset, computed once from its pixels alone (no labels)
// by NewSpace and then used by every ask and every round of suggestions, however the labels
// change; it can be stored beside the dataset (package scancache) and read back (Ready).
//
//   - Map: a two-dimensional embedding in which neighbours stay neighbours (suspect/embed, a
//     UMAP-style layout of the neighbour graph of the samples' first principal components of
//     their deskewed, blurred, unit-length pixels, suspect.PixelFeatures), N×2 float32: a
//     class's samples gather in an island of their own.
//   - Fine: each sample's fine cluster (k-means on the map, Clusters of them), joined into
//     groups at every scale by the links of Graph (see groups.go).
//   - Net: a network (package cnn) trained without labels to tell the fine clusters apart from
//     randomly warped copies of the samples: the features learnt without labels, and where
//     every network of the suggestions starts from.
//   - Graph: each sample's nearest neighbours by Net's penultimate features (unit length),
//     nearest first, squared distances: what the labels spread over.
type Space struct {
	Map      []float32
	Fine     []int32
	Clusters int
	Net      *cnn.Net
	Graph    *nn.Graph
	// Derived (Ready): each sample's typicality (1 / its mean distance to its neighbours) and
	// the order the fine clusters join in.
	typical []float64
	order   []join
}

// N returns the number of samples.
func (s *Space) N() int { return len(s.Fine) }

// NewSpace computes the space of d's pixels (its labels are not read). Progress stages, in
// order: "pixel features", "neighbours", "map", "clusters", "features network" (the longest),
// "features". Growth: see the package comment. Errors: fewer than 2 samples, pixels of the
// wrong length or shape, or the context's error when cancelled.
func NewSpace(ctx context.Context, d sample.Set, opts Options) (*Space, error) {
	o := opts.withDefaults()
	if d.N < 2 {
		return nil, fmt.Errorf("active learning needs at least 2 samples, the dataset has %d", d.N)
	}
	if d.H <= 0 || d.W <= 0 || len(d.Pixels(0)) != d.Dim() {
		return nil, fmt.Errorf("samples said to be %d×%d pixels have %d", d.H, d.W, len(d.Pixels(0)))
	}
	o.report("pixel features", 0)
	f, dims, err := suspect.PixelFeatures(ctx, d, featureDims, pcaSamples, o.Seed, o.Workers)
	if err != nil {
		return nil, err
	}
	pix := nn.Vectors{Data: f, N: d.N, Dim: dims}
	g, err := neighbourGraph(ctx, pix, o)
	if err != nil {
		return nil, err
	}
	s := &Space{Clusters: fineClusters(d.N)}
	o.report("map", 0)
	progress := func(f float64) { o.report("map", f) }
	if d.N <= mapPool {
		start, err := embed.Project(pix)
		if err != nil {
			return nil, err
		}
		s.Map, err = embed.Layout(ctx, g, start, embed.Options{Seed: o.Seed, Workers: o.Workers, Progress: progress})
		if err != nil {
			return nil, err
		}
	} else {
		s.Map, err = embed.Map(ctx, pix, embed.MapOptions{Options: embed.Options{Seed: o.Seed, Workers: o.Workers, Progress: progress},
			K: neighbours, Pool: mapPool})
		if err != nil {
			return nil, err
		}
	}
	pix, g = nn.Vectors{}, nil // let the pixel features go
	o.report("clusters", 0)
	s.Fine, _, err = kmeans(ctx, nn.Vectors{Data: s.Map, N: d.N, Dim: 2}, s.Clusters, o.Seed, o.Workers)
	if err != nil {
		return nil, err
	}
	if s.Net, err = featuresNet(ctx, d, s.Fine, s.Clusters, o); err != nil {
		return nil, err
	}
	o.report("features", 0)
	feats, err := netFeatures(ctx, s.Net, pixels28(d), d.N, o)
	if err != nil {
		return nil, err
	}
	if s.Graph, err = neighbourGraph(ctx, feats, o); err != nil {
		return nil, err
	}
	if err := s.Ready(); err != nil {
		return nil, err
	}
	return s, nil
}

// neighbourGraph returns each point's neighbours nearest of v (nn's index: exact below
// nn.ExactBelow points, the inverted-file index above), reported as the "neighbours" stage.
func neighbourGraph(ctx context.Context, v nn.Vectors, o Options) (*nn.Graph, error) {
	o.report("neighbours", 0)
	ix, err := nn.NewIndex(ctx, v, nn.IndexOptions{Seed: o.Seed, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	return ix.Among(ctx, nil, min(neighbours, v.N-1), nn.Options{Workers: o.Workers, Progress: func(f float64) { o.report("neighbours", f) }})
}

// Ready checks a space assembled from stored arrays (every size and value: a map of N points
// of finite coordinates, fine clusters 0…Clusters−1, a network of Clusters classes, a graph of
// N rows naming samples 0…N−1 or −1 at non-negative distances) and derives what is not
// stored: the samples' typicality and the order their fine clusters join in. NewSpace's spaces
// are ready. Errors: a description of the first thing out of place.
func (s *Space) Ready() error {
	n := len(s.Fine)
	switch {
	case n < 2 || s.Clusters < 1 || s.Clusters > n:
		return fmt.Errorf("%d fine clusters of %d samples", s.Clusters, n)
	case len(s.Map) != 2*n:
		return fmt.Errorf("a map of %d values for %d samples", len(s.Map), n)
	case s.Net == nil || s.Net.Classes != max(2, s.Clusters):
		return fmt.Errorf("no features network for %d fine clusters", s.Clusters)
	case s.Graph == nil || s.Graph.K < 1 || len(s.Graph.Idx) != n*s.Graph.K || len(s.Graph.Dist) != len(s.Graph.Idx):
		return fmt.Errorf("a neighbour graph that is not %d rows", n)
	}
	for _, v := range s.Map {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("a map coordinate that is not a number")
		}
	}
	for t, j := range s.Graph.Idx {
		if j < -1 || int(j) >= n || !(s.Graph.Dist[t] >= 0) || math.IsInf(float64(s.Graph.Dist[t]), 1) && j >= 0 {
			return fmt.Errorf("a neighbour %d at distance %v", j, s.Graph.Dist[t])
		}
	}
	for _, c := range s.Fine {
		if c < 0 || int(c) >= s.Clusters {
			return fmt.Errorf("fine cluster %d of %d", c, s.Clusters)
		}
	}
	s.typical = make([]float64, n)
	for i := range n {
		idx, dist := s.Graph.Of(i)
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
	s.order = joinOrder(s.Graph, s.Fine, s.Clusters)
	return nil
}

// groups returns each sample's group (0…G−1) when the fine clusters are joined into G groups.
func (s *Space) groups(g int) ([]int32, int) {
	g = max(1, min(g, s.Clusters))
	of := cut(s.order, s.Clusters, g)
	out := make([]int32, s.N())
	count := 0
	for i, c := range s.Fine {
		out[i] = of[c]
		count = max(count, int(of[c])+1)
	}
	return out, count
}
