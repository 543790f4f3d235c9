package suspect

import (
	"context"
	"fmt"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
)

// PixelFeatures returns every sample's coordinates on the first dims principal axes of its
// deskewed, blurred, unit-length pixels (the features of Scan, the kNN method): N×dims float32,
// row-major, and the dims kept (at most Dim). The axes are estimated from up to maxSamples
// samples drawn with seed (the same seed gives the same features). Growth: O(maxSamples·Dim²)
// for the axes, O(N·Dim·dims) time and O(N·dims) memory for the projection. Errors: fewer than
// 2 samples, pixels of the wrong length, a PCA that does not converge, or the context's error
// when cancelled.
func PixelFeatures(ctx context.Context, d sample.Set, dims, maxSamples int, seed uint64, workers int) ([]float32, int, error) {
	o := Options{Dims: dims, PCASamples: maxSamples, Seed: seed, Workers: workers}.withDefaults()
	if d.N < 2 {
		return nil, 0, fmt.Errorf("features need at least 2 samples, the dataset has %d", d.N)
	}
	if got := len(d.Pixels(0)); got != d.Dim() {
		return nil, 0, fmt.Errorf("samples have %d pixels, not %d", got, d.Dim())
	}
	p, err := fitPCA(ctx, d, o.Dims, o.PCASamples, o.Seed)
	if err != nil {
		return nil, 0, err
	}
	f, err := p.project(ctx, d, o.Workers, nil)
	return f, p.dims, err
}

// Resize28 returns an h×w grey image (row-major, 0–255) resized to the networks' 28×28
// (bilinear), written into dst (allocated when nil): how the CNN models read samples of another
// size.
func Resize28(px []byte, h, w int, dst []byte) []byte {
	if h == cnn.Side && w == cnn.Side {
		if dst == nil {
			dst = make([]byte, cnn.Pixels)
		}
		copy(dst, px)
		return dst
	}
	return resize28(px, h, w, dst)
}

// FitTemperature returns the temperature T of temperature scaling (see Model.Temperature) that
// best fits the class indices y (len n) under the probabilities p (n×classes, rows summing to
// 1): the minimum of the mean negative log-likelihood of p^(1/T), renormalized, for T between
// 0.05 and 50; 1 for no samples.
func FitTemperature(p []float32, y []int, classes int) float64 { return fitTemperature(p, y, classes) }

// Temper rescales each row (classes values) of p in place to p^(1/t), renormalized: the
// calibration of a fitted temperature t (FitTemperature). t = 1 leaves p as it is.
func Temper(p []float32, classes int, t float64) { temper(p, classes, t) }
