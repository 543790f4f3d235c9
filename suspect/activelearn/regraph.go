package activelearn

import (
	"context"
	"math"
	"slices"

	"idxlabel/internal/parallel"
	"idxlabel/suspect/nn"
)

// rerank returns each sample's k nearest neighbours by the vectors v (N×d) among its first
// `use` neighbours in g and theirs (two steps of g: at most use·(use+1) candidates), nearest
// first, squared distances; rows with fewer candidates are padded with −1 and +Inf. It stands
// for the exact graph of v where v's neighbours are mostly g's: O(N·use²·d), no index. Errors:
// the context's error when cancelled.
func rerank(ctx context.Context, g *nn.Graph, use int, v nn.Vectors, k, workers int) (*nn.Graph, error) {
	use = min(use, g.K)
	n := g.Rows()
	out := &nn.Graph{K: k, Idx: make([]int32, n*k), Dist: make([]float32, n*k)}
	err := parallel.For(ctx, n, parallel.Options{Workers: workers, Chunk: 256}, func(ctx context.Context) func(lo, hi int) error {
		type cand struct {
			j int32
			d float32
		}
		var cs []cand
		seen := make([]int32, n) // the sample+1 whose candidates last listed each sample
		return func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				cs = cs[:0]
				mark := int32(i + 1)
				seen[i] = mark
				vi := v.Data[i*v.Dim : (i+1)*v.Dim]
				add := func(j int32) {
					if j < 0 || seen[j] == mark {
						return
					}
					seen[j] = mark
					vj := v.Data[int(j)*v.Dim : (int(j)+1)*v.Dim]
					var d float32
					for t, x := range vi {
						e := x - vj[t]
						d += e * e
					}
					cs = append(cs, cand{j, d})
				}
				first, _ := g.Of(i)
				first = first[:use]
				for _, j := range first {
					add(j)
				}
				for _, j := range first {
					if j >= 0 {
						second, _ := g.Of(int(j))
						for _, j2 := range second[:use] {
							add(j2)
						}
					}
				}
				slices.SortFunc(cs, func(a, b cand) int {
					switch {
					case a.d < b.d:
						return -1
					case a.d > b.d:
						return 1
					}
					return int(a.j - b.j)
				})
				row, dist := out.Idx[i*k:(i+1)*k], out.Dist[i*k:(i+1)*k]
				for t := range k {
					if t < len(cs) {
						row[t], dist[t] = cs[t].j, cs[t].d
					} else {
						row[t], dist[t] = -1, float32(math.Inf(1))
					}
				}
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
