package embed

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"idxlabel/suspect/nn"
)

// pcaRows is how many points (at most, evenly spaced) the principal axes are estimated from.
const pcaRows = 10000

// Project returns the points of v on their first two principal axes, N×2 (x, y), in the units
// of v: a linear map, the start Map gives Layout, and the baseline a layout must beat. The axes
// come from the covariance of at most 10,000 evenly spaced points (gonum's symmetric
// eigendecomposition); their signs follow gonum's. Growth: O(N·D + D³) time, O(D²) memory
// beyond the result. Errors: ErrShape when v's sizes do not fit; an error when the
// eigendecomposition fails.
func Project(v nn.Vectors) ([]float32, error) {
	if v.N < 0 || v.Dim <= 0 || len(v.Data) != v.N*v.Dim {
		return nil, fmt.Errorf("%w: %d values for %d×%d", ErrShape, len(v.Data), v.N, v.Dim)
	}
	out := make([]float32, 2*v.N)
	if v.N < 2 {
		return out, nil
	}
	dim := v.Dim
	m := min(v.N, pcaRows)
	mean := make([]float64, dim)
	x := mat.NewDense(m, dim, nil)
	for r := range m {
		i := r * v.N / m
		for c, val := range v.Data[i*dim : (i+1)*dim] {
			x.Set(r, c, float64(val))
			mean[c] += float64(val)
		}
	}
	for c := range mean {
		mean[c] /= float64(m)
	}
	for r := range m {
		for c := range dim {
			x.Set(r, c, x.At(r, c)-mean[c])
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(m), x.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		return nil, errors.New("embed: the principal axes did not converge")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs) // columns in ascending order of eigenvalue
	axes := make([][]float32, 2)
	for a := range axes {
		axes[a] = make([]float32, dim)
		col := dim - 1 - a
		if col < 0 {
			continue // one dimension: the second axis is 0
		}
		for c := range dim {
			axes[a][c] = float32(vecs.At(c, col))
		}
	}
	for i := range v.N {
		row := v.Data[i*dim : (i+1)*dim]
		for a, axis := range axes {
			var s float32
			for c, val := range row {
				s += (val - float32(mean[c])) * axis[c]
			}
			out[2*i+a] = s
		}
	}
	return out, nil
}
