package confusion

import (
	"math/rand/v2"
	"testing"
)

func random(n, c int) ([]int, []float32, []int) {
	rng := rand.New(rand.NewPCG(1, 1))
	labels := make([]int, n)
	probs := make([]float32, n*c)
	classes := make([]int, c)
	for k := range classes {
		classes[k] = k
	}
	for i := range n {
		labels[i] = rng.IntN(c)
		for k := range c {
			probs[i*c+k] = rng.Float32()
		}
	}
	return labels, probs, classes
}

// BenchmarkNew70k builds the matrix of 70,000 samples of 10 classes: what opening the view
// costs once the scan is done.
func BenchmarkNew70k(b *testing.B) {
	labels, probs, classes := random(70000, 10)
	for b.Loop() {
		if _, err := New(labels, probs, classes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRelabel moves one sample of a 1,000,000-sample matrix between rows.
func BenchmarkRelabel(b *testing.B) {
	labels, probs, classes := random(1000000, 10)
	m, err := New(labels, probs, classes)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i = (i + 7919) % len(labels)
		if err := m.Relabel(i, (labels[i]+1)%10); err != nil {
			b.Fatal(err)
		}
	}
}
