package builder

import (
	"math/rand/v2"
	"slices"
)

// newRand returns the random source of a seed: PCG (math/rand/v2), so the same seed draws the
// same samples on every platform.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// draw returns k of samples chosen at random by r (all of them when k ≥ len(samples)), in the
// order they have in samples. samples is not changed.
func draw(r *rand.Rand, samples []int, k int) []int {
	if k >= len(samples) {
		return slices.Clone(samples)
	}
	idx := r.Perm(len(samples))[:k]
	slices.Sort(idx)
	out := make([]int, k)
	for j, i := range idx {
		out[j] = samples[i]
	}
	return out
}

// byClass groups the samples given by their class (column 0 of the labels; sample.NoLabel, the
// unlabelled samples, is a class of its own), each group in the order of samples, and returns
// the classes sorted.
func byClass(in *Input, samples []int) (map[int64][]int, []int64) {
	groups := map[int64][]int{}
	for _, i := range samples {
		c := in.Class(i)
		groups[c] = append(groups[c], i)
	}
	classes := make([]int64, 0, len(groups))
	for c := range groups {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	return groups, classes
}

// all returns 0…n−1.
func all(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
