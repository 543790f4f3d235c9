package nn

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"

	"idxlabel/internal/gemm"
	"idxlabel/internal/parallel"
)

// ExactBelow is the number of points below which NewIndex makes an exact index (one cell: every
// query compares with every point), since the exact search is then as fast as the approximate
// one: 10,000 CNN features (128 values) take about 0.2 s on 2 cores.
const ExactBelow = 20000

// Index answers nearest-neighbour queries among a fixed set of points. Below ExactBelow points
// (or with IndexOptions.Cells = 1) it is exact. Above, it is an inverted-file index (IVF,
// Jégou et al. 2011): k-means on a sample of the points gives Cells centroids, every point is
// filed under its nearest centroid, and a query compares itself exactly with the points of the
// Probe cells whose centroids are nearest to it. The result is the exact k nearest among those
// points, so a neighbour is missed only when it was filed in a cell the query did not visit.
//
// Recall against the exact search (the share of the true 10 nearest found) with the default
// options, on the 60,000 MNIST training images (348 cells): 0.985 for their 48-value pixel
// descriptors (suspect/neardup), 0.981 for 128 values standing in for CNN features (a random
// projection of those through a ReLU); with √(8·N) cells (693) they were 0.974 and 0.970, and a
// CNN scan's real features 0.997 (suspect/health's BenchmarkIndexRecall60k, bench/check/README.md).
// On 1,000,000 augmented MNIST digits (1,991 cells) the descriptors' recall is 1.000
// (bench/nnrecall).
//
// Growth: building costs O(N·Cells·Dim) for the filing and O(Sample·Cells·Dim) per k-means
// iteration; a search of Q queries O(Q·Cells·Dim + Q·Probe·(N/Cells)·Dim), less the first term
// for Among, whose queries are indexed points (the build found their Probe nearest cells when it
// filed them, and keeps them); with the default Cells (balancedCells: below √(Probe·N), which
// it approaches as N grows) both are O(N^1.5·Dim) with a small constant (1,000,000 points of
// 128 values: seconds, not the hours of an exact search).
// Most of a search's distances are never looked at one by one: a first pass (belowMask, AVX2
// on amd64) keeps only the points of a block that may enter a query's list; and once a query has
// searched its nearest cell, a cell whose points all lie farther than its list's last (by the
// plane halfway between the two centroids: skip) is not searched. Memory: a transposed copy of
// the points (N·Dim float32), N point numbers and norms, N·Probe cell numbers and centroid
// distances, the centroids, a sample of 32·Cells points while building, and during a search
// each worker's chunk of queries (up to 16,384 rows, copied as they are scaled, with their k
// nearest so far) and, for other queries, Q·Probe cell numbers and distances. The index does
// not keep the points it was given. An Index is safe for concurrent searches.
type Index struct {
	n, dim int       // the points' number and values per point
	cent   *Index    // an exact index of the Cells×Dim centroids (nil: one cell)
	start  []int     // Cells+1 offsets: cell c holds points order[start[c]:start[c+1]]
	order  []int32   // point numbers, grouped by cell, ascending within a cell
	pos    []int32   // N: where point i is in order (and in pts)
	pts    []float32 // Dim×N: column p is point order[p] (for the products, see search)
	norms  []float32 // N: ‖point order[p]‖²
	top    float32   // the largest of norms
	probe  int
	cosine bool
	// N×probe: the cells point order[p]'s search visits, nearest first, with the squared
	// distances of their centroids (nil: one cell).
	visits *Graph
	// The centroids (Cells×Dim, row-major) and the largest squared norm among them, for the
	// bound that skips a cell (skip).
	centroids []float32
	centTop   float32
}

// IndexOptions tune NewIndex. The zero value takes the defaults.
type IndexOptions struct {
	// Cells is the number of k-means cells (default: 1, an exact index, below ExactBelow
	// points; otherwise balancedCells, the number that makes building the index and searching
	// it for every point cheapest).
	Cells int
	// Probe is the number of cells a query visits (default 8; at most Cells).
	Probe int
	// Sample is the number of points k-means is trained on (default 32·Cells, at most N).
	Sample int
	// Iterations of k-means (Lloyd's algorithm; default 8).
	Iterations int
	// Cosine compares points by angle: points and queries are scaled to unit length as they
	// are copied (v is not changed), so a Graph's distances are 2 − 2·cos. A point of length 0
	// stays at the origin.
	Cosine   bool
	Seed     uint64        // chooses the sample and the first centroids (default 1)
	Workers  int           // goroutines (default runtime.NumCPU())
	Progress func(float64) // the share of the build done (0–1), one call at a time; may be nil
}

// balancedCells returns the number of cells C that makes an index of n points cheapest to
// build and to search for each of its points (Among), counted in distances: filing n·C, k-means
// iterations·sample·C (the sample 32·C unless given), the search n·probe·n/C. The sum is convex
// in C; its minimum, where n + 2·iterations·32·C = probe·n²/C² (without the k-means term it
// would be √(probe·n), the balance of finding the cells and searching them), is found by
// bisection. With the defaults, 1,000,000 points get 1,991 cells (√(8·n) would be 2,828) and
// 60,000 get 348 (693).
func balancedCells(n, probe, iterations, sample int) int {
	if iterations <= 0 {
		iterations = 8
	}
	slope := func(c float64) float64 { // the sum's derivative in C
		s := float64(n) - float64(probe)*float64(n)*float64(n)/(c*c)
		if sample > 0 {
			return s + float64(iterations*sample)
		}
		return s + 2*float64(iterations)*32*c
	}
	lo, hi := 1.0, math.Sqrt(float64(probe)*float64(n))+1 // slope(lo) < 0 ≤ slope(hi)
	for range 60 {
		if mid := (lo + hi) / 2; slope(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return max(probe, int(math.Round(hi)))
}

// Work returns about how many distances (of Dim values each) an index of n points built with
// the defaults computes to build itself and answer q of its points' queries (Among): q·n below
// ExactBelow; above, the filing, k-means and the searches balancedCells weighs.
func Work(n, q int) float64 {
	if n < ExactBelow {
		return float64(q) * float64(n)
	}
	o := IndexOptions{}.withDefaults(n)
	c := float64(o.Cells)
	return float64(n)*c + float64(o.Iterations*o.Sample)*c + float64(q)*float64(o.Probe)*float64(n)/c
}

func (o IndexOptions) withDefaults(n int) IndexOptions {
	if o.Probe <= 0 {
		o.Probe = 8
	}
	if o.Cells <= 0 {
		o.Cells = 1
		if n >= ExactBelow {
			o.Cells = balancedCells(n, o.Probe, o.Iterations, o.Sample)
		}
	}
	o.Cells = max(1, min(o.Cells, n))
	o.Probe = min(o.Probe, o.Cells)
	if o.Sample <= 0 {
		o.Sample = 32 * o.Cells
	}
	o.Sample = max(o.Cells, min(o.Sample, n))
	if o.Iterations <= 0 {
		o.Iterations = 8
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	return o
}

// NewIndex builds an Index of the points v. It keeps a copy of what it needs, so v may change
// or be let go once it returns (Among reads its queries from the copy). The build is deterministic for given points and options (the
// workers do not change it). Errors: ErrShape (v's sizes, no points), or the context's error
// when cancelled.
func NewIndex(ctx context.Context, v Vectors, opts IndexOptions) (*Index, error) {
	if err := v.check(); err != nil {
		return nil, err
	}
	if v.N == 0 {
		return nil, fmt.Errorf("%w: an index of no points", ErrShape)
	}
	opts = opts.withDefaults(v.N)
	report := func(float64) {}
	if opts.Progress != nil {
		report = opts.Progress
	}
	ix := &Index{n: v.N, dim: v.Dim, probe: opts.Probe, cosine: opts.Cosine}
	if opts.Cells == 1 {
		ix.file(v, make([]int32, v.N), 1)
		report(1)
		return ix, nil
	}
	cent, err := KMeans(ctx, v, KMeansOptions{K: opts.Cells, Sample: opts.Sample, Iterations: opts.Iterations, Cosine: opts.Cosine,
		Seed: opts.Seed, Workers: opts.Workers, Progress: func(f float64) { report(0.8 * f) }})
	if err != nil {
		return nil, err
	}
	ix.cent = exact(cent)
	// Each point's Probe nearest centroids: the first files it, and all of them are the cells
	// Among visits for it (the same search, made once).
	g, err := ix.cent.search(ctx, vectorRows(v, nil, ix.cosine), noSelf, ix.probe, nil, Options{Workers: opts.Workers, Progress: func(f float64) { report(0.8 + 0.2*f) }})
	if err != nil {
		return nil, err
	}
	cell := make([]int32, v.N)
	for i := range cell {
		cell[i] = g.Idx[i*ix.probe]
	}
	ix.file(v, cell, opts.Cells)
	// By place in order, as Among takes its queries.
	ix.visits = &Graph{K: ix.probe, Idx: make([]int32, len(g.Idx)), Dist: make([]float32, len(g.Dist))}
	for p, i := range ix.order {
		copy(ix.visits.Idx[p*ix.probe:(p+1)*ix.probe], g.Idx[int(i)*ix.probe:])
		copy(ix.visits.Dist[p*ix.probe:(p+1)*ix.probe], g.Dist[int(i)*ix.probe:])
	}
	ix.centroids, ix.centTop = cent.Data, ix.cent.top
	report(1)
	return ix, nil
}

// exact returns a one-cell Index of v (every query compares with every point).
func exact(v Vectors) *Index {
	ix := &Index{n: v.N, dim: v.Dim, probe: 1}
	ix.file(v, make([]int32, v.N), 1)
	return ix
}

// noSelf is search's self for queries that are not among the points.
func noSelf(int) int32 { return -1 }

// file groups the points v by cell (a counting sort: ascending point number within a cell) and
// stores them transposed with their norms (scaled to unit length with Cosine).
func (ix *Index) file(v Vectors, cell []int32, cells int) {
	ix.start = make([]int, cells+1)
	for _, c := range cell {
		ix.start[c+1]++
	}
	for c := range cells {
		ix.start[c+1] += ix.start[c]
	}
	next := slices.Clone(ix.start[:cells])
	ix.order, ix.pos = make([]int32, v.N), make([]int32, v.N)
	for i, c := range cell {
		ix.order[next[c]], ix.pos[i] = int32(i), int32(next[c])
		next[c]++
	}
	ix.pts = make([]float32, v.Dim*v.N)
	ix.norms = make([]float32, v.N)
	for p, i := range ix.order {
		row := v.Data[int(i)*v.Dim : (int(i)+1)*v.Dim]
		scale, n2 := rowScale(row, ix.cosine)
		for c, x := range row {
			ix.pts[c*v.N+p] = x * scale
		}
		ix.norms[p] = n2
		ix.top = max(ix.top, n2)
	}
}

// skip reports whether no point filed under cell ci can enter a list whose last distance is
// worst, for a query of squared norm qn at squared distances d0 from the centroid of its
// nearest cell c0 and di from ci's: those points lie on ci's side of the plane halfway between
// the two centroids, (di − d0)/(2·‖ci − c0‖) or more from the query. The rounding of the
// distances (a dot product of Dim float32 products is within Dim·2⁻²⁴ of their magnitudes) is
// taken off the gap and added to worst, so a skipped cell holds no point the search would have
// kept (TestSkipKeepsTheResult).
func (ix *Index) skip(c0, ci int32, d0, di, qn, worst float32) bool {
	if math.IsInf(float64(worst), 1) {
		return false
	}
	eps := (qn + ix.top + 2*ix.centTop) * float32(ix.dim) * 0x1p-22
	gap := di - d0 - eps
	if gap <= 0 {
		return false
	}
	a := ix.centroids[int(c0)*ix.dim : int(c0+1)*ix.dim]
	b := ix.centroids[int(ci)*ix.dim : int(ci+1)*ix.dim]
	var sep float32
	for x := range a {
		d := a[x] - b[x]
		sep += d * d
	}
	return gap*gap > 4*sep*(worst+eps)*(1+0x1p-16)
}

// slack is how far search's first pass (belowMask: ‖p‖² − 2·q·p ≤ worst − ‖q‖², rounded as
// float32) may put a point the exact comparison (‖q‖² + ‖p‖² − 2·q·p ≤ worst, rounded
// otherwise) would keep: each side's roundings are within 2⁻²⁴ of values at most a few times
// ‖q‖² + ‖p‖² + worst, and 16 times that keeps every such point in the first pass (which admits a
// few more, the exact comparison deciding). qn is ‖q‖², worst the list's last distance.
func (ix *Index) slack(qn, worst float32) float32 {
	return (qn + ix.top + worst) * 0x1p-20
}

// rowScale returns the factor a row is multiplied by (1, or 1/‖row‖ with unit; a row of length
// 0 stays 0) and the squared norm of the result.
func rowScale(row []float32, unit bool) (scale, norm2 float32) {
	var s float64
	for _, x := range row {
		s += float64(x) * float64(x)
	}
	if !unit {
		return 1, float32(s)
	}
	if s == 0 {
		return 0, 0
	}
	return float32(1 / math.Sqrt(s)), 1
}

// Len returns the number of points indexed.
func (ix *Index) Len() int { return ix.n }

// Cells returns the number of cells (1: the index is exact).
func (ix *Index) Cells() int {
	if ix.cent == nil {
		return 1
	}
	return ix.cent.n
}

// Exact reports whether every query compares with every point (one cell, or Probe = Cells).
func (ix *Index) Exact() bool { return ix.probe >= ix.Cells() }

// Among finds, for each point queries[q] of the index, its k nearest other indexed points (a
// point is never its own neighbour) among the cells it visits; queries nil means every point, in
// order. Row q of the result is queries[q]'s. The result does not depend on opts.Workers.
// Errors: ErrShape (an index out of range, k < 1), or the context's error when cancelled.
func (ix *Index) Among(ctx context.Context, queries []int, k int, opts Options) (*Graph, error) {
	for _, q := range queries {
		if q < 0 || q >= ix.n {
			return nil, fmt.Errorf("%w: query %d of %d points", ErrShape, q, ix.n)
		}
	}
	if err := opts.checkGroups(ix.n); err != nil {
		return nil, err
	}
	q, self, visit := ix.ownRows(queries)
	return ix.search(ctx, q, self, k, visit, opts)
}

// Across finds, for each point of queries (another set: no point is excluded), its k nearest
// indexed points among the cells it visits. The result does not depend on opts.Workers.
// Errors: ErrShape (sizes, another Dim, k < 1), or the context's error when cancelled.
func (ix *Index) Across(ctx context.Context, queries Vectors, k int, opts Options) (*Graph, error) {
	if err := queries.check(); err != nil {
		return nil, err
	}
	if queries.Dim != ix.dim {
		return nil, fmt.Errorf("%w: %d values per point against %d", ErrShape, queries.Dim, ix.dim)
	}
	return ix.search(ctx, vectorRows(queries, nil, ix.cosine), noSelf, k, nil, opts)
}

// search finds the k nearest indexed points of each query row r of q among the points of the
// probe cells whose centroids are nearest to it (visits: each row's cells, nearest first, probe
// a row, with their centroids' squared distances; nil: found here), less the cells skip rules
// out once the row has searched its nearest. Queries are cut into chunks whose size depends
// only on their number; a worker takes a chunk, loads its rows, groups them by cell and
// multiplies each cell's rows (64 at a time) with the cell's points (256 at a time) on
// internal/gemm. A row's candidates are
// kept by pushOrdered in the chunk's own lists (put in the graph when the chunk is done), which
// orders equal distances by point number, so the result depends neither on the workers nor on
// the order of the visits. self(r) is the point row r must not match.
func (ix *Index) search(ctx context.Context, q queryRows, self func(r int) int32, k int, visits *Graph, opts Options) (*Graph, error) {
	apart := opts.apart()
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrShape, k)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	nq := q.n
	g := newGraph(nq, k)
	if nq == 0 {
		return g, ctx.Err()
	}
	cells, probe := ix.Cells(), min(ix.probe, ix.Cells())
	var visit *Graph // each row's cells
	switch {
	case cells > 1 && visits != nil:
		visit = visits
	case cells > 1:
		var err error
		visit, err = ix.cent.search(ctx, q, noSelf, probe, nil, Options{Workers: workers})
		if err != nil {
			return nil, err
		}
	default:
		visit = &Graph{K: 1, Idx: make([]int32, nq), Dist: make([]float32, nq)}
	}
	dim, n := ix.dim, ix.n
	chunk := max(512, min(16384, (nq+31)/32))
	const rowBlock, colBlock = 64, 256
	err := parallel.For(ctx, nq, parallel.Options{Workers: workers, Chunk: chunk, Progress: opts.Progress}, func(ctx context.Context) func(r0, r1 int) error {
		c := make([]float32, rowBlock*colBlock)
		a := make([]float32, rowBlock*dim)
		qn := make([]float32, rowBlock)
		mask := make([]uint8, colBlock/8)
		lists := newGraph(chunk, k)                                    // the chunk's rows' neighbours, put in g when it is done
		rows, rn := make([]float32, chunk*dim), make([]float32, chunk) // the chunk's rows, scaled, and their squared norms
		count := make([]int, cells+1)
		var byCell []int32
		visited := make([]int32, chunk*visit.K) // the chunk's rows' cells, less those skipped
		return func(r0, r1 int) error {
			q.load(r0, r1, rows[:(r1-r0)*dim], rn[:r1-r0])
			for i := range (r1 - r0) * k {
				lists.Idx[i], lists.Dist[i] = -1, float32(math.Inf(1))
			}
			// The rows' nearest cells first, then the others: after the first, each row's
			// list holds near points, so the first pass (belowMask) lets few more through,
			// and a cell none of whose points can enter the list is not visited (skip).
			for _, span := range [][2]int{{0, 1}, {1, probe}} {
				lo, hi := span[0], span[1]
				for r := r0; r < r1; r++ {
					mine := visited[(r-r0)*visit.K : (r-r0+1)*visit.K]
					copy(mine[lo:hi], visit.Idx[r*visit.K+lo:r*visit.K+hi])
					if lo == 0 || ix.centroids == nil {
						continue
					}
					_, dist := lists.Of(r - r0)
					at := visit.Dist[r*visit.K : (r+1)*visit.K]
					for slot := lo; slot < hi; slot++ {
						if mine[slot] >= 0 && ix.skip(mine[0], mine[slot], at[0], at[slot], rn[r-r0], dist[k-1]) {
							mine[slot] = -1
						}
					}
				}
				// Group the chunk's rows by cell (counting sort, rows ascending within a cell).
				clear(count)
				for r := r0; r < r1; r++ {
					for _, cl := range visited[(r-r0)*visit.K+lo : (r-r0)*visit.K+hi] {
						if cl >= 0 {
							count[cl+1]++
						}
					}
				}
				for cl := range cells {
					count[cl+1] += count[cl]
				}
				byCell = slices.Grow(byCell[:0], count[cells])[:count[cells]]
				pos := slices.Clone(count[:cells])
				for r := r0; r < r1; r++ {
					for _, cl := range visited[(r-r0)*visit.K+lo : (r-r0)*visit.K+hi] {
						if cl >= 0 {
							byCell[pos[cl]] = int32(r)
							pos[cl]++
						}
					}
				}
				for cl := range cells {
					if err := ctx.Err(); err != nil {
						return err
					}
					mine := byCell[count[cl]:count[cl+1]]
					p0, p1 := ix.start[cl], ix.start[cl+1]
					if p0 == p1 {
						continue
					}
					for b := 0; b < len(mine); b += rowBlock {
						blk := mine[b:min(b+rowBlock, len(mine))]
						for m, r := range blk {
							copy(a[m*dim:(m+1)*dim], rows[(int(r)-r0)*dim:])
							qn[m] = rn[int(r)-r0]
						}
						for j0 := p0; j0 < p1; j0 += colBlock {
							if j0 > p0 && settled(lists, blk, r0, ix.order[j0]) {
								break
							}
							blocks.Add(1)
							cols := min(colBlock, p1-j0)
							gemm.Mul(blas.NoTrans, blas.NoTrans, len(blk), cols, dim, a, dim, ix.pts[j0:], n, c, cols)
							norms := ix.norms[j0 : j0+cols]
							for m, r := range blk {
								idx, dist := lists.Of(int(r) - r0)
								own := self(int(r))
								dots := c[m*cols : (m+1)*cols]
								// The points that may enter the list (a loose bound: see
								// slack), each of them then compared exactly.
								worst := dist[k-1]
								if !belowMask(dots, norms, worst-qn[m]+ix.slack(qn[m], worst), mask) {
									continue
								}
								for b, bits8 := range mask[:(cols+7)/8] {
									for ; bits8 != 0; bits8 &= bits8 - 1 {
										s := 8*b + bits.TrailingZeros8(bits8)
										d := max(0, qn[m]+norms[s]-2*dots[s])
										if d > dist[k-1] {
											continue
										}
										if j := ix.order[j0+s]; apart(own, j) {
											pushOrdered(idx, dist, j, d)
										}
									}
								}
							}
						}
					}
				}
			}
			for r := r0; r < r1; r++ {
				idx, dist := g.Of(q.row(int32(r)))
				copy(idx, lists.Idx[(r-r0)*k:])
				copy(dist, lists.Dist[(r-r0)*k:])
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// blocks counts the column blocks search compares (for the tests: one atomic add per block of
// up to 64×256 distances).
var blocks atomic.Int64

// settled reports whether no point from next on in the cell being searched (its points are
// numbered upwards, file) can enter the lists of the rows of blk (row r's is row r − r0 of
// lists): each holds its k neighbours at distance 0 with numbers below next, which pushOrdered
// keeps against any point at distance 0 with a larger number. It ends the scan of a cell of identical points (blank images) after
// one block: without it every query compared with the whole cell, O(N²).
func settled(lists *Graph, blk []int32, r0 int, next int32) bool {
	for _, r := range blk {
		idx, dist := lists.Of(int(r) - r0)
		if last := len(dist) - 1; dist[last] != 0 || idx[last] < 0 || idx[last] >= next {
			return false
		}
	}
	return true
}

// newGraph returns q rows of k empty neighbours (-1, +Inf).
func newGraph(q, k int) *Graph {
	g := &Graph{K: k, Idx: make([]int32, q*k), Dist: make([]float32, q*k)}
	for i := range g.Idx {
		g.Idx[i] = -1
		g.Dist[i] = float32(math.Inf(1))
	}
	return g
}

// pushOrdered inserts (j, d) into a list kept sorted by distance, then point number, dropping
// the last, when it belongs there (d is not beyond the last kept).
func pushOrdered(idx []int32, dist []float32, j int32, d float32) {
	last := len(dist) - 1
	if d > dist[last] || d == dist[last] && idx[last] >= 0 && idx[last] <= j {
		return
	}
	p := last
	for p > 0 && (dist[p-1] > d || dist[p-1] == d && idx[p-1] > j) {
		dist[p], idx[p] = dist[p-1], idx[p-1]
		p--
	}
	dist[p], idx[p] = d, j
}

// queryRows are search's queries: n rows of the index's dim values. load writes rows
// r0…r1−1, scaled as the index's points are, to dst ((r1−r0)×dim) and their squared norms to
// n2 (r1−r0); search calls it once per chunk of rows, from its workers at once. Row r's
// neighbours go to row out[r] of the graph (out nil: row r), so that a search may take its
// queries in an order of its own.
type queryRows struct {
	n    int
	load func(r0, r1 int, dst, n2 []float32)
	out  []int32
}

// row returns the graph row of query row r.
func (q queryRows) row(r int32) int {
	if q.out != nil {
		return int(q.out[r])
	}
	return int(r)
}

// vectorRows returns the rows of q (row rows[r], or row r when rows is nil), scaled to unit
// length when unit.
func vectorRows(q Vectors, rows []int, unit bool) queryRows {
	n := q.N
	if rows != nil {
		n = len(rows)
	}
	return queryRows{n: n, load: func(r0, r1 int, dst, n2 []float32) {
		for r := r0; r < r1; r++ {
			i := r
			if rows != nil {
				i = rows[r]
			}
			src := q.Data[i*q.Dim : (i+1)*q.Dim]
			scale, norm2 := rowScale(src, unit)
			for x, v := range src {
				dst[(r-r0)*q.Dim+x] = v * scale
			}
			n2[r-r0] = norm2
		}
	}}
}

// ownRows returns the index's own points as queries (point queries[m], or point m when
// queries is nil, whose neighbours go to graph row m), with self (each query row's point) and
// the cells the build found for them. The rows are taken in the order the points are filed in
// (by cell, point number within a cell) and read from the transposed copy: the same values
// vectorRows gives of the points the index was built from, scaled alike. In that order a chunk
// of rows is a run of the copy's columns (read in streams, not at random), and its rows share
// their nearest cells, so the products come in full blocks.
func (ix *Index) ownRows(queries []int) (q queryRows, self func(r int) int32, visit *Graph) {
	if queries == nil {
		q = queryRows{n: ix.n, out: ix.order, load: func(r0, r1 int, dst, n2 []float32) {
			copy(n2, ix.norms[r0:r1])
			for c := range ix.dim {
				col := ix.pts[c*ix.n+r0 : c*ix.n+r1]
				for m, x := range col {
					dst[m*ix.dim+c] = x
				}
			}
		}}
		return q, func(r int) int32 { return ix.order[r] }, ix.visits
	}
	// The queries by place (then by their number, for repeated points).
	at := make([]int32, len(queries))
	for m := range at {
		at[m] = int32(m)
	}
	slices.SortFunc(at, func(a, b int32) int {
		return cmp.Or(cmp.Compare(ix.pos[queries[a]], ix.pos[queries[b]]), cmp.Compare(a, b))
	})
	q = queryRows{n: len(queries), out: at, load: func(r0, r1 int, dst, n2 []float32) {
		for r := r0; r < r1; r++ {
			n2[r-r0] = ix.norms[ix.pos[queries[at[r]]]]
		}
		for c := range ix.dim { // a value of every row at a time: one row of pts
			col := ix.pts[c*ix.n : (c+1)*ix.n]
			for r := r0; r < r1; r++ {
				dst[(r-r0)*ix.dim+c] = col[ix.pos[queries[at[r]]]]
			}
		}
	}}
	if ix.visits != nil {
		visit = &Graph{K: ix.probe, Idx: make([]int32, len(queries)*ix.probe), Dist: make([]float32, len(queries)*ix.probe)}
		for r, m := range at {
			p := int(ix.pos[queries[m]])
			copy(visit.Idx[r*ix.probe:(r+1)*ix.probe], ix.visits.Idx[p*ix.probe:])
			copy(visit.Dist[r*ix.probe:(r+1)*ix.probe], ix.visits.Dist[p*ix.probe:])
		}
	}
	return q, func(r int) int32 { return int32(queries[at[r]]) }, visit
}
