package activelearn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// overconfident returns n rows of 3-class probabilities whose most probable class is right
// with probability σ(0.3·logit(p)) for its probability p (a model far too sure of itself
// where it is unsure), and the true classes.
func overconfident(rng *rand.Rand, n int) ([]float32, []int) {
	p := make([]float32, 3*n)
	y := make([]int, n)
	for k := range n {
		top := 0.4 + 0.6*rng.Float64()
		b := rng.IntN(3)
		for c := range 3 {
			p[3*k+c] = float32((1 - top) / 2)
		}
		p[3*k+b] = float32(top)
		right := 1 / (1 + math.Exp(-0.3*logOdds(top)))
		y[k] = b
		if rng.Float64() >= right {
			y[k] = (b + 1 + rng.IntN(2)) % 3
		}
	}
	return p, y
}

// ece returns the expected calibration error (10 bins) of the most probable classes of p.
func ece(p []float32, y []int, classes int) float64 {
	var bins [10][3]float64
	for k, c := range y {
		row := p[k*classes : (k+1)*classes]
		b := argmax(row)
		i := min(9, int(row[b]*10))
		bins[i][0]++
		bins[i][1] += float64(row[b])
		if b == c {
			bins[i][2]++
		}
	}
	e := 0.0
	for _, b := range bins {
		e += math.Abs(b[1]-b[2]) / float64(len(y))
	}
	return e
}

// TestCalibrationFitsHeldOut: fitted on 300 held-out predictions of an overconfident model,
// the calibration makes 20,000 others of the same model calibrated (ECE from above 0.1 to
// below 0.03); it never changes the most probable class and rows still sum to 1; with every
// held-out label right it only tempers.
func TestCalibrationFitsHeldOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	hp, hy := overconfident(rng, 300)
	c := fitCalibration(hp, hy, 3)
	p, y := overconfident(rng, 20000)
	before := ece(p, y, 3)
	q := append([]float32(nil), p...)
	c.apply(q, 3)
	after := ece(q, y, 3)
	t.Logf("%+v: ECE %.3f → %.3f", c, before, after)
	if before < 0.1 || after > 0.03 {
		t.Errorf("ECE %.3f before, %.3f after; want above 0.1, then below 0.03", before, after)
	}
	for k := range y {
		var sum float32
		for j := range 3 {
			sum += q[3*k+j]
		}
		if argmax(p[3*k:3*k+3]) != argmax(q[3*k:3*k+3]) || math.Abs(float64(sum-1)) > 1e-5 {
			t.Fatalf("row %d: %v became %v", k, p[3*k:3*k+3], q[3*k:3*k+3])
		}
	}
	right := []int{0, 1, 2, 0}
	allRight := fitCalibration([]float32{0.8, 0.1, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8, 0.6, 0.2, 0.2}, right, 3)
	if allRight.Slope != 0 || allRight.Offset != 0 || !(allRight.Temperature > 0) {
		t.Errorf("every held-out label right: %+v, want a temperature alone", allRight)
	}
}

// TestCalibrationKeepsTheClass: a calibration that would make the most probable class less
// probable than the second leaves it first, however close the two were (ties included).
func TestCalibrationKeepsTheClass(t *testing.T) {
	c := Calibration{Temperature: 1, Slope: 0.1, Offset: -3}
	for _, row := range [][]float32{{0.5, 0.5, 0}, {0.34, 0.33, 0.33}, {0.2, 0.45, 0.35}, {0.35, 0.45, 0.2}, {0.9, 0.1, 0}} {
		q := append([]float32(nil), row...)
		c.apply(q, 3)
		if argmax(q) != argmax(row) {
			t.Errorf("%v became %v: another class first", row, q)
		}
	}
}
