package outlier

import (
	"context"
	"testing"

	"idxlabel/suspect/neardup"
	"idxlabel/suspect/nn"
)

func TestTmpSeeds(t *testing.T) {
	for _, seed := range []uint64{41, 42, 43, 44, 45, 46} {
		d, at := plantedT10k(t, seed)
		ctx := context.Background()
		b, _ := neardup.FitBasis(ctx, d, 1)
		desc, _ := b.Describe(ctx, d, 0, nil)
		score, _ := Scores(ctx, d, []nn.Vectors{desc.Vectors}, Options{})
		order := Rank(score)
		in100 := 0
		kinds := map[string]int{}
		for _, i := range order[:100] {
			if k, ok := at[i]; ok {
				in100++
				kinds[k]++
			}
		}
		all := map[string]int{}
		for _, k := range at {
			all[k]++
		}
		t.Logf("seed %d: %d in top 100; found %v of %v", seed, in100, kinds, all)
	}
}
