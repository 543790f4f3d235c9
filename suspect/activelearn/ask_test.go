package activelearn

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/sample"
)

// TestAskFromRanksByTheRound: past the typical samples (5 typed labels a class of six generated
// shapes), AskFrom asks for the free sample a round's ranking (Suggestions.Unsure) puts lowest
// first, then one a group a round in its order, never a labelled sample nor one twice; another
// ranking asks for other samples; a round of other classes, or a ranking of another length, is
// not used (Ask's asks, by label spreading); Refine gives every sample a finite rank, the
// margins of its calibrated probabilities (askUnsure), and AskFrom on it asks what the same
// margins ask. Asks that ignore the round, or a refinement that no longer ranks, fail here.
func TestAskFromRanksByTheRound(t *testing.T) {
	slow(t)
	shortTraining(t, 3000)
	const n, classes = 600, 6
	ctx := context.Background()
	px, truth := shapes(n, classes, 8)
	d := dataset(px, unlabelled(n))
	opts := Options{Seed: 4}
	s, err := NewSpace(ctx, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	labels := unlabelled(n)
	for c := range classes {
		for k := range 5 {
			i := c*n/classes + 13*k
			labels[i] = truth[i]
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	unsure := make([]float32, n)
	for i := range unsure {
		unsure[i] = rng.Float32()
	}
	from := &Suggestions{Classes: []int{0, 1, 2, 3, 4, 5}, Unsure: unsure}
	const k = 12
	ask, err := s.AskFrom(ctx, labels, k, from, opts)
	if err != nil {
		t.Fatal(err)
	}
	lowest := -1
	for i, l := range labels {
		if l == sample.NoLabel && (lowest < 0 || unsure[i] < unsure[lowest]) {
			lowest = i
		}
	}
	if len(ask) != k || ask[0] != lowest {
		t.Fatalf("asked %v; want %d, the free sample ranked lowest, first", ask, lowest)
	}
	group, _ := s.groups(countLabelled(labels) + k)
	used := map[int32]bool{}
	for m, i := range ask {
		if labels[i] != sample.NoLabel || slices.Contains(ask[:m], i) {
			t.Fatalf("asked %v: sample %d labelled or asked twice", ask, i)
		}
		if used[group[i]] {
			break // the second round of groups
		}
		used[group[i]] = true
		if m > 0 && unsure[i] < unsure[ask[m-1]] {
			t.Errorf("asked %v: %d (%.3f) after %d (%.3f) in the first round of groups", ask, i, unsure[i], ask[m-1], unsure[ask[m-1]])
		}
	}
	flipped := make([]float32, n)
	for i, u := range unsure {
		flipped[i] = 1 - u
	}
	other, err := s.AskFrom(ctx, labels, k, &Suggestions{Classes: from.Classes, Unsure: flipped}, opts)
	if err != nil || slices.Equal(other, ask) {
		t.Errorf("the ranking reversed asked %v (%v), as before", other, err)
	}
	plain, err := s.Ask(ctx, labels, k, opts)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*Suggestions{
		"other classes": {Classes: []int{0, 1, 2, 3, 4, 7}, Unsure: unsure},
		"other length":  {Classes: from.Classes, Unsure: unsure[:n-1]},
	} {
		if got, err := s.AskFrom(ctx, labels, k, f, opts); err != nil || !slices.Equal(got, plain) {
			t.Errorf("%s: asked %v (%v), Ask %v", name, got, err, plain)
		}
	}
	r, err := s.Refine(ctx, d, labels, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Unsure) != n {
		t.Fatalf("Refine ranked %d samples of %d", len(r.Unsure), n)
	}
	want := askUnsure(r.Probs, len(r.Classes))
	if !slices.Equal(r.Unsure, want) {
		t.Error("Refine's ranking is not the margins of its probabilities")
	}
	got, err := s.AskFrom(ctx, labels, k, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	same, err := s.AskFrom(ctx, labels, k, &Suggestions{Classes: r.Classes, Unsure: want}, opts)
	if err != nil || !slices.Equal(got, same) || slices.Equal(got, plain) {
		t.Errorf("asked %v from the refined round, %v from its margins (%v), %v by spreading", got, same, err, plain)
	}
}
