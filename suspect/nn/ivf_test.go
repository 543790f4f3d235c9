package nn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// clustered returns n points of dim values (drawn with seed) around 200 random centres (drawn
// with centreSeed; σ 0.3 around centres of σ 1), the shape of real features: dense groups, not
// uniform noise.
func clustered(centreSeed, seed uint64, n, dim int) Vectors {
	rng := rand.New(rand.NewPCG(seed, 3))
	centres := randomVectors(centreSeed, 200, dim)
	v := Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	for i := range n {
		c := rng.IntN(centres.N)
		for k := range dim {
			v.Data[i*dim+k] = centres.Data[c*dim+k] + float32(0.3*rng.NormFloat64())
		}
	}
	return v
}

// recall returns the share of exact's neighbours that approx also found, row by row.
func recall(exact, approx *Graph) float64 {
	found, total := 0, 0
	for q := range exact.Rows() {
		want, _ := exact.Of(q)
		got, _ := approx.Of(q)
		for _, j := range want {
			if j >= 0 {
				total++
				if slices.Contains(got, j) {
					found++
				}
			}
		}
	}
	return float64(found) / float64(total)
}

// TestIndexExactBelowLimit: below ExactBelow points the index is exact: the same neighbours and
// distances as Among, whose results TestAmongIsExact checks against a plain loop.
func TestIndexExactBelowLimit(t *testing.T) {
	ctx := context.Background()
	v := randomVectors(4, 1500, 24)
	ix, err := NewIndex(ctx, v, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Exact() || ix.Cells() != 1 || ix.Len() != v.N {
		t.Fatalf("index of %d points: %d cells, exact %v", v.N, ix.Cells(), ix.Exact())
	}
	want, _ := Among(ctx, v, nil, 6, Options{})
	got, err := ix.Among(ctx, nil, 6, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for q := range v.N {
		wi, wd := want.Of(q)
		gi, gd := got.Of(q)
		for m := range 6 {
			if gi[m] == int32(q) {
				t.Fatalf("point %d is its own neighbour", q)
			}
			if diff := gd[m] - wd[m]; diff > 1e-3*(1+wd[m]) || -diff > 1e-3*(1+wd[m]) {
				t.Fatalf("point %d: index %v %v, exact %v %v", q, gi, gd, wi, wd)
			}
		}
	}
}

// TestIndexRecall builds a 60-cell index of clustered points and checks its recall of the 10
// nearest against the exact search (Among and Across), that visiting every cell is exact, and
// that the result does not depend on the workers.
func TestIndexRecall(t *testing.T) {
	ctx := context.Background()
	v := clustered(1, 1, 6000, 32)
	ix, err := NewIndex(ctx, v, IndexOptions{Cells: 60, Probe: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Exact() || ix.Cells() != 60 {
		t.Fatalf("%d cells, exact %v", ix.Cells(), ix.Exact())
	}
	queries := make([]int, 0, 600)
	for i := 0; i < v.N; i += 10 {
		queries = append(queries, i)
	}
	exact, _ := Among(ctx, v, queries, 10, Options{})
	one, err := ix.Among(ctx, queries, 10, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	three, _ := ix.Among(ctx, queries, 10, Options{Workers: 3})
	if !slices.Equal(one.Idx, three.Idx) || !slices.Equal(one.Dist, three.Dist) {
		t.Fatal("1 and 3 workers found different neighbours")
	}
	if r := recall(exact, one); r < 0.95 {
		t.Errorf("Among: recall %.3f of the 10 nearest, want ≥ 0.95", r)
	} else {
		t.Logf("Among: recall %.3f of the 10 nearest with 6 of 60 cells", r)
	}
	for q, p := range queries {
		if idx, _ := one.Of(q); slices.Contains(idx, int32(p)) {
			t.Fatalf("point %d is its own neighbour", p)
		}
	}
	qs := clustered(1, 2, 300, 32) // the same centres, other points
	exactX, _ := Across(ctx, v, qs, 10, Options{})
	approxX, err := ix.Across(ctx, qs, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := recall(exactX, approxX); r < 0.95 {
		t.Errorf("Across: recall %.3f, want ≥ 0.95", r)
	}
	all, _ := NewIndex(ctx, v, IndexOptions{Cells: 60, Probe: 60})
	if !all.Exact() {
		t.Fatal("visiting every cell is not exact")
	}
	full, _ := all.Among(ctx, queries, 10, Options{})
	if r := recall(exact, full); r != 1 {
		t.Fatalf("visiting every cell: recall %v", r)
	}
}

// TestIndexTiesAndErrors: exact copies are ordered by point number whatever the cells; bad
// shapes are ErrShape; a cancelled build or search stops.
func TestIndexTiesAndErrors(t *testing.T) {
	ctx := context.Background()
	v := clustered(2, 2, 3000, 8)
	// Points 10, 20, 30 and 2999 are the same point.
	for _, i := range []int{20, 30, 2999} {
		copy(v.Data[i*8:(i+1)*8], v.Data[10*8:11*8])
	}
	ix, err := NewIndex(ctx, v, IndexOptions{Cells: 40, Probe: 4})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := ix.Among(ctx, []int{2999, 10}, 3, Options{})
	if idx, _ := g.Of(0); !slices.Equal(idx, []int32{10, 20, 30}) {
		t.Errorf("copies of point 2999: %v, want [10 20 30]", idx)
	}
	if idx, _ := g.Of(1); !slices.Equal(idx, []int32{20, 30, 2999}) {
		t.Errorf("copies of point 10: %v, want [20 30 2999]", idx)
	}
	for _, bad := range []func() error{
		func() error { _, err := ix.Among(ctx, []int{3000}, 1, Options{}); return err },
		func() error { _, err := ix.Among(ctx, nil, 0, Options{}); return err },
		func() error { _, err := ix.Across(ctx, randomVectors(1, 2, 5), 1, Options{}); return err },
		func() error { _, err := NewIndex(ctx, Vectors{Dim: 3}, IndexOptions{}); return err },
	} {
		if err := bad(); !errors.Is(err, ErrShape) {
			t.Fatalf("got %v, want ErrShape", err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewIndex(cancelled, v, IndexOptions{Cells: 40}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v", err)
	}
	if _, err := ix.Among(cancelled, nil, 3, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: %v", err)
	}
}

// TestIndexCosine: with Cosine, points are compared by angle: a point scaled by any factor is
// its original's nearest neighbour at distance 0, and distances are 2 − 2·cos.
func TestIndexCosine(t *testing.T) {
	ctx := context.Background()
	v := clustered(3, 3, 2000, 16)
	for k := range 16 {
		v.Data[1999*16+k] = 7 * v.Data[5*16+k]
	}
	for _, cells := range []int{1, 20} {
		ix, err := NewIndex(ctx, v, IndexOptions{Cells: cells, Probe: 4, Cosine: true})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := ix.Among(ctx, []int{5, 1999}, 2, Options{})
		if idx, dist := g.Of(0); idx[0] != 1999 || dist[0] > 1e-5 {
			t.Errorf("%d cells: point 5's neighbours %v at %v, want 1999 at 0", cells, idx, dist)
		}
		x, _ := ix.Across(ctx, Vectors{Data: slices.Clone(v.Data[7*16 : 8*16]), N: 1, Dim: 16}, 1, Options{})
		if idx, dist := x.Of(0); idx[0] != 7 || dist[0] > 1e-5 {
			t.Errorf("%d cells: a copy of point 7 finds %v at %v", cells, idx, dist)
		}
		// An orthogonal point lies at 2, a point of length 0 (kept at the origin) at 1.
		w := Vectors{Data: []float32{3, 0, 0, 5, 0, 0}, N: 3, Dim: 2}
		wi, _ := NewIndex(ctx, w, IndexOptions{Cosine: true})
		g2, _ := wi.Among(ctx, []int{0}, 2, Options{})
		if idx, dist := g2.Of(0); idx[0] != 2 || math.Abs(float64(dist[0])-1) > 1e-6 || idx[1] != 1 || math.Abs(float64(dist[1])-2) > 1e-6 {
			t.Errorf("orthogonal and zero points: %v %v", idx, dist)
		}
	}
	if v.Data[1999*16] != 7*v.Data[5*16] {
		t.Fatal("the index changed the caller's points")
	}
}

// A flood of identical points (a dataset of blank images, or of 1×1 images: a 200-byte .gz can
// hold 100,000) all fall in one cell. Every query used to compare with the whole cell, O(N²):
// 100,000 identical 1×1 images took the outlier check 149 s. A block of queries that each hold
// k neighbours at distance 0 numbered below the rest of the cell now stops there; the result is
// the same (the copies with the lowest numbers), with about one column block per row block.
// The search in the tests counts its column blocks (blocks).
func TestIndexIdenticalPointsStopEarly(t *testing.T) {
	ctx := context.Background()
	const n, dim, k = 25000, 4, 10
	v := Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	for i := range v.Data {
		v.Data[i] = 0.5
	}
	copy(v.Data[(n-1)*dim:], []float32{9, 9, 9, 9}) // one point apart
	ix, err := NewIndex(ctx, v, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := blocks.Load()
	g, err := ix.Among(ctx, nil, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if used, most := blocks.Load()-before, int64(4*n/64); used > most {
		t.Errorf("%d column blocks compared for %d identical points, want at most %d", used, n, most)
	}
	for _, q := range []int{0, 5, n - 2} {
		idx, dist := g.Of(q)
		var want []int32
		for j := int32(0); len(want) < k; j++ {
			if int(j) != q {
				want = append(want, j)
			}
		}
		if !slices.Equal(idx, want) || dist[k-1] != 0 {
			t.Errorf("point %d: %v %v, want %v at 0", q, idx, dist, want)
		}
	}
	if idx, dist := g.Of(n - 1); dist[0] == 0 || !slices.Equal(idx, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("the point apart: %v %v", idx, dist)
	}
}

// BenchmarkAmong200k: every point's 10 nearest among 200,000 clustered points of 128 values
// (the CNN features' width), the index built once.
func BenchmarkAmong200k(b *testing.B) {
	v := clustered(1, 2, 200000, 128)
	ix, err := NewIndex(context.Background(), v, IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := ix.Among(context.Background(), nil, 10, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAmongReusesTheBuildsCells: Among on an index's own points visits the cells the build
// found for them and reads the points from the index's copy, and finds exactly what a search
// of the points as given, looking the cells up again, finds (all points and a subset,
// Euclidean and cosine, with groups).
func TestAmongReusesTheBuildsCells(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	ctx := context.Background()
	v := clustered(8, 9, 30000, 24)
	groups := make([]int32, v.N)
	for i := range groups {
		groups[i] = int32(i / 3)
	}
	for _, cosine := range []bool{false, true} {
		ix, err := NewIndex(ctx, v, IndexOptions{Cosine: cosine})
		if err != nil {
			t.Fatal(err)
		}
		if ix.Cells() == 1 || ix.visits == nil {
			t.Fatalf("cosine %v: %d cells, visits kept: %v", cosine, ix.Cells(), ix.visits != nil)
		}
		for _, queries := range [][]int{nil, {29999, 7, 7, 12000, 0}} {
			opts := Options{Groups: groups}
			got, err := ix.Among(ctx, queries, 6, opts)
			if err != nil {
				t.Fatal(err)
			}
			self := func(r int) int32 { return int32(r) }
			if queries != nil {
				self = func(r int) int32 { return int32(queries[r]) }
			}
			want, err := ix.search(ctx, vectorRows(v, queries, cosine), self, 6, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Dist, want.Dist) {
				t.Fatalf("cosine %v, queries %v: the kept cells give another graph", cosine, queries)
			}
		}
	}
}

// TestIndexKeepsNoPoints: an index answers from its own copy: the points given may change (or
// go) once NewIndex returns, and Among finds what it found before (an IVF index and an exact one).
func TestIndexKeepsNoPoints(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{25000, 500} {
		v := clustered(10, 11, n, 16)
		ix, err := NewIndex(ctx, v, IndexOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before, err := ix.Among(ctx, nil, 5, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range v.Data {
			v.Data[i] = float32(i % 7)
		}
		after, err := ix.Among(ctx, nil, 5, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(before.Idx, after.Idx) || !slices.Equal(before.Dist, after.Dist) {
			t.Fatalf("%d points: the index read the points it was given after it was built", n)
		}
	}
}

// TestBalancedCells: the default cells minimize the distances counted (filing, k-means and an
// Among of every point) among all nearby numbers, and are fewer than √(8·N).
func TestBalancedCells(t *testing.T) {
	cost := func(n, c int) float64 {
		return float64(n)*float64(c) + 8*32*float64(c)*float64(c) + 8*float64(n)*float64(n)/float64(c)
	}
	for _, n := range []int{20000, 60000, 453000, 1000000, 10000000} {
		c := balancedCells(n, 8, 8, 0)
		for _, d := range []int{-20, -1, 1, 20} {
			if cost(n, c+d) < cost(n, c) {
				t.Fatalf("%d points: %d cells cost %g, %d cost %g", n, c, cost(n, c), c+d, cost(n, c+d))
			}
		}
		if float64(c) >= math.Sqrt(8*float64(n)) {
			t.Fatalf("%d points: %d cells, not fewer than √(8N)", n, c)
		}
		t.Logf("%d points: %d cells", n, c)
	}
}

// TestSkipKeepsTheResult: skipping the cells no point of which can enter a query's list (skip)
// changes no neighbour and no distance, for Among and Across, Euclidean and cosine, on
// clustered points with near-copies (lists of tiny distances, the case where most cells are
// skipped), and it does skip: fewer blocks are multiplied.
func TestSkipKeepsTheResult(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	ctx := context.Background()
	v := clustered(12, 13, 24000, 32)
	rng := rand.New(rand.NewPCG(14, 15))
	for i := 0; i+1 < v.N; i += 3 { // every third point a near-copy of the one before it
		for c := range v.Dim {
			v.Data[(i+1)*v.Dim+c] = v.Data[i*v.Dim+c] + float32(1e-4*rng.NormFloat64())
		}
	}
	others := clustered(12, 16, 3000, 32)
	for _, cosine := range []bool{false, true} {
		ix, err := NewIndex(ctx, v, IndexOptions{Cosine: cosine})
		if err != nil {
			t.Fatal(err)
		}
		plain := *ix
		plain.centroids = nil // skips nothing
		for name, run := range map[string]func(ix *Index) (*Graph, error){
			"among":  func(ix *Index) (*Graph, error) { return ix.Among(ctx, nil, 10, Options{}) },
			"across": func(ix *Index) (*Graph, error) { return ix.Across(ctx, others, 10, Options{}) },
		} {
			b0 := blocks.Load()
			got, err := run(ix)
			if err != nil {
				t.Fatal(err)
			}
			b1 := blocks.Load()
			want, err := run(&plain)
			if err != nil {
				t.Fatal(err)
			}
			b2 := blocks.Load()
			if !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Dist, want.Dist) {
				t.Fatalf("cosine %v, %s: skipping cells changed the neighbours", cosine, name)
			}
			if name == "among" && b1-b0 >= b2-b1 {
				t.Fatalf("cosine %v, %s: %d blocks with skipping, %d without", cosine, name, b1-b0, b2-b1)
			}
			t.Logf("cosine %v, %s: %d blocks with skipping, %d without", cosine, name, b1-b0, b2-b1)
		}
	}
}
