package activelearn

import (
	"context"
	"math"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// TestRefineJoinsTwoChains: below MinCalibration typed labels Refine's probabilities are the
// typed labels spread over the graph of two chains' last networks' features joined, blended with
// their mean probabilities; the chains' training seeds are Seed and Seed + chainSeedStep and
// their warps 1.5 times the cnn recipe's. Rebuilt here from those parts, the probabilities must
// be Refine's to the bit; and they must differ from either chain's own refined suggestions (a
// Refine that kept one chain, gave both one seed, or dropped the wider warps fails here).
func TestRefineJoinsTwoChains(t *testing.T) {
	slow(t)
	shortTraining(t, 1200)
	const n = 400
	ctx := context.Background()
	px, truth := shuffled(n, 5)
	d := dataset(px, unlabelled(n))
	o := Options{Seed: 3}
	s, err := NewSpace(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	labels := unlabelled(n)
	ask, err := s.Ask(ctx, labels, 10, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ask {
		labels[i] = truth[i]
	}
	got, err := s.Refine(ctx, d, labels, o)
	if err != nil {
		t.Fatal(err)
	}
	if got.Calibrated {
		t.Fatalf("%d typed labels: calibrated, want the chains' own confidences", len(ask))
	}
	l, err := learning(labels, n, o.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	nc := len(l.classes)
	f, err := spread(ctx, s.Graph, l.cls, nc)
	if err != nil {
		t.Fatal(err)
	}
	mean := make([]float32, n*nc)
	var feats []nn.Vectors
	var alone [][]float32
	for _, seed := range []uint64{3, 3 + chainSeedStep} {
		run := chainRun{seed: seed, rounds: tune.rounds, draws: refineDraws(n), warp: 1.5, features: true}
		p, fe, err := s.chain(ctx, pixels28(d), l.cls, nc, f, run, func(float64) {})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range p {
			mean[i] += v / 2
		}
		feats = append(feats, fe)
		r, err := respread(ctx, fe, l.cls, p, nc, o.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, r)
	}
	want, err := respread(ctx, joinVectors(feats), l.cls, mean, nc, o.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Probs, want) {
		t.Fatal("Refine's probabilities are not the two chains' joined spreading")
	}
	for k, r := range alone {
		if slices.Equal(r, want) {
			t.Errorf("chain %d alone gives the joined suggestions: the chains are not two", k)
		}
	}
	if slices.Equal(feats[0].Data, feats[1].Data) {
		t.Error("the two chains learnt the same features")
	}
}

// TestJoinVectors: joined rows of unit-length sets are unit length, a squared distance is the
// mean of the sets' own, and one set is returned as it is.
func TestJoinVectors(t *testing.T) {
	a := nn.Vectors{Data: []float32{1, 0, 0.6, 0.8}, N: 2, Dim: 2}
	b := nn.Vectors{Data: []float32{0, 0, 1, 1, 0, 0}, N: 2, Dim: 3}
	j := joinVectors([]nn.Vectors{a, b})
	if j.N != 2 || j.Dim != 5 {
		t.Fatalf("joined %d×%d, want 2×5", j.N, j.Dim)
	}
	norm, dist := 0.0, 0.0
	for k := range 5 {
		norm += float64(j.Data[k] * j.Data[k])
		dist += math.Pow(float64(j.Data[k]-j.Data[5+k]), 2)
	}
	// a's rows: (1, 0), (0.6, 0.8): squared distance 0.8; b's: squared distance 2.
	if math.Abs(norm-1) > 1e-6 || math.Abs(dist-(0.8+2)/2) > 1e-6 {
		t.Errorf("row 0 squared length %v, squared distance %v; want 1 and 1.4", norm, dist)
	}
	if one := joinVectors([]nn.Vectors{a}); &one.Data[0] != &a.Data[0] {
		t.Error("one set was copied")
	}
}

// TestLeastSureAsksByRawScores: once 4 labels a known class are typed, the first least sure ask
// is the free sample whose two highest label-spreading scores, before each row is normalised,
// are closest (small where two classes tie, and where the labels hardly reach: both scores
// small), not the one whose normalised scores' margin is smallest (they differ here: checked).
func TestLeastSureAsksByRawScores(t *testing.T) {
	slow(t)
	shortTraining(t, 1200)
	const n = 600
	ctx := context.Background()
	px, truth := shapes(n, 6, 4)
	d := dataset(px, unlabelled(n))
	o := Options{Seed: 2}
	s, err := NewSpace(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	labels := unlabelled(n)
	for c := range 6 { // 4 labels of each shape (100 samples a shape)
		for k := range 4 {
			i := c*100 + 25*k
			labels[i] = truth[i]
		}
	}
	ask, err := s.Ask(ctx, labels, 1, o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := learning(labels, n, o.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	nc := len(l.classes)
	raw, err := spreadScores(ctx, s.Graph, l.cls, nc)
	if err != nil {
		t.Fatal(err)
	}
	norm := slices.Clone(raw)
	normalizeRows(norm, nc)
	least := func(f []float32) int {
		best, at := float32(math.Inf(1)), -1
		for i := range n {
			if l.cls[i] < 0 {
				if a, b := top2(f[i*nc : (i+1)*nc]); a-b < best {
					best, at = a-b, i
				}
			}
		}
		return at
	}
	if len(ask) != 1 || ask[0] != least(raw) {
		t.Fatalf("asked %v, want sample %d (the smallest raw margin)", ask, least(raw))
	}
	if least(norm) == ask[0] {
		t.Errorf("the normalised margin asks sample %d too: this test cannot tell the two apart", ask[0])
	}
}
