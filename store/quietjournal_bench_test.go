package store

import (
	"fmt"
	"testing"

	"idxlabel/fixture/mnisttest"
)

// BenchmarkJournalChangesNothing judges a killed window's journal whose edits cancel out (3 typed
// over a 7, 7 typed back), as a --force writer does over its outputs, beside a pair of 60,000
// generated 28×28 samples (47 MB of images): B/op is what the judgement allocates, and
// image-fraction that over the images' bytes (1 would be the images held whole).
func BenchmarkJournalChangesNothing(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	const n, side = 60000, 28
	ip, lp := widePair(b, b.TempDir(), n, side, false)
	j := killedAfter(b, ip, lp, typedBack(b))
	b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
		b.ReportAllocs()
		var total uint64
		runs := 0
		for b.Loop() {
			var quiet bool
			total += mnisttest.Allocated(func() { quiet = JournalChangesNothing(j) })
			runs++
			if !quiet {
				b.Fatal("a journal whose edits cancel out: changes something")
			}
		}
		b.ReportMetric(float64(total)/float64(runs)/float64(n*side*side), "image-fraction")
	})
}
