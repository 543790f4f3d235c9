package embed

import (
	"context"
	"fmt"

	"idxlabel/suspect/nn"
)

// Place returns positions for points that were not laid out, N×2, from their neighbours among
// points that were: row r of g lists point r's nearest laid-out points (indices into placed,
// which holds their coordinates, P×2; nn.Across's result), and point r goes to the mean of
// their positions weighted by the memberships Layout gives its own edges (nearest 1, falling
// off with distance; see memberships). A row without neighbours (padding only) gets NaN
// coordinates. Growth: O(N·K) time, O(N·K) memory. Errors: ErrShape (g's rows do not fit,
// or an index outside placed), or the context's error when cancelled.
func Place(ctx context.Context, placed []float32, g *nn.Graph, workers int) ([]float32, error) {
	if g == nil || g.K < 1 || len(placed)%2 != 0 {
		return nil, fmt.Errorf("%w: no neighbour graph, or an odd number of coordinates", ErrShape)
	}
	rows := len(g.Idx) / g.K
	if err := checkGraph(g, rows, len(placed)/2); err != nil {
		return nil, err
	}
	w, err := memberships(ctx, g, defaultWorkers(workers))
	if err != nil {
		return nil, err
	}
	out := make([]float32, 2*rows)
	for r := range rows {
		idx, _ := g.Of(r)
		var sx, sy, sw float64
		for s, j := range idx {
			if j < 0 {
				continue
			}
			m := float64(w[r*g.K+s])
			sx += m * float64(placed[2*j])
			sy += m * float64(placed[2*j+1])
			sw += m
		}
		out[2*r], out[2*r+1] = float32(sx/sw), float32(sy/sw)
	}
	return out, nil
}
