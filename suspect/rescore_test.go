package suspect

import (
	"context"
	"errors"
	"slices"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// TestRescore: a scan's probabilities scored against its own labels give its verdicts; a
// relabelled sample is scored against its new label; a label the scan never saw is ErrNewClass.
func TestRescore(t *testing.T) {
	images, labels := mnisttest.Load(t)
	const n = 600
	lab := make([]int, n)
	for i := range lab {
		lab[i] = int(labels.Data[i])
	}
	lab[7] = sample.NoLabel
	d := sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }, Labels: lab}
	res, err := ScanCNN(context.Background(), d, CNNOptions{Folds: 2, Epochs: 1, Seed: 3, Seeds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sus, unl, err := Rescore(res.Classes, res.Probs, lab)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sus, res.Suspects) || !slices.Equal(unl, res.Unlabelled) {
		t.Fatalf("rescored verdicts differ from the scan's")
	}
	moved := slices.Clone(lab)
	moved[0] = (lab[0] + 1) % 10
	sus, _, err = Rescore(res.Classes, res.Probs, moved)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sus {
		if s.Index == 0 {
			c, _ := slices.BinarySearch(res.Classes, moved[0])
			if s.Label != moved[0] || s.Score != 1-float64(res.Probs[c]) {
				t.Errorf("relabelled sample 0: %+v", s)
			}
		}
	}
	moved[1] = 42
	if _, _, err := Rescore(res.Classes, res.Probs, moved); !errors.Is(err, ErrNewClass) {
		t.Errorf("a new class: %v", err)
	}
	if _, _, err := Rescore(res.Classes, res.Probs[1:], lab); err == nil {
		t.Error("probabilities of the wrong length accepted")
	}
}
