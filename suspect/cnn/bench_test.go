package cnn

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep times one training step on a batch of 64 in one pass (forward, backward, Adam);
// Train's passes take 8 samples at a time (BenchmarkChunk), which keeps the buffers in cache.
func BenchmarkStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := newNet(10, rng)
	w := newWork(n, 64, true)
	imgs := randomImages(rng, 64)
	y := make([]int, 64)
	for s := range 64 {
		a := drawAffine(rng)
		warp(w.img, w.pad, imgs[s], a[0], a[1], a[2], a[3])
		w.setInput(s)
		y[s] = s % 10
	}
	opt := newAdam(len(n.params))
	zero := make([]float32, len(n.params))
	for b.Loop() {
		n.forward(w, 64)
		n.backward(w, 64, y, 1.0/64, 0.1)
		opt.step(n.params, w.grad.params, zero, 1e-3, 0.9)
	}
}

// BenchmarkTrain8Steps times Train's steps (two shards per batch) on 512 samples for one epoch (8
// steps of 64).
func BenchmarkTrain8Steps(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	imgs := randomImages(rng, 512)
	labels := make([]int, 512)
	idx := make([]int, 512)
	for i := range labels {
		labels[i], idx[i] = i%10, i
	}
	s := Samples{Pixels: func(i int) []byte { return imgs[i] }, Labels: labels}
	for b.Loop() {
		if _, err := Train(b.Context(), s, idx, 10, Config{Epochs: 1}, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChunk times one goroutine's forward and backward pass over a chunk of samples, the
// unit Train's shards work in (reported per sample).
func BenchmarkChunk(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := newNet(10, rng)
	w := newWork(n, chunk, true)
	imgs := randomImages(rng, chunk)
	y := make([]int, chunk)
	for s := range chunk {
		a := drawAffine(rng)
		warp(w.img, w.pad, imgs[s], a[0], a[1], a[2], a[3])
		w.setInput(s)
		y[s] = s % 10
	}
	for b.Loop() {
		n.forward(w, chunk)
		n.backward(w, chunk, y, 1.0/64, 0.1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunk)/1000, "µs/sample")
}
