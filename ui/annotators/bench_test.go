package annotators

import (
	"math/rand/v2"
	"testing"

	"idxlabel/annotate"
)

// columns1M is 1,000,000 labels of 10 classes by an open annotator and two others who each
// differ on about 2% of the samples (seed 1).
func columns1M() ([]int32, []annotate.Column) {
	const n = 1_000_000
	r := rand.New(rand.NewPCG(1, 1))
	open := make([]int32, n)
	b, c := make([]int32, n), make([]int32, n)
	for i := range n {
		open[i] = int32(r.IntN(10))
		b[i], c[i] = open[i], open[i]
		if r.IntN(50) == 0 {
			b[i] = int32(r.IntN(10))
		}
		if r.IntN(50) == 0 {
			c[i] = int32(r.IntN(10))
		}
	}
	return open, []annotate.Column{{Name: "b", Labels: b}, {Name: "c", Labels: c}}
}

// BenchmarkCompare1M is the comparison of three annotators of 1,000,000 samples: made once
// when a file is added (the list of disagreements and their majorities), off the UI thread.
func BenchmarkCompare1M(b *testing.B) {
	open, others := columns1M()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Compare(open, "open", others); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFigures1M is the figures made again after the labels changed (off the UI thread, one
// at a time).
func BenchmarkFigures1M(b *testing.B) {
	open, cmp := compared1M(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cmp.Figures(open, [2]int{0, 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCell1M is a click on a cell of the confusion matrix of two files' annotators of
// 1,000,000 samples: the samples of the cell listed (O(N), once per click, on the UI thread).
func BenchmarkCell1M(b *testing.B) {
	_, cmp := compared1M(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(cellOf(nil, cmp, [2]int{1, 2}, 3, 5)) == 0 {
			b.Fatal("an empty cell")
		}
	}
}

// compared1M is columns1M's open labels and their comparison with the two others.
func compared1M(b *testing.B) ([]int32, *Comparison) {
	open, others := columns1M()
	cmp, _, err := Compare(open, "open", others)
	if err != nil {
		b.Fatal(err)
	}
	return open, cmp
}
