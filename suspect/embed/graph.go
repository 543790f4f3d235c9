package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"idxlabel/internal/parallel"
	"idxlabel/suspect/nn"
)

// fuzzy is the symmetric weighted neighbour graph the layout follows, in compressed rows: point
// i's edges are to[start[i]:start[i+1]] with weights w (0–1). Every undirected edge is stored
// in both rows.
type fuzzy struct {
	start []int
	to    []int32
	w     []float32
}

// checkGraph reports a graph that is not rows lists of neighbours among n points: a row count
// or K that does not fit, an index outside [0, n) other than the padding −1, or a distance that
// is negative or NaN.
func checkGraph(g *nn.Graph, rows, n int) error {
	if g == nil || g.K < 1 || len(g.Idx) != rows*g.K || len(g.Dist) != len(g.Idx) {
		return fmt.Errorf("%w: the neighbour graph does not have %d rows", ErrShape, rows)
	}
	for e, j := range g.Idx {
		if j < -1 || int(j) >= n {
			return fmt.Errorf("%w: neighbour %d of row %d is outside the %d points", ErrShape, j, e/g.K, n)
		}
		if d := g.Dist[e]; j >= 0 && !(d >= 0) {
			return fmt.Errorf("%w: row %d has a neighbour at squared distance %v", ErrShape, e/g.K, d)
		}
	}
	return nil
}

// memberships turns each row of g (squared distances, nearest first; padding −1 skipped) into
// fuzzy memberships, UMAP's smooth_knn_dist: with ρ the distance to the nearest neighbour at a
// positive distance and σ found by bisection so that Σ exp(−max(0, d − ρ)/σ) = log₂(K + 1)
// over the row, a neighbour at distance d gets exp(−max(0, d − ρ)/σ); the nearest gets 1. σ is
// kept at least 10⁻³ of the row's mean distance. The result is row-major like g.Idx (0 for
// padding). Rows are computed in parallel, each by one worker.
func memberships(ctx context.Context, g *nn.Graph, workers int) ([]float32, error) {
	n := g.Rows()
	w := make([]float32, len(g.Idx))
	target := math.Log2(float64(g.K + 1))
	const chunk = 1024
	err := parallel.For(ctx, n, parallel.Options{Workers: workers, Chunk: chunk}, func(context.Context) func(r0, r1 int) error {
		d := make([]float64, g.K)
		return func(r0, r1 int) error {
			for i := r0; i < r1; i++ {
				idx, dist := g.Of(i)
				m := 0
				for s, j := range idx {
					if j >= 0 {
						d[m] = math.Sqrt(float64(dist[s]))
						m++
					}
				}
				rho, sigma := smoothKNN(d[:m], target)
				m = 0
				for s, j := range idx {
					if j < 0 {
						continue
					}
					w[i*g.K+s] = float32(math.Exp(-max(0, d[m]-rho) / sigma))
					m++
				}
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// smoothKNN returns ρ and σ for one row of neighbour distances (ascending): see memberships.
func smoothKNN(d []float64, target float64) (rho, sigma float64) {
	mean := 0.0
	for _, x := range d {
		mean += x
		if rho == 0 && x > 0 {
			rho = x
		}
	}
	if len(d) > 0 {
		mean /= float64(len(d))
	}
	lo, hi, mid := 0.0, math.Inf(1), 1.0
	for range 64 {
		sum := 0.0
		for _, x := range d {
			if e := x - rho; e > 0 {
				sum += math.Exp(-e / mid)
			} else {
				sum++
			}
		}
		if math.Abs(sum-target) < 1e-5 {
			break
		}
		if sum > target {
			hi = mid
			mid = (lo + hi) / 2
		} else {
			lo = mid
			if math.IsInf(hi, 1) {
				mid *= 2
			} else {
				mid = (lo + hi) / 2
			}
		}
	}
	return rho, max(mid, 1e-3*mean, 1e-12)
}

// symmetrize builds the fuzzy union of the directed memberships w (row-major like g.Idx):
// edge i–j weighs a + b − a·b where a is i's membership of j and b is j's of i (0 when j does
// not list i). Rows keep g's order, then the edges only the other end listed, in the order of
// the points that listed them; so the result depends only on g.
func symmetrize(g *nn.Graph, w []float32) *fuzzy {
	n, k := g.Rows(), g.K
	// back(i, j) is the membership point j gives point i, or 0 when j does not list i.
	back := func(i int, j int32) float32 {
		idx, _ := g.Of(int(j))
		for t, x := range idx {
			if x == int32(i) {
				return w[int(j)*k+t]
			}
		}
		return 0
	}
	deg := make([]int, n+1)
	for i := range n {
		idx, _ := g.Of(i)
		for _, j := range idx {
			if j < 0 {
				continue
			}
			deg[i]++
			if !lists(g, int(j), int32(i)) {
				deg[j]++
			}
		}
	}
	f := &fuzzy{start: make([]int, n+1)}
	for i := range n {
		f.start[i+1] = f.start[i] + deg[i]
	}
	f.to = make([]int32, f.start[n])
	f.w = make([]float32, f.start[n])
	fill := make([]int, n)
	copy(fill, f.start[:n])
	for i := range n {
		idx, _ := g.Of(i)
		for s, j := range idx {
			if j < 0 {
				continue
			}
			a := w[i*k+s]
			b := back(i, j)
			f.to[fill[i]], f.w[fill[i]] = j, a+b-a*b
			fill[i]++
			if !lists(g, int(j), int32(i)) {
				f.to[fill[j]], f.w[fill[j]] = int32(i), a
				fill[j]++
			}
		}
	}
	return f
}

// lists reports whether point i's row of g holds j.
func lists(g *nn.Graph, i int, j int32) bool {
	idx, _ := g.Of(i)
	for _, x := range idx {
		if x == j {
			return true
		}
	}
	return false
}

// defaultWorkers returns w, or the number of CPUs when w ≤ 0.
func defaultWorkers(w int) int {
	if w <= 0 {
		return runtime.NumCPU()
	}
	return w
}
