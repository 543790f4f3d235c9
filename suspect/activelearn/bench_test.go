package activelearn

import (
	"context"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// benchLoop returns the space of the first n samples of MNIST's test set (n ≤ 10,000) or
// training set (n > 10,000), computed untimed, and labels for them: 100 asked by the loop
// (10, 10, 20, 20, 20, 20 asks) and answered with the true labels.
func benchLoop(b *testing.B, n int) (*Space, sample.Set, []int) {
	images, labels := mnisttest.Load(b)
	if n > 10000 {
		images, labels = mnisttest.LoadTrain(b)
	}
	d := dataset(images.Data[:n*784], unlabelled(n))
	s, err := NewSpace(context.Background(), d, Options{})
	if err != nil {
		b.Fatal(err)
	}
	given := unlabelled(n)
	for _, k := range []int{10, 10, 20, 20, 20, 20} {
		ask, err := s.Ask(context.Background(), given, k, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, i := range ask {
			given[i] = int(labels.Data[i])
		}
	}
	return s, d, given
}

// BenchmarkFirstSuggestions10k times a round's first suggestions on a kept space (Space.Suggest:
// label spreading and its calibration) for the 10,000 t10k digits with 100 labels: what a
// person waits for after a key. Target: 5 s on 2 idle cores.
func BenchmarkFirstSuggestions10k(b *testing.B) { benchFirst(b, 10000) }

// BenchmarkFirstSuggestions60k: the same for the 60,000 training digits. Target: 20 s.
func BenchmarkFirstSuggestions60k(b *testing.B) { benchFirst(b, 60000) }

func benchFirst(b *testing.B, n int) {
	s, _, given := benchLoop(b, n)
	for b.Loop() {
		if _, err := s.Suggest(context.Background(), given, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefine10k times the refinement after the first suggestions (Space.Refine: two chains
// of two networks) for the 10,000 t10k digits with 100 labels.
func BenchmarkRefine10k(b *testing.B) {
	s, d, given := benchLoop(b, 10000)
	for b.Loop() {
		if _, err := s.Refine(context.Background(), d, given, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAsk10k times the asks of a round (Space.Ask: 20 samples, the least sure by label
// spreading) for the 10,000 t10k digits with 100 labels.
func BenchmarkAsk10k(b *testing.B) {
	s, _, given := benchLoop(b, 10000)
	for b.Loop() {
		if _, err := s.Ask(context.Background(), given, 20, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
