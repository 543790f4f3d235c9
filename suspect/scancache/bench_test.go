package scancache

import (
	"path/filepath"
	"testing"

	"idxlabel/sample"
	"idxlabel/suspect"
)

// BenchmarkHit60k: what a hit costs for 60,000 MNIST-sized samples (28×28) of 10 classes: the
// key (one pass over 47 MB of pixels), the read and check of the 33 MB file, and the verdicts
// scored against the labels (Entry.Result).
func BenchmarkHit60k(b *testing.B) {
	const n = 60000
	px := make([]byte, n*784)
	for i := range px {
		px[i] = byte(i * 7)
	}
	images := sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }}
	e := entry(n)
	e.Classes = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	e.Probs = make([]float32, 10*n)
	labels := make([]int, n)
	for i := range n {
		e.Probs[10*i+i%10] = 1
		labels[i] = (i + i/7) % 10
	}
	opts := suspect.CNNOptions{}
	path := filepath.Join(b.TempDir(), "x"+Suffix)
	if err := Store(path, KeyOf(images, opts), e); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := Load(path, KeyOf(images, opts), n)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := got.Result(labels); err != nil {
			b.Fatal(err)
		}
	}
}
