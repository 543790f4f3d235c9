package annotate

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"idxlabel/idx"
)

// benchColumns are 5 simulated annotators (97%, 95%, 90%, 85% and 80% accurate, 10 classes) of
// 1,000,000 samples, as bench/agree writes them.
func benchColumns(b *testing.B) []Column {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	truth := make([]int32, 1_000_000)
	for i := range truth {
		truth[i] = int32(rng.IntN(10))
	}
	return simulate(truth, 10, []float64{0.97, 0.95, 0.9, 0.85, 0.8}, 1)
}

func BenchmarkNewPanel1M(b *testing.B) {
	cols := benchColumns(b)
	b.ResetTimer()
	for b.Loop() {
		mustPanel(b, cols)
	}
}

func BenchmarkSummary1M(b *testing.B) {
	p := mustPanel(b, benchColumns(b))
	b.ResetTimer()
	for b.Loop() {
		p.Summary()
	}
}

func BenchmarkMajority1M(b *testing.B) {
	p := mustPanel(b, benchColumns(b))
	b.ResetTimer()
	for b.Loop() {
		p.Majority()
	}
}

func BenchmarkDawidSkene1M(b *testing.B) {
	p := mustPanel(b, benchColumns(b))
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.DawidSkene(context.Background(), DSOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHashImages60k hashes an image file of 60,000 samples of 28×28 bytes (the training
// set's size; 47 MB): the file's digest and each sample's.
func BenchmarkHashImages60k(b *testing.B) {
	h := idx.Header{Type: idx.UByte, Dims: []int{60000, 28, 28}}
	data := make([]byte, h.DataSize())
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := HashImages(context.Background(), h, bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
