package suspect

import (
	"context"
	"idxlabel/fixture/digits"
	"idxlabel/sample"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// TestLeadingEigenvectors checks the subspace iteration against a full eigendecomposition of
// the covariance of real MNIST: the 50 axes found capture the variance of the true 50.
func TestLeadingEigenvectors(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 10000)
	const m, dim = 2000, 784
	x := make([]float64, m*dim)
	mean := make([]float64, dim)
	for i := range m {
		for k, v := range d.Pixels(i) {
			mean[k] += float64(v) / m
		}
	}
	for i := range m {
		for k, v := range d.Pixels(i) {
			x[i*dim+k] = float64(v) - mean[k]
		}
	}
	cov := blas64.Symmetric{Uplo: blas.Upper, N: dim, Stride: dim, Data: make([]float64, dim*dim)}
	blas64.Syrk(blas.Trans, 1.0/m, blas64.General{Rows: m, Cols: dim, Stride: dim, Data: x}, 0, cov)
	sym := mat.NewSymDense(dim, cov.Data)
	var eig mat.EigenSym
	eig.Factorize(sym, false)
	vals := eig.Values(nil)
	var want float64
	for _, v := range vals[dim-50:] {
		want += v
	}
	vecs, err := leadingEigenvectors(cov, 50, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got float64
	col := mat.NewVecDense(dim, nil)
	var cv mat.VecDense
	for j := range 50 {
		col.CopyVec(vecs.ColView(j))
		cv.MulVec(sym, col)
		got += mat.Dot(col, &cv)
	}
	if got < 0.999*want {
		t.Fatalf("the 50 axes capture variance %.1f, the true 50 capture %.1f", got, want)
	}
}

// TestScanFindsPlantedErrors relabels 1% of t10k at random and checks that the scan ranks most
// of them in its top 2%, with the right suggestion.
func TestScanFindsPlantedErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 10000)
	rng := rand.New(rand.NewPCG(5, 5))
	planted := map[int]int{}
	for len(planted) < 100 {
		i := rng.IntN(d.N)
		if _, ok := planted[i]; !ok {
			planted[i] = d.Labels[i]
			d.Labels[i] = (d.Labels[i] + 1 + rng.IntN(9)) % 10
		}
	}
	res, err := Scan(context.Background(), d, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	found, suggested := 0, 0
	for _, s := range res.Suspects[:200] {
		if orig, ok := planted[s.Index]; ok {
			found++
			if s.Suggested == orig {
				suggested++
			}
		}
	}
	t.Logf("planted 100 errors: %d in the top 200, %d of them with the original label suggested", found, suggested)
	if found < 90 || suggested < found*9/10 {
		t.Fatalf("only %d planted errors in the top 200 (%d with the right suggestion)", found, suggested)
	}
}

// TestScanCancelAndErrors: a cancelled scan stops; a 1-sample scan is refused.
func TestScanCancelAndErrors(t *testing.T) {
	d := digits.Set(t, 200) // generated: a test of the errors runs without the real files
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Scan(ctx, d, Options{}, nil); err != context.Canceled {
		t.Fatalf("cancelled scan: %v", err)
	}
	if _, err := Scan(context.Background(), sample.Set{N: 1, H: 28, W: 28, Pixels: d.Pixels, Labels: []int{1}}, Options{}, nil); err == nil {
		t.Fatal("a 1-sample scan succeeded")
	}
}
