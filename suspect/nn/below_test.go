package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBelowMaskIsBelowGo: the kernel's bits are the Go version's, for every length from 0 to
// 70 values, with values near the bound, ±Inf and NaN among them.
func TestBelowMaskIsBelowGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	odd := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, -0.0}
	for n := range 71 {
		for trial := range 50 {
			dots, norms := make([]float32, n), make([]float32, n)
			lim := float32(rng.NormFloat64() * 10)
			for s := range n {
				dots[s] = float32(rng.NormFloat64() * 10)
				norms[s] = lim + 2*dots[s] + float32(rng.IntN(3)-1)*1e-6 // at the bound, or an ulp or so off it
				if rng.IntN(10) == 0 {
					norms[s] = odd[rng.IntN(len(odd))]
				}
			}
			if trial%7 == 0 {
				lim = odd[rng.IntN(len(odd))]
			}
			got, want := make([]uint8, (n+7)/8), make([]uint8, (n+7)/8)
			a, b := belowMask(dots, norms, lim, got), belowGo(dots, norms, lim, want)
			if a != b || string(got) != string(want) {
				t.Fatalf("n=%d lim=%v: kernel %v %08b, Go %v %08b", n, lim, a, got, b, want)
			}
		}
	}
}

// TestSlackKeepsEveryMatch: a point the exact comparison keeps (‖q‖² + ‖p‖² − 2·q·p ≤ worst,
// float32) always passes the first pass with slack, at the bound itself, over norms from 1e-6
// to 1e6 and every dot product Cauchy–Schwarz allows. And the first pass is not a pass-all:
// most points well beyond the bound fail it.
func TestSlackKeepsEveryMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	ix := &Index{}
	beyond := 0
	const trials = 1000000
	for range trials {
		qn := float32(math.Pow(10, rng.Float64()*12-6))
		pn := float32(math.Pow(10, rng.Float64()*12-6))
		ix.top = pn * float32(1+rng.Float64()*10)
		dot := float32((2*rng.Float64() - 1) * math.Sqrt(float64(qn)*float64(pn)))
		worst := max(0, qn+pn-2*dot) // the point is exactly at the list's last distance
		dots, norms, mask := []float32{dot}, []float32{pn}, []uint8{0}
		if !pass(dots, norms, worst-qn+ix.slack(qn, worst), mask) {
			t.Fatalf("qn=%g pn=%g dot=%g worst=%g: the exact comparison keeps it, the first pass does not", qn, pn, dot, worst)
		}
		// 10% farther than the list's last: must fail unless the values are tiny against top.
		if far := worst * 0.9; !pass(dots, norms, far-qn+ix.slack(qn, far), mask) {
			beyond++
		}
	}
	if beyond < trials/2 {
		t.Fatalf("only %d of %d points beyond the bound failed the first pass", beyond, trials)
	}
}

// pass runs belowMask's comparison on one value (padded to a block of 8 with values that fail).
func pass(dots, norms []float32, lim float32, mask []uint8) bool {
	d, n := make([]float32, 8), make([]float32, 8)
	for s := range 8 {
		n[s] = float32(math.Inf(1))
	}
	d[0], n[0] = dots[0], norms[0]
	belowMask(d, n, lim, mask)
	return mask[0]&1 != 0
}
