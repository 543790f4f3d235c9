package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// TestClassMassUndoesALabelsPull: two equal classes as two touching Gaussian clouds in 2-D
// (300 points each), class 0 with 20 typed labels spread over its cloud, class 1 with 2 at
// its far side: label spreading lets class 0 reach into class 1's cloud, and normalising the
// spread scores' class masses to the classes' true sizes gets more of class 1 right (and more
// samples in all); every row sums to 1.
func TestClassMassUndoesALabelsPull(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const per, classes = 300, 2
	n := classes * per
	v := nn.Vectors{Data: make([]float32, n*2), N: n, Dim: 2}
	truth := make([]int, n)
	for i := range n {
		c := i / per
		truth[i] = c
		v.Data[2*i] = float32(rng.NormFloat64() + 2.2*float64(c))
		v.Data[2*i+1] = float32(rng.NormFloat64())
	}
	cls := make([]int, n)
	for i := range cls {
		cls[i] = -1
	}
	for i := 0; i < per; i += per / 20 {
		cls[i] = 0
	}
	typed1 := 0
	for i := per; i < n && typed1 < 2; i++ {
		if v.Data[2*i] > 4 { // class 1's far side
			cls[i] = 1
			typed1++
		}
	}
	g, err := nn.Among(context.Background(), v, nil, 10, nn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := spreadScores(context.Background(), g, cls, classes)
	if err != nil {
		t.Fatal(err)
	}
	f := slices.Clone(raw)
	normalizeRows(f, classes)
	wrongOf := func(f []float32) (all, ones int) {
		for i := range n {
			if cls[i] < 0 && argmax(f[i*classes:(i+1)*classes]) != truth[i] {
				all++
				if truth[i] == 1 {
					ones++
				}
			}
		}
		return all, ones
	}
	before, before1 := wrongOf(f)
	m := slices.Clone(raw)
	classMass(m, []float64{per, per}, classes)
	after, after1 := wrongOf(m)
	t.Logf("wrong: %d (%d of class 1) spread, %d (%d) normalised to the classes' masses", before, before1, after, after1)
	if before1 < 20 {
		t.Fatalf("the generated case does not pull: only %d of class 1 wrong by spreading", before1)
	}
	if after >= before || after1 >= before1 {
		t.Errorf("normalised to the classes' masses, %d wrong (%d of class 1), where spreading left %d (%d)", after, after1, before, before1)
	}
	for i := range n {
		s := 0.0
		for _, x := range m[i*classes : (i+1)*classes] {
			s += float64(x)
		}
		if math.Abs(s-1) > 1e-5 {
			t.Fatalf("row %d sums to %v", i, s)
		}
	}
}

// TestNetworkMass: a class's mass is its samples by the network, at least its typed labels and
// at least 1; the blend without class mass is the old one to the bit (0.7 of the spread scores'
// rows normalised, 0.3 of the network), and with it the rows still sum to 1.
func TestNetworkMass(t *testing.T) {
	probs := []float32{
		0.9, 0.1, 0, // class 0
		0.8, 0.2, 0, // class 0
		0.3, 0.6, 0.1, // class 1
		0.5, 0.4, 0.1, // class 0
	}
	cls := []int{-1, 1, 1, 1} // class 1 typed three times, class 2 never predicted
	got := networkMass(probs, cls, 3)
	if want := []float64{3, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("networkMass = %v, want %v", got, want)
	}
	if massNormalised(cls, 3) || !massNormalised([]int{0, 1, 2, 0, 1, 2, -1}, 3) {
		t.Errorf("massNormalised: 3 typed labels of 3 classes %v, 6 %v; want false, true", massNormalised(cls, 3), massNormalised([]int{0, 1, 2, 0, 1, 2, -1}, 3))
	}
	f := []float32{0.5, 0.5, 0, 0.1, 0.35, 0.05, 0.1, 0.8, 0.1, 0.3, 0, 0} // spread scores
	plain := slices.Clone(f)
	refinedBlend(plain, probs, cls, 3, false)
	rows := slices.Clone(f)
	normalizeRows(rows, 3)
	for i := range f {
		if want := float32(0.7*float64(rows[i]) + 0.3*float64(probs[i])); plain[i] != want {
			t.Fatalf("value %d blended without class mass: %v, want %v", i, plain[i], want)
		}
	}
	mass := slices.Clone(f)
	refinedBlend(mass, probs, cls, 3, true)
	for i := range 4 {
		s := 0.0
		for _, x := range mass[i*3 : (i+1)*3] {
			s += float64(x)
		}
		if math.Abs(s-1) > 1e-6 {
			t.Errorf("row %d blended with class mass sums to %v", i, s)
		}
	}
	if slices.Equal(mass, plain) {
		t.Error("class-mass normalisation changed nothing where the spreading's masses are not the network's (3, 3, 1)")
	}
}
