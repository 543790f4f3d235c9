package embed

import (
	"context"
	"errors"
	"math"
	"testing"

	"idxlabel/suspect/nn"
)

// TestSmoothKNN checks ρ (the nearest positive distance) and that σ makes the memberships sum
// to the target.
func TestSmoothKNN(t *testing.T) {
	d := []float64{0, 1, 1.5, 2, 4}
	target := math.Log2(6)
	rho, sigma := smoothKNN(d, target)
	if rho != 1 {
		t.Errorf("ρ = %v, want 1 (the nearest positive distance)", rho)
	}
	sum := 0.0
	for _, x := range d {
		sum += math.Exp(-max(0, x-rho) / sigma)
	}
	if math.Abs(sum-target) > 1e-4 {
		t.Errorf("memberships sum to %v, want %v", sum, target)
	}
}

// TestSymmetrize checks the fuzzy union on a hand-made graph of three points: 0 lists 1 and 2,
// 1 lists 0, 2 lists 1 (K = 2, one padded slot each for 1 and 2).
func TestSymmetrize(t *testing.T) {
	g := &nn.Graph{K: 2, Idx: []int32{1, 2, 0, -1, 1, -1}, Dist: make([]float32, 6)}
	w := []float32{0.5, 0.25, 0.8, 0, 1, 0}
	f := symmetrize(g, w)
	want := map[[2]int32]float32{
		{0, 1}: 0.5 + 0.8 - 0.5*0.8, {1, 0}: 0.5 + 0.8 - 0.5*0.8,
		{0, 2}: 0.25, {2, 0}: 0.25,
		{1, 2}: 1, {2, 1}: 1,
	}
	got := map[[2]int32]float32{}
	for i := range 3 {
		for e := f.start[i]; e < f.start[i+1]; e++ {
			got[[2]int32{int32(i), f.to[e]}] = f.w[e]
		}
	}
	if len(got) != len(want) || f.start[3] != len(want) {
		t.Fatalf("edges %v, want %v", got, want)
	}
	for e, x := range want {
		if math.Abs(float64(got[e]-x)) > 1e-6 {
			t.Errorf("edge %v weighs %v, want %v", e, got[e], x)
		}
	}
}

// TestPlace checks the weighted mean: two neighbours at equal distance put a point half way,
// a nearer one pulls it closer, and a row of padding only gives NaN.
func TestPlace(t *testing.T) {
	placed := []float32{0, 0, 10, 0, 0, 10}
	g := &nn.Graph{K: 2, Idx: []int32{0, 1, 2, 1, -1, -1}, Dist: []float32{4, 4, 1, 9, 0, 0}}
	at, err := Place(context.Background(), placed, g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if at[0] != 5 || at[1] != 0 {
		t.Errorf("equal distances: (%v, %v), want (5, 0)", at[0], at[1])
	}
	// Row 1: nearest point 2 at (0, 10) gets membership 1, point 1 less.
	if !(at[3] > 5 && at[2] < 5) {
		t.Errorf("nearer neighbour at (0, 10): placed at (%v, %v)", at[2], at[3])
	}
	if !math.IsNaN(float64(at[4])) || !math.IsNaN(float64(at[5])) {
		t.Errorf("no neighbours: (%v, %v), want NaN", at[4], at[5])
	}
	if _, err := Place(context.Background(), placed[:4], g, 1); !errors.Is(err, ErrShape) {
		t.Errorf("neighbour 2 of 2 placed points: %v, want ErrShape", err)
	}
}

// TestNeighbourAgreement checks the metric on points on a line: four at 0, 1, 10, 11.
func TestNeighbourAgreement(t *testing.T) {
	ctx := context.Background()
	xy := []float32{0, 0, 1, 0, 10, 0, 11, 0}
	for _, c := range []struct {
		labels  []int
		k       int
		queries []int
		want    float64
	}{
		{[]int{1, 1, 2, 2}, 1, nil, 1},
		{[]int{1, 2, 1, 2}, 1, nil, 0},
		{[]int{1, 1, 2, 2}, 2, nil, 0.5}, // each point's second neighbour is across the gap
		{[]int{1, 1, 1, 2}, 1, []int{2, 0}, 0.5},
	} {
		got, err := NeighbourAgreement(ctx, xy, c.labels, c.k, c.queries, 1)
		if err != nil || got != c.want {
			t.Errorf("labels %v, k %d, queries %v: %v, %v; want %v", c.labels, c.k, c.queries, got, err, c.want)
		}
	}
	if _, err := NeighbourAgreement(ctx, xy, []int{1, 2, 3}, 1, nil, 1); !errors.Is(err, ErrShape) {
		t.Errorf("8 coordinates for 3 labels: %v", err)
	}
	if _, err := NeighbourAgreement(ctx, xy, []int{1, 2, 3, 4}, 1, []int{4}, 1); !errors.Is(err, ErrShape) {
		t.Errorf("query 4 of 4: %v", err)
	}
}

// TestProject checks that points spread along one direction in 3-D come out along the first
// axis, in order, and with their spread.
func TestProject(t *testing.T) {
	v := nn.Vectors{N: 5, Dim: 3}
	for i := range 5 {
		s := float32(i - 2)
		v.Data = append(v.Data, 2*s, s, 0.01*float32(i%2))
	}
	xy, err := Project(v)
	if err != nil {
		t.Fatal(err)
	}
	sign := float32(1)
	if xy[0] > 0 {
		sign = -1
	}
	for i := range 5 {
		want := float32(i-2) * float32(math.Sqrt(5))
		if math.Abs(float64(sign*xy[2*i]-want)) > 1e-3 || math.Abs(float64(xy[2*i+1])) > 0.02 {
			t.Errorf("point %d at (%v, %v), want (±%v, ~0)", i, xy[2*i], xy[2*i+1], want)
		}
	}
}
