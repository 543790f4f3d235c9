package activelearn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// nc is the generated samples' number of classes.
const nc = 10

// agreeing returns n rows of 10-class probabilities whose raw confidences are not their
// accuracy (a model right with probability σ(8·(raw − 0.65)) for raw confidence raw: too
// sure of itself), whether each is right, and the votes of 3 networks for its most probable
// class: all 3 when it is right; when it is wrong, one of them, a different one each time,
// errs with it (networks that learnt the same labels err together): 2 votes against of 3,
// which agreementKappa (1.5) reads as wrong.
func agreeing(rng *rand.Rand, n int) ([]float32, []bool, []uint8) {
	p := make([]float32, nc*n)
	right := make([]bool, n)
	agree := make([]uint8, n)
	for i := range n {
		top := 0.3 + 0.7*rng.Float64()
		b := rng.IntN(nc)
		for c := range nc {
			p[nc*i+c] = float32((1 - top) / (nc - 1))
		}
		p[nc*i+b] = float32(top)
		right[i] = rng.Float64() < 1/(1+math.Exp(-8*(top-0.65)))
		agree[i] = 1
		if right[i] {
			agree[i] = 3
		}
	}
	return p, right, agree
}

// eceOf returns the expected calibration error (10 bins) of the most probable classes of the
// rows of p keep accepts, right telling which are right.
func eceOf(p []float32, right []bool, keep func(conf float32) bool) (e float64, m int) {
	var bins [10][3]float64
	for i, r := range right {
		row := p[nc*i : nc*i+nc]
		c := row[argmax(row)]
		if !keep(c) {
			continue
		}
		b := min(9, int(c*10))
		bins[b][0]++
		bins[b][1] += float64(c)
		if r {
			bins[b][2]++
		}
		m++
	}
	for _, b := range bins {
		e += math.Abs(b[1]-b[2]) / float64(max(m, 1))
	}
	return e, m
}

// TestAgreementCalibratesTheRest: fitted to the votes on 20,000 generated samples without
// typed labels, the map makes them calibrated, and above all the part below 0.95 that an
// accept leaves (ECE from above 0.1 to at most 0.03 on the rest, at most 0.02 on all); typed
// samples (not fitted) are calibrated by the same map; the most probable class never
// changes, rows still sum to 1, and a higher raw confidence never gets a lower one.
func TestAgreementCalibratesTheRest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n = 20000
	p, right, agree := agreeing(rng, n)
	fit := make([]bool, n)
	for i := range fit {
		fit[i] = i%10 != 0 // every tenth typed: not fitted to
	}
	all := func(float32) bool { return true }
	rest := func(c float32) bool { return c < 0.95 }
	beforeRest, _ := eceOf(p, right, rest)
	m := fitAgreement(p, nc, agree, 3, fit)
	q := append([]float32(nil), p...)
	m.apply(q, nc)
	afterAll, _ := eceOf(q, right, all)
	afterRest, left := eceOf(q, right, rest)
	t.Logf("ECE of the part below 0.95: %.3f → %.3f (%d left); of all: %.3f", beforeRest, afterRest, left, afterAll)
	if beforeRest < 0.1 || afterRest > 0.03 || afterAll > 0.02 || left < 1000 {
		t.Errorf("ECE below 0.95 %.3f before, %.3f after (%d samples), all %.3f after; want above 0.1, then at most 0.03 (of at least 1,000), 0.02", beforeRest, afterRest, left, afterAll)
	}
	typedRight := make([]bool, 0, n/10)
	var typed []float32
	for i := 0; i < n; i += 10 {
		typed = append(typed, q[nc*i:nc*i+nc]...)
		typedRight = append(typedRight, right[i])
	}
	if e, _ := eceOf(typed, typedRight, all); e > 0.05 {
		t.Errorf("the samples not fitted to: ECE %.3f, want at most 0.05", e)
	}
	for i := range n {
		var sum float32
		for j := range nc {
			sum += q[nc*i+j]
		}
		if argmax(p[nc*i:nc*i+nc]) != argmax(q[nc*i:nc*i+nc]) || math.Abs(float64(sum-1)) > 1e-5 {
			t.Fatalf("row %d: %v became %v", i, p[nc*i:nc*i+nc], q[nc*i:nc*i+nc])
		}
	}
	for k := 1; k < len(m.conf); k++ {
		if m.conf[k] < m.conf[k-1] || m.raw[k] < m.raw[k-1] {
			t.Fatalf("the map falls at %d: raw %v → %v, confidence %v → %v", k, m.raw[k-1], m.raw[k], m.conf[k-1], m.conf[k])
		}
	}
	if fitAgreement(p, nc, agree, 3, make([]bool, n)) != nil {
		t.Error("nothing to fit to: a map")
	}
}

// TestNonIncreasing: pool-adjacent-violators gives the closest non-increasing sequence.
func TestNonIncreasing(t *testing.T) {
	got := nonIncreasing([]float64{1, 0, 0.5, 0.5, 0, 1, 0})
	want := []float64{1, 0.4, 0.4, 0.4, 0.4, 0.4, 0}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("%v, want %v", got, want)
		}
	}
}
