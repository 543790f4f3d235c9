package neardup

import (
	"cmp"
	"slices"
)

// DefaultRatio bounds how close a match must be to count as a copy, relative to the nearest
// sample beyond it: its distance (1 − Similarity) at most this share of that sample's. A plain
// stroke (a vertical 1) is about as similar to several natural neighbours as to its best match
// (t10k's sample 3070 reaches 0.98 against six training 1s), so it is no copy of any of them.
// On real MNIST the pairs at or above 0.99 have uniqueness (1 − the share) of at most 0.68;
// planted copies (exact, shifted by 1 or 2 pixels, noise σ 4, 85% intensity, also of training
// 1s) at least 0.92 (bench/neardup).
const DefaultRatio = 0.25

// distFloor is the least distance (1 − Similarity) a match is given: an exact copy's 0 would make
// any other match, however close, look distinct from it.
const distFloor = 0.0005

// match is one verified candidate of a query: its number and distance, 1 − Similarity.
type match struct {
	j int32
	d float32
}

// copyGroup finds the query's copies among its verified candidates ms (k were asked for): the
// nearest few whose distances stand apart from the rest. Sorted nearest first, the group is the
// shortest prefix whose last distance d_p (at least distFloor) is at most ratio × the next
// one's, every member at or above the threshold (d_p ≤ 1 − threshold). Beyond the last
// candidate the next distance is taken as 2 × (1 − threshold): candidates beyond the descriptor
// bound (MaxDistance) were not verified, and on real MNIST none reached 0.98, twice the default
// threshold's distance. When all k candidates reach the threshold the group may reach beyond
// them (an image with many near-copies, as augmentation makes): they are its group whatever the
// ratio. With capped, the next distance is never taken as more than 2 × (1 − threshold) (the
// candidates are a sample without the images' natural neighbours). It returns the group's size
// (0: none) and the distance it stands apart from (the next one). ms is sorted in place.
func copyGroup(ms []match, k int, threshold, ratio float64, capped bool) (int, float64) {
	slices.SortFunc(ms, func(a, b match) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.j, b.j)) })
	limit := 1 - threshold
	for p := 1; p <= len(ms); p++ {
		dp := max(float64(ms[p-1].d), distFloor)
		if dp > limit+1e-9 {
			return 0, 0
		}
		next := 2 * limit
		if p < len(ms) && (!capped || float64(ms[p].d) < next) {
			next = float64(ms[p].d)
		}
		if dp <= ratio*next || p == k {
			return p, next
		}
	}
	return 0, 0
}

// uniqueness is 1 − d/next: how much closer a match at distance d is than the nearest sample
// beyond its copy group (1: infinitely, 0: no closer).
func uniqueness(d float32, next float64) float64 {
	if next <= 0 {
		return 0
	}
	return max(0, 1-max(float64(d), distFloor)/next)
}

// unionFind joins images into groups (4 bytes per image).
type unionFind struct{ parent []int32 }

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
	}
	return u
}

func (u *unionFind) find(i int32) int32 {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

// union joins the groups of i and j, and reports whether they were apart; a group's root is
// its lowest-numbered image.
func (u *unionFind) union(i, j int32) bool {
	a, b := u.find(i), u.find(j)
	if a == b {
		return false
	}
	if a > b {
		a, b = b, a
	}
	u.parent[b] = a
	return true
}

// roots returns the first image of each group of two or more, ascending.
func (u *unionFind) roots() []int {
	n := len(u.parent)
	many := make([]bool, n)
	for i := range n {
		if r := u.find(int32(i)); r != int32(i) {
			many[r] = true
		}
	}
	var out []int
	for i, m := range many {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// groups returns the groups of two or more images, each ascending (its root first), ordered
// by their first image.
func (u *unionFind) groups() [][]int32 {
	n := len(u.parent)
	size := make([]int32, n)
	for i := range n {
		size[u.find(int32(i))]++
	}
	var out [][]int32
	at := make([]int32, n) // a root's place in out, plus one
	for i := range n {
		r := u.find(int32(i))
		if size[r] < 2 {
			continue
		}
		if at[r] == 0 {
			out = append(out, make([]int32, 0, size[r]))
			at[r] = int32(len(out))
		}
		out[at[r]-1] = append(out[at[r]-1], int32(i))
	}
	return out
}

// GroupIDs numbers the groups of Within's pairs among n images: each image gets the first
// image of its group, an image in no pair its own number (4 bytes per image). It is the
// grouping suspect.CNNOptions.Groups takes.
func GroupIDs(pairs []Pair, n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	for _, p := range pairs {
		if p.A >= 0 && p.A < n && p.B >= 0 && p.B < n {
			ids[p.B] = int32(p.A)
		}
	}
	return ids
}
