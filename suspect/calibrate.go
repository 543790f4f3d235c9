package suspect

import (
	"context"
	"math"

	"idxlabel/internal/parallel"
)

// Temperature scaling (Guo et al. 2017, "On Calibration of Modern Neural Networks"): a model's
// class probabilities p become p^(1/T), renormalized, with the one temperature T > 0 that
// minimizes the negative log-likelihood of held-out labelled samples. For a single network this
// is the softmax of its logits divided by T; T > 1 softens overconfident predictions, T < 1
// sharpens timid ones. The most probable class never changes.

// Bounds of the fitted temperature.
const (
	minTemperature = 0.05
	maxTemperature = 50.0
)

// nllRun is the number of samples fitTemperature sums at a time, on as many goroutines as
// there are CPUs.
const nllRun = 16384

// fitTemperature returns the temperature that minimizes the mean negative log-likelihood of the
// classes y (indices, len n) under the probabilities p (n×classes) sharpened or softened by it,
// between minTemperature and maxTemperature; 1 for no samples. The likelihood is convex in 1/T,
// so a golden-section search over 1/T finds its minimum.
func fitTemperature(p []float32, y []int, classes int) float64 {
	if len(y) == 0 {
		return 1
	}
	logs := make([]float64, len(p))
	for i, v := range p {
		logs[i] = math.Log(max(float64(v), 1e-30))
	}
	// The samples in runs of nllRun, each run's sum on its own and the sums added in run
	// order: the same result whatever the number of CPUs.
	runs := (len(y) + nllRun - 1) / nllRun
	part := make([]float64, runs)
	nll := func(beta float64) float64 {
		parallel.Each(context.Background(), runs, parallel.Options{}, func(r, _ int) error {
			var sum float64
			for s := r * nllRun; s < min(len(y), (r+1)*nllRun); s++ {
				row := logs[s*classes : (s+1)*classes]
				top := math.Inf(-1)
				for _, l := range row {
					top = max(top, beta*l)
				}
				var z float64
				for _, l := range row {
					z += math.Exp(beta*l - top)
				}
				sum += top + math.Log(z) - beta*row[y[s]]
			}
			part[r] = sum
			return nil
		})
		var sum float64
		for _, v := range part {
			sum += v
		}
		return sum
	}
	lo, hi := 1/maxTemperature, 1/minTemperature
	const golden = 0.6180339887498949
	a, b := hi-golden*(hi-lo), lo+golden*(hi-lo)
	fa, fb := nll(a), nll(b)
	for range 60 {
		if fa <= fb {
			hi, b, fb = b, a, fa
			a = hi - golden*(hi-lo)
			fa = nll(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + golden*(hi-lo)
			fb = nll(b)
		}
	}
	return 1 / ((lo + hi) / 2)
}

// temper rescales each row (classes values) of p in place to p^(1/t), renormalized (float64
// arithmetic); t = 1 leaves p as it is.
func temper(p []float32, classes int, t float64) {
	if t == 1 {
		return
	}
	beta := 1 / t
	row := make([]float64, classes)
	for s := 0; s+classes <= len(p); s += classes {
		top := math.Inf(-1)
		for c, v := range p[s : s+classes] {
			row[c] = beta * math.Log(max(float64(v), 1e-30))
			top = max(top, row[c])
		}
		var z float64
		for c := range row {
			row[c] = math.Exp(row[c] - top)
			z += row[c]
		}
		for c := range row {
			p[s+c] = float32(row[c] / z)
		}
	}
}
