package nn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randomVectors(seed uint64, n, dim int) Vectors {
	rng := rand.New(rand.NewPCG(seed, 2))
	v := Vectors{Data: make([]float32, n*dim), N: n, Dim: dim}
	for i := range v.Data {
		v.Data[i] = float32(rng.NormFloat64())
	}
	return v
}

// bruteForce returns the k nearest points of base to point q (a plain double loop in float64),
// skipping index self.
func bruteForce(base Vectors, q []float32, self, k int) []float64 {
	var all []float64
	for j := range base.N {
		if j == self {
			continue
		}
		var d float64
		for c := range base.Dim {
			x := float64(q[c] - base.Data[j*base.Dim+c])
			d += x * x
		}
		all = append(all, d)
	}
	slices.Sort(all)
	return all[:min(k, len(all))]
}

// TestAmongIsExact compares the blocked search with a plain double loop on random vectors that
// span several blocks (and dimensions that are not a multiple of the kernels' widths).
func TestAmongIsExact(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	for _, dim := range []int{7, 50, 128} {
		v := randomVectors(uint64(dim), 1300, dim)
		const k = 5
		g, err := Among(context.Background(), v, nil, k, Options{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		for i := range v.N {
			want := bruteForce(v, v.Data[i*dim:(i+1)*dim], i, k)
			idx, dist := g.Of(i)
			for m := range k {
				if idx[m] == int32(i) {
					t.Fatalf("dim %d: point %d is its own neighbour", dim, i)
				}
				if math.Abs(float64(dist[m])-want[m]) > 1e-3*(1+want[m]) {
					t.Fatalf("dim %d: point %d neighbour %d: distance %v, want %v", dim, i, m, dist[m], want[m])
				}
			}
		}
	}
}

// TestAmongSubsetAndAcross checks a query subset against the same rows of a full search, and a
// search across two sets against brute force; and that the workers do not change the result.
func TestAmongSubsetAndAcross(t *testing.T) {
	v := randomVectors(1, 700, 20)
	ctx := context.Background()
	all, err := Among(ctx, v, nil, 4, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	queries := []int{699, 3, 350, 0}
	sub, err := Among(ctx, v, queries, 4, Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for r, q := range queries {
		ai, ad := all.Of(q)
		si, sd := sub.Of(r)
		if !slices.Equal(ai, si) || !slices.Equal(ad, sd) {
			t.Fatalf("query %d: subset row %v %v, full row %v %v", q, si, sd, ai, ad)
		}
	}
	qs := randomVectors(9, 90, 20)
	x, err := Across(ctx, v, qs, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for q := range qs.N {
		want := bruteForce(v, qs.Data[q*20:(q+1)*20], -1, 3)
		_, dist := x.Of(q)
		for m := range 3 {
			if math.Abs(float64(dist[m])-want[m]) > 1e-3*(1+want[m]) {
				t.Fatalf("query %d neighbour %d: %v, want %v", q, m, dist[m], want[m])
			}
		}
	}
}

// TestPaddingAndErrors: fewer candidates than k pad with -1/+Inf; bad shapes are ErrShape.
func TestPaddingAndErrors(t *testing.T) {
	v := randomVectors(3, 3, 4)
	g, err := Among(context.Background(), v, nil, 5, Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, dist := g.Of(0)
	if idx[1] < 0 || idx[2] != -1 || !math.IsInf(float64(dist[4]), 1) {
		t.Fatalf("row 0 = %v %v, want 2 neighbours then padding", idx, dist)
	}
	for _, bad := range []func() error{
		func() error { _, err := Among(context.Background(), v, []int{3}, 1, Options{}); return err },
		func() error { _, err := Among(context.Background(), v, nil, 0, Options{}); return err },
		func() error {
			_, err := Among(context.Background(), Vectors{Data: make([]float32, 5), N: 2, Dim: 3}, nil, 1, Options{})
			return err
		},
		func() error {
			_, err := Across(context.Background(), v, randomVectors(1, 2, 5), 1, Options{})
			return err
		},
	} {
		if err := bad(); !errors.Is(err, ErrShape) {
			t.Fatalf("got %v, want ErrShape", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Among(ctx, randomVectors(1, 200, 8), nil, 2, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: %v", err)
	}
}

// TestAmongGroups: with Groups a query's neighbours leave out its own group, in the exact
// search and in the index's.
func TestAmongGroups(t *testing.T) {
	// Points on a line at 0, 1, 2, …; points 0–3 are one group, the rest each their own: point 0's
	// nearest are then 4, 5, 6, and point 5 keeps 4 (of another group than its own).
	n := 30000
	v := Vectors{Data: make([]float32, n*2), N: n, Dim: 2}
	groups := make([]int32, n)
	for i := range n {
		v.Data[2*i] = float32(i)
		groups[i] = int32(i)
	}
	for i := range 4 {
		groups[i] = 0
	}
	ctx := context.Background()
	check := func(name string, g *Graph) {
		idx, _ := g.Of(0)
		if slices.ContainsFunc(idx, func(j int32) bool { return j < 4 }) || !slices.Contains(idx, 4) {
			t.Errorf("%s: point 0's neighbours %v include its group or miss point 4", name, idx)
		}
		if idx, _ := g.Of(5); !slices.Contains(idx, 4) || !slices.Contains(idx, 6) {
			t.Errorf("%s: point 5's neighbours %v", name, idx)
		}
	}
	g, err := Among(ctx, Vectors{Data: v.Data[:2000*2], N: 2000, Dim: 2}, nil, 3, Options{Groups: groups[:2000]})
	if err != nil {
		t.Fatal(err)
	}
	check("exact", g)
	ix, err := NewIndex(ctx, v, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = ix.Among(ctx, nil, 3, Options{Groups: groups}); err != nil {
		t.Fatal(err)
	}
	check("index", g)
	if _, err := ix.Among(ctx, nil, 3, Options{Groups: groups[:5]}); err == nil {
		t.Error("5 groups for 30,000 points accepted")
	}
}
