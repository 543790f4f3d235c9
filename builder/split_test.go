package builder

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// memInput is an Input of n samples whose classes are classOf(i), held in memory (Split reads
// only the labels).
func memInput(n int, classOf func(int) int64) *Input {
	labels, _ := idx.New(idx.Int32, n)
	for i := range n {
		labels.SetInt(i, classOf(i))
	}
	return &Input{Shape: pairfile.Shape{N: n, H: 1, W: 1}, Labels: labels}
}

// Over 200 random datasets (1–2,000 samples, 1–30 classes of skewed sizes, unlabelled samples)
// and fractions (or counts), a stratified split puts every sample in one part, round(f·N) in the
// test part and each class within one sample of the fraction.
func TestSplitStratifiedWithinOneSample(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + r.IntN(2000)
		k := 1 + r.IntN(30)
		in := memInput(n, func(int) int64 {
			c := int64(math.Floor(math.Pow(r.Float64(), 2) * float64(k)))
			if c == 0 && r.IntN(5) == 0 {
				return sample.NoLabel
			}
			return c
		})
		f := 0.01 + 0.98*r.Float64()
		o := SplitOptions{Test: f, TestCount: -1, Stratify: true, GroupColumn: -1, Seed: uint64(trial)}
		if trial%2 == 1 { // a count: the fraction is count/N
			o.TestCount = int(math.Round(f * float64(n)))
			f = float64(o.TestCount) / float64(n)
		}
		p, err := Split(in, Pair{}, Pair{}, o)
		if want := int(math.Round(f * float64(n))); want == 0 || want == n {
			var se *SplitError
			if !errors.As(err, &se) {
				t.Fatalf("trial %d: a test part of %d of %d samples: %v, want a SplitError", trial, want, n, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		train, test := p.Parts[0].Samples, p.Parts[1].Samples
		if len(train)+len(test) != n || len(test) != int(math.Round(f*float64(n))) {
			t.Fatalf("trial %d: %d + %d samples of %d, test %d for f %.3f", trial, len(train), len(test), n, len(test), f)
		}
		seen := make([]bool, n)
		for _, s := range append(append([]int{}, train...), test...) {
			if seen[s] {
				t.Fatalf("trial %d: sample %d twice", trial, s)
			}
			seen[s] = true
		}
		all, inTest := map[int64]int{}, map[int64]int{}
		for i := range n {
			all[in.Class(i)]++
		}
		for _, s := range test {
			inTest[in.Class(s)]++
		}
		for c, nc := range all {
			want := f * float64(nc)
			if d := math.Abs(float64(inTest[c]) - want); d >= 1 {
				t.Fatalf("trial %d: class %d has %d of %d in the test part, %.3f from %.3f", trial, c, inTest[c], nc, d, want)
			}
		}
	}
}
