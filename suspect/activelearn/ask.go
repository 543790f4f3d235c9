package activelearn

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"idxlabel/sample"
)

// Ask settings.
const (
	// maxClusters bounds the fine clusters of a space and the groups of an ask (labels typed
	// plus asked), so their cost stays O(N·maxClusters) however many samples and labels there
	// are.
	maxClusters = 1000
	// minCluster is the fewest samples a cluster needs for its typical sample to be asked for:
	// smaller ones are outliers, not a part of a class (TypiClust drops them too).
	minCluster = 5
)

// askPerClass is the labels a known class need before the asks turn from typical samples of
// clusters without labels to the least sure suggestions: measured on t10k with the pixels'
// features (rounds of 20), the spread labels after 100 were 96.2% right with typical samples
// alone, 97.5% turning at 40 labels (4 a class), 97.4% at 20, 97.3% at 60; with the learnt
// features (10, 10, 30, 50 asks, seed 1), the networks' suggestions at 100 labels 98.4% right
// turning at 4 a class or with typical samples alone, 98.1% asking half of each.
const askPerClass = 4

// Ask returns the n unlabelled samples of d (labels in d.Labels, sample.NoLabel for none)
// whose labels would help most now, most useful first: Space.Ask on d's space (NewSpace, computed
// for this call). Errors: those of NewSpace and Space.Ask.
func Ask(ctx context.Context, d sample.Set, n int, opts Options) ([]int, error) {
	if n < 0 {
		return nil, fmt.Errorf("asked for %d samples", n)
	}
	if len(d.Labels) != d.N {
		return nil, fmt.Errorf("%d labels for %d samples", len(d.Labels), d.N)
	}
	lab, err := newLabelling(d.Labels)
	if err != nil {
		return nil, err
	}
	if min(n, d.N-len(lab.labelled)) <= 0 {
		return []int{}, nil
	}
	s, err := spaceOf(ctx, d, opts)
	if err != nil {
		return nil, err
	}
	return s.Ask(ctx, d.Labels, n, opts)
}

// Ask returns the n unlabelled samples (labels holds N labels, sample.NoLabel for none; the
// ones opts.Accepted marks are accepted suggestions) whose labels would help most now, most
// useful first. While fewer than 4 typed labels a known class are typed (or fewer than 2
// classes), the most typical unlabelled sample of each group of the space that holds no label
// yet, largest group first, with the fine clusters joined into as many groups as there will be
// labels (TypiClust, Hacohen et al. 2022, on the space's groups): with no labels at all, one
// typical sample of each of the n largest groups, which are the classes when the classes are
// islands of the map. Then the samples whose suggestion (label spreading of the typed labels)
// is least sure, at most one per group a round: the smallest margin between its two highest
// spread scores before they are normalised, small where two classes tie and where the labels
// hardly reach (both scores small). Measured on t10k at 100 labels (asks 10, 10, 30, 50; three
// seeds, three training seeds of the suggestions) and on the 60,000 training digits, the
// refined suggestions erred on 309.0 and 676 / 711 samples with this margin, 313.3 and 681 /
// 734 with the normalised scores' (bench/suggest/README.md). Fewer than n come back when fewer are unlabelled. Errors: labels or marks not
// N long, more than cnn.MaxClasses classes, n < 0, or the context's error when cancelled.
func (s *Space) Ask(ctx context.Context, labels []int, n int, opts Options) ([]int, error) {
	return s.AskFrom(ctx, labels, n, nil, opts)
}

// AskFrom is Ask with the least sure samples ranked by a round's probabilities (from: e.g.
// Refine's, whose margins are better than the spreading's) when they are of the typed labels'
// classes now; nil, or a round of other classes, ranks them by label spreading as Ask does.
func (s *Space) AskFrom(ctx context.Context, labels []int, n int, from *Suggestions, opts Options) ([]int, error) {
	if n < 0 {
		return nil, fmt.Errorf("asked for %d samples", n)
	}
	o := opts.withDefaults()
	lab, err := typedLabelling(labels, s.N(), o.Accepted)
	if err != nil {
		return nil, err
	}
	var probs []float32
	if from != nil && slices.Equal(from.Classes, lab.classes) && len(from.Probs) == s.N()*len(lab.classes) {
		probs = from.Probs
	}
	free := make([]bool, s.N()) // no label, typed or accepted
	left := 0
	for i, v := range labels {
		free[i] = v == sample.NoLabel
		if free[i] {
			left++
		}
	}
	n = min(n, left)
	if n <= 0 {
		return []int{}, nil
	}
	o.report("clusters", 0)
	cluster, k := s.groups(min(len(lab.labelled)+n, maxClusters))
	size := make([]int, k)
	for _, c := range cluster {
		size[c]++
	}
	covered := make([]bool, k)
	for _, i := range lab.labelled {
		covered[cluster[i]] = true
	}
	// The most typical unlabelled sample of each group.
	best := make([]int, k)
	for c := range best {
		best[c] = -1
	}
	for i, c := range cluster {
		if free[i] && (best[c] < 0 || s.typical[i] > s.typical[best[c]]) {
			best[c] = i
		}
	}
	order := make([]int, k)
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	typical := len(lab.classes) < 2 || len(lab.labelled) < askPerClass*len(lab.classes)
	picked := make([]bool, s.N())
	var out []int
	take := func(i int) {
		picked[i] = true
		out = append(out, i)
	}
	for _, c := range order {
		if len(out) < n && typical && !covered[c] && best[c] >= 0 && size[c] >= minCluster {
			take(best[c])
		}
	}
	if len(out) == n {
		return out, nil
	}
	// The rest: least sure first, one per group a round; by typicality while fewer than two
	// classes are known (nothing to be unsure between).
	o.report("uncertainty", 0)
	rank := make([]float64, s.N()) // lower first
	if len(lab.classes) >= 2 {
		f := probs
		if f == nil {
			var err error
			if f, err = spreadScores(ctx, s.Graph, lab.cls, len(lab.classes)); err != nil {
				return nil, err
			}
		}
		nc := len(lab.classes)
		for i := range s.N() {
			a, b := top2(f[i*nc : (i+1)*nc])
			rank[i] = float64(a - b)
		}
	} else {
		for i := range s.N() {
			rank[i] = -s.typical[i]
		}
	}
	cand := make([]int, 0, s.N())
	for i := range s.N() {
		if free[i] && !picked[i] {
			cand = append(cand, i)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(rank[a], rank[b]) })
	for len(out) < n && len(cand) > 0 {
		used := make([]bool, k)
		rest := cand[:0]
		for _, i := range cand {
			if len(out) < n && !used[cluster[i]] {
				used[cluster[i]] = true
				take(i)
			} else if !picked[i] {
				rest = append(rest, i)
			}
		}
		cand = rest
	}
	return out, nil
}

// top2 returns the two highest values of p, highest first.
func top2(p []float32) (a, b float32) {
	a, b = -1, -1
	for _, v := range p {
		if v > a {
			a, b = v, a
		} else if v > b {
			b = v
		}
	}
	return a, max(b, 0)
}
