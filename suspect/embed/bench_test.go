package embed

import (
	"context"
	"testing"

	"idxlabel/suspect/nn"
)

// BenchmarkMap10k lays out 10,000 planted points of 128 values in 10 clusters (the size of a
// CNN scan's features of t10k): the neighbour search and the layout.
func BenchmarkMap10k(b *testing.B) {
	v, _ := plantedAt(41, 10000, 10, 128, 5)
	for b.Loop() {
		if _, err := Map(context.Background(), v, MapOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLayout10k is the layout alone (the graph searched once, outside the timing).
func BenchmarkLayout10k(b *testing.B) {
	v, _ := plantedAt(42, 10000, 10, 128, 5)
	g, err := nn.Among(context.Background(), v, nil, 15, nn.Options{})
	if err != nil {
		b.Fatal(err)
	}
	start, err := Project(v)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Layout(context.Background(), g, start, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
