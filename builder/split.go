package builder

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// SplitOptions choose how Split divides the samples.
type SplitOptions struct {
	Test        float64 // the share of samples in the test part, 0 < Test < 1; used when TestCount < 0
	TestCount   int     // the number of samples in the test part, 0…N; < 0: use Test
	Stratify    bool    // each class's share of the test part within one sample of the fraction
	GroupColumn int     // ≥ 0: the label column whose value names a sample's group, kept whole; < 0: none
	Shuffle     bool    // write each part in a random order (else the input order)
	Seed        uint64  // the same seed gives the same split
}

// Split plans in's samples into train and test: together they hold every sample exactly once.
// The test part holds round(Test·N) samples (or TestCount), chosen at random by the seed; with
// Stratify each class's count there is ⌊t·n_c/N⌋ or one more (the extra samples go to the
// classes with the largest remainders, ties drawn by the seed), so within one sample of the
// fraction; unlabelled samples (sample.NoLabel) are a class of their own. With a group column the
// groups are kept whole: drawn in a random order, each goes to the test part when that brings
// the test part's counts (per class with Stratify) closer to their targets, so the shares are
// near the fraction, not within one sample. The class names go to both parts. Errors: a
// fraction outside (0, 1), a count outside 0…N, a group column the labels do not have; a
// *SplitError when the parts cannot be what was asked: either part would be empty (0 samples
// in all, a fraction that rounds to 0 or N, a count of 0 or N, whole groups that fall all on
// one side), or whole groups give a test part more than half the count asked (and more than
// one sample) away from it.
func Split(in *Input, train, test Pair, o SplitOptions) (*Plan, error) {
	n := in.Shape.N
	t := o.TestCount
	if t < 0 {
		if !(o.Test > 0 && o.Test < 1) {
			return nil, fmt.Errorf("the test fraction %v is not between 0 and 1", o.Test)
		}
		t = int(math.Round(o.Test * float64(n)))
	} else if t > n {
		return nil, fmt.Errorf("a test part of %d samples: %s has %d", t, in.Files.Images, n)
	}
	if o.GroupColumn >= in.Columns() {
		return nil, fmt.Errorf("%s: label rows of %d values have no column %d (columns count from 0)", in.Files.Labels, in.Columns(), o.GroupColumn)
	}
	share := o.Test
	if o.TestCount >= 0 {
		share = float64(t) / float64(max(n, 1))
	}
	r := newRand(o.Seed)
	var isTest []bool
	if o.GroupColumn >= 0 {
		isTest = splitGroups(in, t, o, r.Perm)
	} else {
		isTest = splitSamples(in, t, share, o.Stratify, r)
	}
	if err := checkParts(in, t, isTest, o); err != nil {
		return nil, err
	}
	var trainS, testS []int
	for i, x := range isTest {
		if x {
			testS = append(testS, i)
		} else {
			trainS = append(trainS, i)
		}
	}
	if o.Shuffle {
		r.Shuffle(len(trainS), func(i, j int) { trainS[i], trainS[j] = trainS[j], trainS[i] })
		r.Shuffle(len(testS), func(i, j int) { testS[i], testS[j] = testS[j], testS[i] })
	}
	return &Plan{Inputs: []*Input{in}, Parts: []Part{{train, trainS}, {test, testS}}, Names: in.Names}, nil
}

// SplitError says why a split cannot give the parts asked for, naming the label file: it is
// the samples' fault, not the request's (a fraction or count that is valid in itself).
type SplitError struct {
	File string // the input's label file
	Why  string
}

func (e *SplitError) Error() string { return e.File + ": " + e.Why }

// checkParts returns a *SplitError when the split isTest of in cannot stand for a test part of
// t samples: a part is empty, or (groups kept whole) the test part is more than max(1, t/2)
// samples from t.
func checkParts(in *Input, t int, isTest []bool, o SplitOptions) error {
	n := in.Shape.N
	got := 0
	for _, x := range isTest {
		if x {
			got++
		}
	}
	fail := func(format string, a ...any) error {
		return &SplitError{File: in.Files.Labels, Why: fmt.Sprintf(format, a...)}
	}
	switch {
	case n == 0:
		return fail("0 samples: nothing to split")
	case t == 0 && o.TestCount < 0:
		return fail("a test part of %g of %d samples rounds to 0 samples: the test part would be empty", o.Test, n)
	case t == 0:
		return fail("a test part of 0 samples: the test part would be empty")
	case t == n:
		return fail("a test part of all %d samples: the train part would be empty", n)
	}
	if o.GroupColumn < 0 || (got > 0 && got < n && abs(got-t) <= max(1, t/2)) {
		return nil
	}
	groups := map[int64]int{}
	for i := range n {
		groups[in.Labels.Int(i*in.Columns()+o.GroupColumn)]++
	}
	largest := 0
	for _, c := range groups {
		largest = max(largest, c)
	}
	why := fmt.Sprintf("keeping whole the %d groups of label column %d (the largest of %d samples) gives a test part of %d samples, far from the %d asked (%.1f%% of %d)",
		len(groups), o.GroupColumn, largest, got, t, 100*float64(t)/float64(n), n)
	if o.Stratify {
		why += "; with stratify each class's share comes from whole groups"
		if o.GroupColumn == 0 {
			why += ", and column 0 is the class itself: every group is a whole class, which never lies near a share of itself"
		}
	}
	return fail("%s", why)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// splitSamples marks t samples of in as test: t drawn from all, or per class (stratify): each
// class gets ⌊share·n_c⌋ or ⌈share·n_c⌉ (share the fraction, or t/N for a count), the classes
// with the largest remainders the larger, so that the counts add up to t.
func splitSamples(in *Input, t int, share float64, stratify bool, r *rand.Rand) []bool {
	n := in.Shape.N
	isTest := make([]bool, n)
	if !stratify {
		for _, i := range r.Perm(n)[:t] {
			isTest[i] = true
		}
		return isTest
	}
	groups, classes := byClass(in, all(n))
	want := make([]int, len(classes))
	rem := make([]float64, len(classes))
	sum := 0
	for k, c := range classes {
		ideal := share * float64(len(groups[c]))
		want[k] = int(math.Floor(ideal))
		rem[k] = ideal - float64(want[k])
		sum += want[k]
	}
	order := r.Perm(len(classes)) // ties between equal remainders are drawn by the seed
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rem[b], rem[a]) })
	for j := 0; sum < t; j = (j + 1) % len(order) {
		if k := order[j]; want[k] < len(groups[classes[k]]) {
			want[k]++
			sum++
		}
	}
	for j := len(order) - 1; sum > t; j = (j - 1 + len(order)) % len(order) { // rounding of share·n_c
		if k := order[j]; want[k] > 0 {
			want[k]--
			sum--
		}
	}
	for k, c := range classes {
		members := groups[c]
		for _, j := range r.Perm(len(members))[:want[k]] {
			isTest[members[j]] = true
		}
	}
	return isTest
}

// splitGroups marks whole groups (the value of label column o.GroupColumn) as test, greedily in
// an order drawn by perm: a group goes to the test part when that lowers the squared distance
// of the test part's counts (per class with o.Stratify, else in all) to t·n_c/N.
func splitGroups(in *Input, t int, o SplitOptions, perm func(int) []int) []bool {
	n := in.Shape.N
	cols := in.Columns()
	type group struct {
		members []int
		counts  map[int64]int
	}
	index := map[int64]int{}
	var groups []*group
	total := map[int64]int{}
	for i := range n {
		id := in.Labels.Int(i*cols + o.GroupColumn)
		k, ok := index[id]
		if !ok {
			k = len(groups)
			index[id] = k
			groups = append(groups, &group{counts: map[int64]int{}})
		}
		c := int64(0)
		if o.Stratify {
			c = in.Class(i)
		}
		groups[k].members = append(groups[k].members, i)
		groups[k].counts[c]++
		total[c]++
	}
	target := map[int64]float64{}
	for c, nc := range total {
		target[c] = float64(t) * float64(nc) / float64(max(n, 1))
	}
	cur := map[int64]float64{}
	isTest := make([]bool, n)
	for _, k := range perm(len(groups)) {
		g := groups[k]
		classes := slices.Sorted(maps.Keys(g.counts)) // a fixed order: the same sums, the same split
		delta := 0.0
		for _, c := range classes {
			v := float64(g.counts[c])
			delta += 2*(cur[c]-target[c])*v + v*v
		}
		if delta >= 0 {
			continue
		}
		for _, c := range classes {
			cur[c] += float64(g.counts[c])
		}
		for _, i := range g.members {
			isTest[i] = true
		}
	}
	return isTest
}
