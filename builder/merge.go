package builder

import (
	"fmt"
	"maps"
	"slices"
)

// Merge plans the pairs inputs appended in the order given into out: every sample once, in
// order. The class names are the union of the inputs' (mergeNames). Errors: those of
// mergeNames and checkTotal; the images' sizes and dtypes are checked by Write.
func Merge(inputs []*Input, out Pair) (*Plan, error) {
	total, err := checkTotal(inputs)
	if err != nil {
		return nil, err
	}
	names, err := mergeNames(inputs)
	if err != nil {
		return nil, err
	}
	samples := make([]int, total)
	for g := range samples {
		samples[g] = g
	}
	return &Plan{Inputs: inputs, Parts: []Part{{Out: out, Samples: samples}}, Names: names}, nil
}

// mergeNames returns the union of the inputs' class names (nil when none has any). Errors,
// naming both class-name files: a class named differently in two of them, or one name given to
// two classes (a merged dataset would show two classes as one).
func mergeNames(inputs []*Input) (map[int]string, error) {
	var names map[int]string
	from := map[int]string{}   // class → the file that named it
	byName := map[string]int{} // name → class
	for _, in := range inputs {
		for _, k := range slices.Sorted(maps.Keys(in.Names)) {
			s := in.Names[k]
			if names == nil {
				names = map[int]string{}
			}
			if old, ok := names[k]; ok && old != s {
				return nil, fmt.Errorf("%s names class %d %q, %s names it %q: a class number cannot mean two names; relabel one pair first (idxlabel subset --map)", in.NamesFile, k, s, from[k], old)
			}
			if c, ok := byName[s]; ok && c != k {
				return nil, fmt.Errorf("%s names class %d %q, %s gives that name to class %d: relabel one pair first (idxlabel subset --map)", in.NamesFile, k, s, from[c], c)
			}
			names[k], byName[s] = s, k
			if _, ok := from[k]; !ok {
				from[k] = in.NamesFile
			}
		}
	}
	return names, nil
}
