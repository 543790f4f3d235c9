package suspect

import (
	"context"
	"errors"
	"slices"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/sample"
)

// TestRescore: a scan's probabilities scored against its own labels give its verdicts; a
// relabelled sample is scored against its new label; a label the scan never saw is ErrNewClass.
func TestRescore(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	const n = 600
	d := digits.Set(t, n) // generated: the scan cache rests on this, so it runs without the real files
	lab := d.Labels
	lab[7] = sample.NoLabel
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
