package suspect

import (
	"hash/maphash"
	"math"
	"slices"

	"idxlabel/suspect/nn"
)

// DuplicateRMS is the largest root-mean-square pixel difference (grey levels, 0–255) at which two
// samples count as near duplicates.
const DuplicateRMS = 12.0

// Duplicate is a pair of samples whose pixels are identical or nearly so.
type Duplicate struct {
	A, B      int     // sample indices, A < B
	Distance  float64 // root-mean-square pixel difference, grey levels (0 = identical)
	SameLabel bool
}

// duplicates finds exact duplicates (equal pixels, by hash, whatever their distance rank) and
// near duplicates among each sample's nearest neighbours, ranked: exact duplicates with different
// labels first, then by distance.
func duplicates(d Data, nb *nn.Graph) []Duplicate {
	seen := map[[2]int]bool{}
	var out []Duplicate
	add := func(a, b int, dist float64) {
		if a > b {
			a, b = b, a
		}
		key := [2]int{a, b}
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, Duplicate{A: a, B: b, Distance: dist, SameLabel: d.Labels[a] == d.Labels[b]})
	}
	seed := maphash.MakeSeed()
	groups := map[uint64][]int{}
	for i := range d.N {
		h := maphash.Bytes(seed, d.Pixels(i))
		groups[h] = append(groups[h], i)
	}
	for _, g := range groups {
		for x := 0; x < len(g); x++ {
			for y := x + 1; y < len(g); y++ {
				if slices.Equal(d.Pixels(g[x]), d.Pixels(g[y])) {
					add(g[x], g[y], 0)
				}
			}
		}
	}
	for i := range d.N {
		idx, _ := nb.Of(i)
		for _, j := range idx {
			if j < 0 {
				continue
			}
			if r := rms(d.Pixels(i), d.Pixels(int(j))); r <= DuplicateRMS {
				add(i, int(j), r)
			}
		}
	}
	slices.SortFunc(out, func(a, b Duplicate) int {
		ea, eb := a.Distance == 0 && !a.SameLabel, b.Distance == 0 && !b.SameLabel
		switch {
		case ea != eb && ea:
			return -1
		case ea != eb:
			return 1
		case a.Distance < b.Distance:
			return -1
		case a.Distance > b.Distance:
			return 1
		}
		return a.A - b.A
	})
	return out
}

// rms is the root-mean-square difference of two pixel vectors.
func rms(a, b []byte) float64 {
	var s int
	for k := range a {
		d := int(a[k]) - int(b[k])
		s += d * d
	}
	return math.Sqrt(float64(s) / float64(len(a)))
}
