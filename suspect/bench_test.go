package suspect

import (
	"context"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
	"idxlabel/suspect/nn"
)

// BenchmarkScanT10k times a whole k-NN scan of the real t10k set (target ≤ 3 s).
func BenchmarkScanT10k(b *testing.B) { benchScan(b, mnistData(b, 10000), knnScan) }

// BenchmarkScan70k times a k-NN scan of a 70,000-sample set built from t10k (target ≤ 30 s).
func BenchmarkScan70k(b *testing.B) { benchScan(b, mnistData(b, 70000), knnScan) }

// BenchmarkScanCNNT10k times a CNN scan of t10k with the default recipe (2 seeds × 3 folds × 14
// epochs, the neighbour vote; target ≤ 60 s on 2 cores, goal 45 s) and reports its out-of-fold
// error.
func BenchmarkScanCNNT10k(b *testing.B) { benchScan(b, mnistData(b, 10000), cnnScanBench) }

// BenchmarkScanCNN60k times a CNN scan of the real 60,000-sample training set with the default
// recipe (6 epochs at this size; target ≤ 120 s on 2 cores).
func BenchmarkScanCNN60k(b *testing.B) { benchScan(b, mnistTrainData(b), cnnScanBench) }

func knnScan(d sample.Set) (float64, error) {
	_, err := Scan(context.Background(), d, Options{}, nil)
	return -1, err
}

func cnnScanBench(d sample.Set) (float64, error) {
	res, err := ScanCNN(context.Background(), d, CNNOptions{}, nil)
	if err != nil {
		return 0, err
	}
	return res.Error, nil
}

// benchScan also reports the scan's peak heap beyond the pixels (sampled every 5 ms) against the
// pixel data (target: total ≤ 2× the pixels), and the CNN's out-of-fold error.
func benchScan(b *testing.B, d sample.Set, scan func(sample.Set) (float64, error)) {
	for b.Loop() {
		var errRate float64
		peak, err := mnisttest.PeakHeap(func() (err error) {
			errRate, err = scan(d)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if errRate >= 0 {
			b.ReportMetric(100*errRate, "oof-error-%")
		}
		b.ReportMetric(float64(peak)/(1<<20), "scan-peak-MB")
		b.ReportMetric(float64(d.N*784)/(1<<20), "pixels-MB")
	}
}

// BenchmarkKNN10k times the neighbour search alone on the t10k features.
func BenchmarkKNN10k(b *testing.B) {
	d := mnistData(b, 10000)
	ctx := context.Background()
	p, _ := fitPCA(ctx, d, 50, 5000, 1)
	feats, _ := p.project(ctx, d, 2, nil)
	b.ResetTimer()
	for b.Loop() {
		nn.Among(ctx, nn.Vectors{Data: feats, N: d.N, Dim: 50}, nil, 10, nn.Options{Workers: 2})
	}
}
