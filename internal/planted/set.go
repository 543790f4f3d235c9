package planted

import (
	"math/rand/v2"
	"slices"
)

// Plan says how many cases Plant writes of each kind.
type Plan struct {
	Outliers   int // non-digits (Outliers), each given a random label
	Duplicates int // copies of other samples of the set (Copy, the kinds of CopyKinds in turn)
	Leaks      int // copies of samples of the other set
	Flips      int // labels changed to another class at random
}

// Set is a 28×28 dataset with planted cases, and where each went.
type Set struct {
	N          int
	Pixels     []byte         // N×28×28
	Labels     []int          // N
	Outliers   map[int]string // place → kind (one of OutlierKinds)
	Duplicates map[int]int    // place → the sample of the set it copies (never itself a place)
	Leaks      map[int]int    // place → the sample of the other set it copies
	Flips      map[int]int    // place → its true label
}

// pixels28 returns sample i of a N×28×28 byte array.
func pixels28(a []byte, i int) []byte { return a[i*Side*Side : (i+1)*Side*Side] }

// Plant copies the n samples of images (n×28×28) and labels and writes plan's cases over
// distinct random places with rng: non-digits, copies of samples of the set, copies of samples
// of other (otherN×28×28, with otherLabels; may be nil when plan.Leaks is 0) and flipped
// labels. A copy takes its source's label; every place and every copied sample of the set is
// used once.
func Plant(rng *rand.Rand, images, labels []byte, n int, other, otherLabels []byte, otherN int, plan Plan) *Set {
	s := &Set{N: n, Pixels: slices.Clone(images[:n*Side*Side]), Labels: make([]int, n),
		Outliers: map[int]string{}, Duplicates: map[int]int{}, Leaks: map[int]int{}, Flips: map[int]int{}}
	for i := range n {
		s.Labels[i] = int(labels[i])
	}
	used := map[int]bool{}
	free := func() int {
		for {
			if i := rng.IntN(n); !used[i] {
				used[i] = true
				return i
			}
		}
	}
	digits := func(i int) []byte { return pixels28(images, i) }
	for _, o := range Outliers(rng, plan.Outliers, digits, n) {
		i := free()
		copy(pixels28(s.Pixels, i), o.Pixels)
		s.Labels[i] = rng.IntN(10)
		s.Outliers[i] = o.Kind
	}
	for k := range plan.Duplicates {
		src, at := free(), free()
		copy(pixels28(s.Pixels, at), Copy(rng, digits(src), CopyKinds[k%len(CopyKinds)]))
		s.Labels[at] = s.Labels[src]
		s.Duplicates[at] = src
	}
	for k := range plan.Leaks {
		src, at := rng.IntN(otherN), free()
		copy(pixels28(s.Pixels, at), Copy(rng, pixels28(other, src), CopyKinds[k%len(CopyKinds)]))
		s.Labels[at] = int(otherLabels[src])
		s.Leaks[at] = src
	}
	for range plan.Flips {
		i := free()
		s.Flips[i] = s.Labels[i]
		s.Labels[i] = (s.Labels[i] + 1 + rng.IntN(9)) % 10
	}
	return s
}
