package planted

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOutliers: 30 outliers come in the counts 6:5:4:4:4:4:3 of OutlierKinds, each 28×28, the
// same for the same seed and different for another.
func TestOutliers(t *testing.T) {
	digit := make([]byte, Side*Side)
	for k := range digit {
		digit[k] = byte(k % 200)
	}
	digits := func(int) []byte { return digit }
	a := Outliers(rand.New(rand.NewPCG(1, 1)), 30, digits, 1)
	count := map[string]int{}
	for _, o := range a {
		if len(o.Pixels) != Side*Side {
			t.Fatalf("%s: %d pixels", o.Kind, len(o.Pixels))
		}
		count[o.Kind]++
	}
	for k, kind := range OutlierKinds {
		if count[kind] != outlierCounts[k] {
			t.Errorf("%d %s, want %d", count[kind], kind, outlierCounts[k])
		}
	}
	b := Outliers(rand.New(rand.NewPCG(1, 1)), 30, digits, 1)
	c := Outliers(rand.New(rand.NewPCG(2, 1)), 30, digits, 1)
	same := func(x, y []Outlier) bool {
		return slices.EqualFunc(x, y, func(p, q Outlier) bool { return p.Kind == q.Kind && slices.Equal(p.Pixels, q.Pixels) })
	}
	if !same(a, b) || same(a, c) {
		t.Error("the same seed gave other outliers, or another seed the same")
	}
}

// TestCopy: each kind keeps the size; exact is equal; a shift moves the ink; intensity scales.
func TestCopy(t *testing.T) {
	src := make([]byte, Side*Side)
	src[14*Side+14] = 200
	rng := rand.New(rand.NewPCG(3, 3))
	if c := Copy(rng, src, "exact"); !slices.Equal(c, src) {
		t.Error("exact copy differs")
	}
	for _, kind := range []string{"shift 1", "shift 2"} {
		c := Copy(rng, src, kind)
		at := slices.Index(c, 200)
		dy, dx := at/Side-14, at%Side-14
		d := max(dy, -dy, dx, -dx)
		if d != int(kind[len(kind)-1]-'0') {
			t.Errorf("%s moved the pixel by (%d, %d)", kind, dy, dx)
		}
	}
	if c := Copy(rng, src, "intensity"); c[14*Side+14] != 170 {
		t.Errorf("85%% of 200 is %d", c[14*Side+14])
	}
}
