package activelearn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// nc is the generated samples' number of classes.
const nc = 10

// agreeing returns n rows of 10-class probabilities whose raw confidences are not their
// accuracy, and the votes of 4 networks for each row's most probable class, made so that the
// calibration by agreement with factor kappa holds: each network votes against a row of raw
// confidence raw with probability (1 − σ(12·(raw − 0.6)))/kappa (at most 1: the raw
// confidence says too little of the chance of being wrong), and a row with a votes against is
// wrong with probability min(1, kappa·a/4). Whether each row is right comes back too.
func agreeing(rng *rand.Rand, n int, kappa float64) ([]float32, []bool, []uint8) {
	const votes = 4
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
		q := min(1, (1-1/(1+math.Exp(-12*(top-0.6))))/kappa)
		against := 0
		for range votes {
			if rng.Float64() < q {
				against++
			}
		}
		agree[i] = uint8(votes - against)
		right[i] = rng.Float64() >= min(1, kappa*float64(against)/votes)
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
// typed labels, with the factor the votes were made with (that of one pass, and of two), the
// map makes them calibrated, and above all the part below 0.95 that an accept leaves (ECE
// from above 0.1 to at most 0.03 on the rest, at most 0.02 on all); typed samples (not
// fitted) are calibrated by the same map; the most probable class never changes, rows still
// sum to 1, and a higher raw confidence never gets a lower one. Fitted with the other factor,
// the rest is not calibrated (ECE above 0.03): the factor matters.
func TestAgreementCalibratesTheRest(t *testing.T) {
	for _, c := range []struct{ kappa, wrong float64 }{{kappaOnePass, kappaTwoPass}, {kappaTwoPass, kappaOnePass}} {
		rng := rand.New(rand.NewPCG(3, 3))
		const n = 20000
		p, right, agree := agreeing(rng, n, c.kappa)
		fit := make([]bool, n)
		for i := range fit {
			fit[i] = i%10 != 0 // every tenth typed: not fitted to
		}
		all := func(float32) bool { return true }
		rest := func(c float32) bool { return c < 0.95 }
		beforeRest, _ := eceOf(p, right, rest)
		m := fitAgreement(p, nc, agree, 4, fit, c.kappa)
		q := append([]float32(nil), p...)
		m.apply(q, nc)
		afterAll, _ := eceOf(q, right, all)
		afterRest, left := eceOf(q, right, rest)
		t.Logf("kappa %.2f: ECE of the part below 0.95: %.3f → %.3f (%d left); of all: %.3f", c.kappa, beforeRest, afterRest, left, afterAll)
		if beforeRest < 0.1 || afterRest > 0.03 || afterAll > 0.02 || left < 1000 {
			t.Errorf("kappa %.2f: ECE below 0.95 %.3f before, %.3f after (%d samples), all %.3f after; want above 0.1, then at most 0.03 (of at least 1,000), 0.02", c.kappa, beforeRest, afterRest, left, afterAll)
		}
		typedRight := make([]bool, 0, n/10)
		var typed []float32
		for i := 0; i < n; i += 10 {
			typed = append(typed, q[nc*i:nc*i+nc]...)
			typedRight = append(typedRight, right[i])
		}
		if e, _ := eceOf(typed, typedRight, all); e > 0.05 {
			t.Errorf("kappa %.2f: the samples not fitted to: ECE %.3f, want at most 0.05", c.kappa, e)
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
		other := append([]float32(nil), p...)
		fitAgreement(p, nc, agree, 4, fit, c.wrong).apply(other, nc)
		e, _ := eceOf(other, right, rest)
		t.Logf("kappa %.2f read with %.2f: ECE of the part below 0.95 %.3f", c.kappa, c.wrong, e)
		if e <= 0.03 {
			t.Errorf("kappa %.2f read with %.2f: ECE below 0.95 %.3f, want above 0.03 (the factor should matter)", c.kappa, c.wrong, e)
		}
		if fitAgreement(p, nc, agree, 4, make([]bool, n), c.kappa) != nil {
			t.Error("nothing to fit to: a map")
		}
	}
}

// TestAgreementKappa: the factor of the votes against is the one-pass factor up to one pass,
// the two-pass one from two, rises in between, and the calibration networks draw two passes
// over 10,000 samples and one over 60,000 (the sizes the factors were measured at, on MNIST:
// a change of the draws there needs the factors measured again).
func TestAgreementKappa(t *testing.T) {
	if agreementKappa(0.1) != kappaOnePass || agreementKappa(1) != kappaOnePass || agreementKappa(2) != kappaTwoPass || agreementKappa(5) != kappaTwoPass {
		t.Errorf("agreementKappa at 0.1, 1, 2, 5 passes: %v %v %v %v", agreementKappa(0.1), agreementKappa(1), agreementKappa(2), agreementKappa(5))
	}
	if k := agreementKappa(1.5); !(k > kappaOnePass && k < kappaTwoPass) {
		t.Errorf("agreementKappa(1.5) = %v, want between %v and %v", k, kappaOnePass, kappaTwoPass)
	}
	for _, c := range []struct{ n, passes int }{{10000, 2}, {60000, 1}} {
		if d := calibrationDraws(refineDraws(c.n), c.n); d != c.passes*c.n {
			t.Errorf("%d samples: the calibration networks draw %d, want %d passes (%d)", c.n, d, c.passes, c.passes*c.n)
		}
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
