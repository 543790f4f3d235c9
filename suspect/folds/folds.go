// Package folds deals labelled samples into stratified folds for cross-validation and
// cross-fitting (the CNN scan's folds, a model's calibration folds, the halves the labelling
// loop holds out), and gives each fold's complement, what a model that must not see the fold
// learns from. It imports nothing of the program.
package folds

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// Stratified deals the labelled samples (indices, any order) into k folds. Each group's samples
// (groups[i] is sample i's group, any numbering; nil: every sample a group of its own) go to one
// fold together. Class by class (cls[i] is sample i's class index; a group's class is its first
// sample's), in ascending class order, the groups are shuffled with the seed, stably sorted
// larger first, and each goes to the fold with the fewest samples so far, ties to the next in
// turn after the last fold dealt to; so the folds differ in size by less than the largest group
// and hold nearly the same class mix. Without groups of two or more this is a round-robin deal
// continuing from class to class: fold sizes within one of each other, and each class's samples
// within one of an equal share. Each fold comes back ascending. The same inputs and seed give
// the same folds. k ≥ 1. Growth: O(L log L) for L labelled samples, O(L) memory.
func Stratified(labelled, cls []int, groups []int32, k int, seed uint64) [][]int {
	units := unitsOf(labelled, groups)
	byClass := make([]int, len(units)) // the units, by class then in order of their first sample
	for u := range byClass {
		byClass[u] = u
	}
	classOf := func(u int) int { return cls[units[u][0]] }
	slices.SortStableFunc(byClass, func(a, b int) int { return cmp.Compare(classOf(a), classOf(b)) })
	rng := rand.New(rand.NewPCG(seed, 0))
	folds := make([][]int, k)
	next := 0
	for lo := 0; lo < len(byClass); {
		hi := lo + 1
		for hi < len(byClass) && classOf(byClass[hi]) == classOf(byClass[lo]) {
			hi++
		}
		us := byClass[lo:hi]
		rng.Shuffle(len(us), func(a, b int) { us[a], us[b] = us[b], us[a] })
		slices.SortStableFunc(us, func(a, b int) int { return len(units[b]) - len(units[a]) })
		for _, u := range us {
			f := next
			for m := range k {
				if at := (next + m) % k; len(folds[at]) < len(folds[f]) {
					f = at
				}
			}
			folds[f] = append(folds[f], units[u]...)
			next = (f + 1) % k
		}
		lo = hi
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// unitsOf returns the labelled samples grouped: each group's samples in the order given, the
// groups in the order of their first sample; nil groups make each sample a unit of its own.
func unitsOf(labelled []int, groups []int32) [][]int {
	units := make([][]int, 0, len(labelled))
	if groups == nil {
		for k := range labelled {
			units = append(units, labelled[k:k+1:k+1])
		}
		return units
	}
	at := map[int32]int{}
	for _, i := range labelled {
		u, ok := at[groups[i]]
		if !ok {
			u = len(units)
			at[groups[i]] = u
			units = append(units, nil)
		}
		units[u] = append(units[u], i)
	}
	return units
}

// Rest returns the samples of all (ascending) that are not in fold (ascending), ascending: what
// a model that must not see the fold learns from. O(len(all) + len(fold)).
func Rest(all, fold []int) []int {
	out := make([]int, 0, max(0, len(all)-len(fold)))
	d := 0
	for _, i := range all {
		for d < len(fold) && fold[d] < i {
			d++
		}
		if d < len(fold) && fold[d] == i {
			continue
		}
		out = append(out, i)
	}
	return out
}
