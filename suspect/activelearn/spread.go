package activelearn

import (
	"context"
	"math"

	"idxlabel/suspect/nn"
)

// Label spreading (Zhou, Bousquet, Lal, Weston and Schölkopf 2004, "Learning with Local and
// Global Consistency"): F ← α·S·F + (1−α)·Y, where Y holds the typed labels one-hot (rows of
// unlabelled samples zero) and S = D^−½·W·D^−½ is the symmetrically normalized affinity of the
// neighbour graph, W_ij = exp(−d_ij²/(σ_i·σ_j)) with σ_i the distance to sample i's
// scaleNeighbour-th neighbour (local scaling), made symmetric by counting each listed edge in
// both directions.
const (
	spreadAlpha = 0.99 // the share each step takes from the neighbours
	spreadSteps = 40   // iterations
)

// spread returns N×classes label scores, each row normalized to sum to 1 (uniform for a sample
// no label reaches), from the class indices cls (−1: unlabelled), over each sample's first
// spreadNeighbours neighbours of g. Growth: O(N·k·classes) per iteration, O(N·(k + classes))
// memory.
func spread(ctx context.Context, g *nn.Graph, cls []int, classes int) ([]float32, error) {
	return spreadK(ctx, g, cls, classes, spreadNeighbours)
}

// spreadNeighbours is how many of each sample's nearest neighbours label spreading follows.
const spreadNeighbours = 10

func spreadK(ctx context.Context, g *nn.Graph, cls []int, classes, use int) ([]float32, error) {
	n, k := g.Rows(), g.K
	use = min(use, k)
	sigma := make([]float64, n)
	for i := range n {
		_, dist := g.Of(i)
		t := min(scaleNeighbour, use) - 1
		for t > 0 && math.IsInf(float64(dist[t]), 1) {
			t--
		}
		sigma[i] = math.Sqrt(max(float64(dist[t]), 1e-12))
	}
	w := make([]float32, n*k)
	deg := make([]float64, n)
	for i := range n {
		idx, dist := g.Of(i)
		for t, j := range idx[:use] {
			if j < 0 {
				continue
			}
			v := math.Exp(-float64(dist[t]) / (sigma[i] * sigma[j]))
			w[i*k+t] = float32(v)
			deg[i] += v
			deg[j] += v
		}
	}
	for i := range n {
		deg[i] = 1 / math.Sqrt(max(deg[i], 1e-30))
	}
	for i := range n {
		idx, _ := g.Of(i)
		for t, j := range idx[:use] {
			if j >= 0 {
				w[i*k+t] *= float32(deg[i] * deg[j])
			}
		}
	}
	y := make([]float32, n*classes)
	for i, c := range cls {
		if c >= 0 {
			y[i*classes+c] = 1
		}
	}
	f := make([]float32, n*classes)
	next := make([]float32, n*classes)
	copy(f, y)
	for range spreadSteps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := range next {
			next[i] = (1 - spreadAlpha) * y[i]
		}
		for i := range n {
			idx, _ := g.Of(i)
			fi, ni := f[i*classes:(i+1)*classes], next[i*classes:(i+1)*classes]
			for t, j := range idx[:use] {
				if j < 0 {
					continue
				}
				a := spreadAlpha * w[i*k+t]
				fj, nj := f[int(j)*classes:(int(j)+1)*classes], next[int(j)*classes:(int(j)+1)*classes]
				for c := range classes {
					ni[c] += a * fj[c]
					nj[c] += a * fi[c]
				}
			}
		}
		f, next = next, f
	}
	for i := range n {
		row := f[i*classes : (i+1)*classes]
		var s float32
		for c, v := range row {
			row[c] = max(v, 0)
			s += row[c]
		}
		for c := range row {
			if s > 0 {
				row[c] /= s
			} else {
				row[c] = 1 / float32(classes)
			}
		}
	}
	return f, nil
}
