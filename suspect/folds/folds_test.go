package folds

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStratified checks the deal without groups: every labelled sample in exactly one fold,
// fold sizes within one of each other, each class spread evenly, and the same seed giving the
// same folds.
func TestStratified(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 1003
	cls := make([]int, n)
	var labelled []int
	for i := range cls {
		cls[i] = -1
		if i%17 != 0 {
			cls[i] = rng.IntN(4)
			labelled = append(labelled, i)
		}
	}
	folds := Stratified(labelled, cls, nil, 5, 7)
	seen := map[int]bool{}
	for f, fold := range folds {
		perClass := map[int]int{}
		for _, i := range fold {
			if seen[i] || cls[i] < 0 {
				t.Fatalf("sample %d dealt twice or unlabelled", i)
			}
			seen[i] = true
			perClass[cls[i]]++
		}
		if d := len(fold) - len(labelled)/5; d < 0 || d > 1 {
			t.Errorf("fold %d has %d samples of %d", f, len(fold), len(labelled))
		}
		for c := range 4 {
			total := 0
			for _, i := range labelled {
				if cls[i] == c {
					total++
				}
			}
			if d := perClass[c] - total/5; d < -1 || d > 1 {
				t.Errorf("fold %d has %d of class %d's %d samples", f, perClass[c], c, total)
			}
		}
	}
	if len(seen) != len(labelled) {
		t.Fatalf("%d of %d samples dealt", len(seen), len(labelled))
	}
	if !slices.EqualFunc(folds, Stratified(labelled, cls, nil, 5, 7), slices.Equal) {
		t.Fatal("the same seed dealt different folds")
	}
	if slices.EqualFunc(folds, Stratified(labelled, cls, nil, 5, 8), slices.Equal) {
		t.Fatal("another seed dealt the same folds")
	}
}

// TestStratifiedGroups: every group lands in one fold, folds differ in size by less than the
// largest group, every labelled sample is dealt once; groups of one sample each are dealt as
// no groups are.
func TestStratifiedGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const n = 3000
	cls, groups := make([]int, n), make([]int32, n)
	var labelled []int
	for i := 0; i < n; {
		size := 1 + rng.IntN(30)
		c := rng.IntN(4)
		for m := 0; m < size && i < n; m++ {
			cls[i], groups[i] = c, int32(n-i+m) // any numbering: a group is a value
			if i%19 == 0 {
				cls[i] = -1
			} else {
				labelled = append(labelled, i)
			}
			i++
		}
	}
	folds := Stratified(labelled, cls, groups, 3, 7)
	foldOf := map[int32]int{}
	dealt := 0
	for f, fold := range folds {
		for _, i := range fold {
			if g, ok := foldOf[groups[i]]; ok && g != f {
				t.Fatalf("group %d in folds %d and %d", groups[i], g, f)
			}
			foldOf[groups[i]] = f
			dealt++
		}
	}
	sizes := []int{len(folds[0]), len(folds[1]), len(folds[2])}
	if dealt != len(labelled) || slices.Max(sizes)-slices.Min(sizes) > 30 {
		t.Errorf("dealt %d of %d; fold sizes %v", dealt, len(labelled), sizes)
	}
	own := make([]int32, n)
	for i := range own {
		own[i] = int32(i)
	}
	if !slices.EqualFunc(Stratified(labelled, cls, own, 5, 9), Stratified(labelled, cls, nil, 5, 9), slices.Equal) {
		t.Error("singleton groups dealt otherwise than no groups")
	}
}

// TestRest: a fold's complement, ascending, whatever the fold holds of it.
func TestRest(t *testing.T) {
	all := []int{1, 3, 4, 7, 9, 12}
	for _, c := range []struct{ fold, want []int }{
		{nil, all},
		{[]int{3, 9}, []int{1, 4, 7, 12}},
		{[]int{0, 1, 2, 12, 13}, []int{3, 4, 7, 9}},
		{all, []int{}},
	} {
		if got := Rest(all, c.fold); !slices.Equal(got, c.want) {
			t.Errorf("Rest(%v, %v) = %v, want %v", all, c.fold, got, c.want)
		}
	}
}
