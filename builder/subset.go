package builder

import (
	"fmt"
	"maps"
	"slices"

	"idxlabel/sample"
)

// SubsetOptions choose the samples Subset keeps. The selections apply in this order: Indices,
// Exclude, Classes, PerClass, Max; then Relabel, then Shuffle.
type SubsetOptions struct {
	Indices  []int           // keep only these sample numbers (nil: every sample)
	Exclude  []int           // leave these out
	Classes  []int64         // keep only samples of these classes (column 0; nil: every class)
	PerClass int             // > 0: at most this many samples of each class, drawn by the seed
	Max      int             // > 0: at most this many samples in all, drawn by the seed
	Relabel  map[int64]int64 // class OLD is written as NEW (column 0 only)
	Shuffle  bool            // write them in a random order (else the input order)
	Seed     uint64          // the same seed keeps the same samples in the same order
}

// Subset plans the samples of in that o keeps into out. A class with fewer than PerClass
// samples keeps all of them and notice says so. Class names follow the samples: those of the
// classes kept (every class when Classes is nil), renumbered by Relabel; a class that Relabel
// gives two different names gets none, and notice says so. Errors: a sample number outside
// 0…N−1 in Indices or Exclude.
func Subset(in *Input, out Pair, o SubsetOptions, notice func(string)) (*Plan, error) {
	n := in.Shape.N
	keep := make([]bool, n)
	if o.Indices == nil {
		for i := range keep {
			keep[i] = true
		}
	}
	for _, list := range [][]int{o.Indices, o.Exclude} {
		for _, i := range list {
			if i < 0 || i >= n {
				return nil, fmt.Errorf("sample %d: %s has samples 0 to %d", i, in.Files.Images, n-1)
			}
		}
	}
	for _, i := range o.Indices {
		keep[i] = true
	}
	for _, i := range o.Exclude {
		keep[i] = false
	}
	if o.Classes != nil {
		for i := range keep {
			keep[i] = keep[i] && slices.Contains(o.Classes, in.Class(i))
		}
	}
	var samples []int
	for i, k := range keep {
		if k {
			samples = append(samples, i)
		}
	}
	r := newRand(o.Seed)
	if o.PerClass > 0 {
		groups, classes := byClass(in, samples)
		for _, c := range o.Classes {
			if !slices.Contains(classes, c) {
				classes = append(classes, c)
			}
		}
		slices.Sort(classes)
		samples = samples[:0]
		for _, c := range classes {
			g := groups[c]
			if len(g) < o.PerClass {
				notice(fmt.Sprintf("class %s has %d samples, fewer than --per-class %d: all %d kept", ClassName(c, in.Names), len(g), o.PerClass, len(g)))
			}
			samples = append(samples, draw(r, g, o.PerClass)...)
		}
		slices.Sort(samples)
	}
	if o.Max > 0 {
		samples = draw(r, samples, o.Max)
	}
	if o.Shuffle {
		r.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	}
	return &Plan{Inputs: []*Input{in}, Parts: []Part{{out, samples}}, Relabel: o.Relabel, Names: subsetNames(in.Names, o, notice)}, nil
}

// subsetNames returns the class names of a subset: those of the classes kept, renumbered.
func subsetNames(names map[int]string, o SubsetOptions, notice func(string)) map[int]string {
	if len(names) == 0 {
		return nil
	}
	out := map[int]string{}
	clash := map[int]bool{}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		if o.Classes != nil && !slices.Contains(o.Classes, int64(k)) {
			continue
		}
		nk := k
		if v, ok := o.Relabel[int64(k)]; ok {
			nk = int(v)
		}
		if s, ok := out[nk]; ok && s != names[k] || clash[nk] {
			if !clash[nk] {
				notice(fmt.Sprintf("class %d would be named both %q and %q after --map: it is written without a name", nk, s, names[k]))
			}
			clash[nk] = true
			delete(out, nk)
			continue
		}
		out[nk] = names[k]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ClassName is class c for messages: "3", "3 (three)" with a name in names, "unlabelled" for
// sample.NoLabel.
func ClassName(c int64, names map[int]string) string {
	if c == sample.NoLabel {
		return "unlabelled"
	}
	if s, ok := names[int(c)]; ok {
		return fmt.Sprintf("%d (%s)", c, s)
	}
	return fmt.Sprint(c)
}
