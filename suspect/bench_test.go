package suspect

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"
)

// BenchmarkScanT10k times a whole scan of the real t10k set (target ≤ 3 s).
func BenchmarkScanT10k(b *testing.B) { benchScan(b, 10000) }

// BenchmarkScan70k times a scan of a 70,000-sample set built from t10k (target ≤ 30 s).
func BenchmarkScan70k(b *testing.B) { benchScan(b, 70000) }

// benchScan also reports the scan's peak heap beyond the pixels (sampled every 5 ms) against the
// pixel data (target: total ≤ 2× the pixels).
func benchScan(b *testing.B, n int) {
	d := mnistData(b, n)
	for b.Loop() {
		base := heapBytes()
		peak := base
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
					peak = max(peak, heapBytes())
				}
			}
		}()
		if _, err := Scan(context.Background(), d, Options{}, nil); err != nil {
			b.Fatal(err)
		}
		close(stop)
		b.ReportMetric(float64(peak-base)/(1<<20), "scan-peak-MB")
		b.ReportMetric(float64(n*784)/(1<<20), "pixels-MB")
	}
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkKNN10k times the neighbour search alone on the t10k features.
func BenchmarkKNN10k(b *testing.B) {
	d := mnistData(b, 10000)
	ctx := context.Background()
	p, _ := fitPCA(ctx, d, 50, 5000, 1)
	feats, _ := p.project(ctx, d, 2, nil)
	b.ResetTimer()
	for b.Loop() {
		knn(ctx, feats, d.N, 50, 10, 2, nil)
	}
}
