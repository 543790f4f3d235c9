package suspect

import "testing"

// TestEstimateCNNGrows: the estimate grows with the labelled samples, the seeds and the
// epochs, and is 0 when no scan can run (fewer labelled samples than folds).
func TestEstimateCNNGrows(t *testing.T) {
	base := EstimateCNN(10000, 0, CNNOptions{})
	if base <= 0 {
		t.Fatalf("10,000 samples: %v", base)
	}
	for name, more := range map[string]int64{
		"more samples":   int64(EstimateCNN(20000, 0, CNNOptions{})),
		"more seeds":     int64(EstimateCNN(10000, 0, CNNOptions{Seeds: 3})),
		"more epochs":    int64(EstimateCNN(10000, 0, CNNOptions{Epochs: 20})),
		"unlabelled too": int64(EstimateCNN(10000, 5000, CNNOptions{})),
	} {
		if more <= int64(base) {
			t.Errorf("%s: %v, not above %v", name, more, base)
		}
	}
	if e := EstimateCNN(2, 0, CNNOptions{Folds: 3}); e != 0 {
		t.Errorf("2 labelled samples in 3 folds: %v", e)
	}
}
