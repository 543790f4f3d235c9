package suspect

import (
	"context"
	"errors"

	"gonum.org/v1/gonum/mat"

	"idxlabel/internal/parallel"
	"idxlabel/suspect/cnn"
)

// alignRows is how many samples (at most, evenly spaced) each fold model's features are mapped
// from, onto the first fold model's.
const alignRows = 4096

// commonFeatures puts the held-out features of every fold into the first fold model's space.
// Each fold model has its own penultimate space: without this, the nearest neighbours of a
// sample (measured on t10k: 99.99% of its 10 nearest) come from the models of its own fold, and
// a map of the features shows every class once per fold. out (N×Features, row i for sample i)
// holds at the rows held[m] the features fold model nets[m] gives those samples; for m ≥ 1 they
// are mapped in place by the affine map that best takes nets[m]'s features of a reference set
// (up to alignRows samples, evenly spaced among all) to nets[0]'s features of the same samples
// (least squares with a small ridge, gonum's Cholesky), then clipped at 0 like the post-ReLU
// activations they stand for. Up to workers folds are mapped at once, each writing only its own
// rows; the result does not depend on workers. Growth: O(F·alignRows) forward passes and
// O(F·(alignRows + Features)·Features²) arithmetic for F folds, O(workers·alignRows·Features)
// memory. Errors: the context's error when cancelled; an error when a fit's normal equations are
// not positive definite.
func commonFeatures(ctx context.Context, s cnn.Samples, n int, nets []*cnn.Net, held [][]int, out []float32, workers int) error {
	const f = cnn.Features
	ref := make([]int, min(n, alignRows))
	for r := range ref {
		ref[r] = r * n / len(ref)
	}
	target := make([]float32, len(ref)*f)
	if len(nets) > 1 {
		if err := nets[0].Outputs(ctx, s, ref, nil, target); err != nil {
			return err
		}
	}
	y := mat.NewDense(len(ref), f, nil)
	for r := range ref {
		for c := range f {
			y.Set(r, c, float64(target[r*f+c]))
		}
	}
	// The folds' maps are fitted and applied in parallel, each by one goroutine with its own
	// buffer; each writes only its own fold's features.
	return parallel.Each(ctx, len(nets)-1, parallel.Options{Workers: workers}, func(lo, _ int) error {
		m := lo + 1
		src := make([]float32, len(ref)*f)
		if err := nets[m].Outputs(ctx, s, ref, nil, src); err != nil {
			return err
		}
		w, err := affineFit(src, y)
		if err == nil {
			applyAffine(out, held[m], w)
		}
		return err
	})
}

// affineFit returns W, (Features+1)×Features, minimising ‖[X 1]·W − Y‖² + λ‖W‖² for X the
// rows of x (R×Features) and Y the rows of y, with λ = 10⁻³ × the mean diagonal of [X 1]ᵀ[X 1]
// (features a model never activates make the plain normal equations singular).
func affineFit(x []float32, y *mat.Dense) (*mat.Dense, error) {
	const f = cnn.Features
	rows, _ := y.Dims()
	a := mat.NewDense(rows, f+1, nil)
	for r := range rows {
		for c := range f {
			a.Set(r, c, float64(x[r*f+c]))
		}
		a.Set(r, f, 1)
	}
	var ata mat.SymDense
	ata.SymOuterK(1, a.T())
	trace := 0.0
	for c := range f + 1 {
		trace += ata.At(c, c)
	}
	lambda := 1e-3*trace/float64(f+1) + 1e-9
	for c := range f + 1 {
		ata.SetSym(c, c, ata.At(c, c)+lambda)
	}
	var chol mat.Cholesky
	if !chol.Factorize(&ata) {
		return nil, errors.New("aligning the fold models' features: the normal equations are not positive definite")
	}
	var aty, w mat.Dense
	aty.Mul(a.T(), y)
	if err := chol.SolveTo(&w, &aty); err != nil {
		return nil, err
	}
	return &w, nil
}

// applyAffine replaces each listed row v of feats (row i: feats[i·Features:(i+1)·Features]) by
// max(0, [v 1]·W).
func applyAffine(feats []float32, rows []int, w *mat.Dense) {
	const f = cnn.Features
	wt := make([]float32, (f+1)*f) // W row-major in float32
	for r := range f + 1 {
		for c := range f {
			wt[r*f+c] = float32(w.At(r, c))
		}
	}
	row := make([]float32, f)
	for _, i := range rows {
		v := feats[i*f : (i+1)*f]
		copy(row, wt[f*f:]) // the bias
		for r, x := range v {
			if x == 0 {
				continue
			}
			for c, m := range wt[r*f : (r+1)*f] {
				row[c] += x * m
			}
		}
		for c, x := range row {
			v[c] = max(0, x)
		}
	}
}
