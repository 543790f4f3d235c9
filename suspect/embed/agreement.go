package embed

import (
	"context"
	"fmt"

	"idxlabel/suspect/nn"
)

// NeighbourAgreement measures how well a map keeps classes together: for each query point, its
// k nearest other points in the map xy (N×2, Euclidean; nn.Among, exact), and the share of
// those (query, neighbour) pairs whose labels are equal. 1 means every neighbourhood is pure;
// a map that mixed C balanced classes at random would score about 1/C. queries lists the
// points to score (nil: all N); the neighbours are drawn from all N, so leave unlabelled points
// out of queries and give them a label no other point has if they must not count as agreeing.
//
// The coordinates are centred before the search, so the float32 distances keep their precision
// for maps far from the origin. Growth: O(Q·N) time for Q queries, O(Q·k) memory. Errors:
// ErrShape (xy is not 2 values per label, k < 1, a query outside [0, N)), or the context's
// error when cancelled.
func NeighbourAgreement(ctx context.Context, xy []float32, labels []int, k int, queries []int, workers int) (float64, error) {
	n := len(labels)
	if len(xy) != 2*n || k < 1 {
		return 0, fmt.Errorf("%w: %d coordinates for %d labels, k = %d", ErrShape, len(xy), n, k)
	}
	for _, q := range queries {
		if q < 0 || q >= n {
			return 0, fmt.Errorf("%w: query %d of %d points", ErrShape, q, n)
		}
	}
	var mx, my float64
	for i := range n {
		mx += float64(xy[2*i])
		my += float64(xy[2*i+1])
	}
	c := make([]float32, 2*n)
	if n > 0 {
		mx, my = mx/float64(n), my/float64(n)
	}
	for i := range n {
		c[2*i], c[2*i+1] = float32(float64(xy[2*i])-mx), float32(float64(xy[2*i+1])-my)
	}
	g, err := nn.Among(ctx, nn.Vectors{Data: c, N: n, Dim: 2}, queries, k, nn.Options{Workers: workers})
	if err != nil {
		return 0, err
	}
	same, pairs := 0, 0
	for r := range g.Rows() {
		q := r
		if queries != nil {
			q = queries[r]
		}
		idx, _ := g.Of(r)
		for _, j := range idx {
			if j < 0 {
				continue
			}
			pairs++
			if labels[j] == labels[q] {
				same++
			}
		}
	}
	if pairs == 0 {
		return 0, nil
	}
	return float64(same) / float64(pairs), nil
}
