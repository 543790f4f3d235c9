package embed

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// planted returns n points of dim values in c clusters: cluster k's centre is 6 along axis k
// (so every two centres are equally far apart and no plane holds more than three of them
// apart), each point its centre plus unit Gaussian noise; and each point's cluster.
func planted(seed uint64, n, c, dim int) (nn.Vectors, []int) {
	return plantedAt(seed, n, c, dim, 6)
}

// plantedAt is planted with the centres at off along their axes.
func plantedAt(seed uint64, n, c, dim int, off float64) (nn.Vectors, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	v := nn.Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	labels := make([]int, n)
	for i := range n {
		labels[i] = i % c
		for d := range dim {
			x := rng.NormFloat64()
			if d == labels[i] {
				x += off
			}
			v.Data[i*dim+d] = float32(x)
		}
	}
	return v, labels
}

// agreement is NeighbourAgreement with k = 10, failing t on error.
func agreement(t *testing.T, xy []float32, labels, queries []int) float64 {
	t.Helper()
	a, err := NeighbourAgreement(context.Background(), xy, labels, 10, queries, 0)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// mapAgreement lays v out with the default options and returns the map's agreement.
func mapAgreement(t *testing.T, v nn.Vectors, labels []int) float64 {
	t.Helper()
	xy, err := Map(context.Background(), v, MapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return agreement(t, xy, labels, nil)
}

// TestMapSeparatesPlantedClusters lays out ten planted clusters in 50 dimensions, which their
// 2-D principal axes cannot separate, and checks that each point's 10 nearest neighbours in
// the map share its cluster at least 95% of the time, while the principal axes stay below 60%.
func TestMapSeparatesPlantedClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	v, labels := planted(11, 2000, 10, 50)
	got := mapAgreement(t, v, labels)
	pca, err := Project(v)
	if err != nil {
		t.Fatal(err)
	}
	base := agreement(t, pca, labels, nil)
	t.Logf("10-neighbour agreement: map %.4f, principal axes %.4f", got, base)
	if got < 0.95 {
		t.Errorf("map: agreement %.4f, want at least 0.95", got)
	}
	if base > 0.6 {
		t.Errorf("principal axes: agreement %.4f; the planted clusters are too easy to test a layout", base)
	}
}

// TestMapKeepsOverlappingClusters plants ten clusters close enough that a tenth of each
// point's 10 nearest neighbours in 50 dimensions belong to other clusters, and checks that the
// map's neighbourhoods are at least as pure as the graph it was laid out from.
func TestMapKeepsOverlappingClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	v, labels := plantedAt(31, 3000, 10, 50, 4)
	ctx := context.Background()
	g, err := nn.Among(ctx, v, nil, 10, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := range v.N {
		idx, _ := g.Of(i)
		for _, j := range idx {
			if labels[j] == labels[i] {
				same++
			}
		}
	}
	high := float64(same) / float64(10*v.N)
	got := mapAgreement(t, v, labels)
	t.Logf("10-neighbour agreement: 50 dimensions %.4f, map %.4f", high, got)
	if high > 0.9 || got < high {
		t.Errorf("agreement %.4f in 50 dimensions (want below 0.9), %.4f in the map (want at least as much)", high, got)
	}
}

// TestMapPlacesBeyondThePool lays out a pool of a third of the points and places the rest by
// their neighbours: every point gets finite coordinates and the clusters still hold.
func TestMapPlacesBeyondThePool(t *testing.T) {
	v, labels := planted(12, 3000, 6, 30)
	ctx := context.Background()
	var last float64
	xy, err := Map(ctx, v, MapOptions{Pool: 1000, Options: Options{Progress: func(f float64) {
		if f < last || f > 1+1e-9 {
			t.Errorf("progress %v after %v", f, last)
		}
		last = f
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(last-1) > 1e-9 {
		t.Errorf("progress ended at %v", last)
	}
	for i, x := range xy {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("coordinate %d is %v", i, x)
		}
	}
	pool := poolOf(v.N, 1000, 1)
	rest := make([]int, 0, v.N)
	for i := range v.N {
		if _, in := slices.BinarySearch(pool, i); !in {
			rest = append(rest, i)
		}
	}
	got := agreement(t, xy, labels, rest)
	t.Logf("placed points: 10-neighbour agreement %.4f", got)
	if len(rest) != 2000 || got < 0.95 {
		t.Errorf("%d placed points, agreement %.4f; want 2000, at least 0.95", len(rest), got)
	}
}

// TestLayoutDeterministic checks that the workers do not change the layout and the seed does.
func TestLayoutDeterministic(t *testing.T) {
	v, _ := planted(13, 600, 4, 10)
	ctx := context.Background()
	g, err := nn.Among(ctx, v, nil, 15, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers int, seed uint64) []float32 {
		xy, err := Layout(ctx, g, nil, Options{Workers: workers, Seed: seed, Epochs: 50})
		if err != nil {
			t.Fatal(err)
		}
		return xy
	}
	a, b := run(1, 5), run(3, 5)
	if !slices.Equal(a, b) {
		t.Fatal("one seed, different layouts with 1 and 3 workers")
	}
	if slices.Equal(a, run(2, 6)) {
		t.Fatal("another seed, the same layout")
	}
}

// TestLayoutRefusesAndCancels checks the shape errors and that a cancelled layout stops.
func TestLayoutRefusesAndCancels(t *testing.T) {
	ctx := context.Background()
	g := &nn.Graph{K: 2, Idx: []int32{1, 2, 0, 2, 0, 3}, Dist: []float32{1, 2, 1, 2, 1, 2}}
	if _, err := Layout(ctx, g, nil, Options{}); !errors.Is(err, ErrShape) {
		t.Errorf("neighbour 3 of 3 points: %v, want ErrShape", err)
	}
	g.Idx[5] = 1
	g.Dist[5] = float32(math.NaN())
	if _, err := Layout(ctx, g, nil, Options{}); !errors.Is(err, ErrShape) {
		t.Errorf("a NaN distance: %v, want ErrShape", err)
	}
	g.Dist[5] = 2
	if _, err := Layout(ctx, g, make([]float32, 4), Options{}); !errors.Is(err, ErrShape) {
		t.Errorf("4 start coordinates for 3 points: %v, want ErrShape", err)
	}
	if _, err := Layout(ctx, nil, nil, Options{}); !errors.Is(err, ErrShape) {
		t.Errorf("no graph: %v, want ErrShape", err)
	}
	if _, err := Map(ctx, nn.Vectors{Data: make([]float32, 5), N: 2, Dim: 3}, MapOptions{}); !errors.Is(err, ErrShape) {
		t.Errorf("5 values for 2×3: %v, want ErrShape", err)
	}
	v, _ := planted(14, 500, 3, 8)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Map(cancelled, v, MapOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled map: %v", err)
	}
	big, err := nn.Among(ctx, v, nil, 10, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stop, cancel2 := context.WithCancel(ctx)
	defer cancel2()
	_, err = Layout(stop, big, nil, Options{Progress: func(f float64) {
		if f > 0.1 {
			cancel2()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("layout cancelled during its epochs: %v", err)
	}
}

// TestTinyInputs lays out no point, one point and two points.
func TestTinyInputs(t *testing.T) {
	ctx := context.Background()
	for n := range 3 {
		v := nn.Vectors{Data: make([]float32, 3*n), N: n, Dim: 3}
		for i := range v.Data {
			v.Data[i] = float32(i)
		}
		xy, err := Map(ctx, v, MapOptions{})
		if err != nil || len(xy) != 2*n {
			t.Fatalf("%d points: %d coordinates, %v", n, len(xy), err)
		}
		for _, x := range xy {
			if math.IsNaN(float64(x)) {
				t.Fatalf("%d points: NaN coordinate", n)
			}
		}
	}
}
