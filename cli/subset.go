package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"idxlabel/builder"
)

// runSubset writes the samples of IMAGES LABELS that its options keep (builder.Subset): by
// class (--classes, numbers or names), a count per class drawn by the seed (--per-class; a class
// with fewer keeps all and says so on stderr), a total (--max), an index file (--indices) or all
// but one (--exclude), relabelled on the way (--map OLD:NEW,...) and in a random order with
// --shuffle. --per-class and --max take a count of 1 or more (left out: no limit). The
// outputs are written as buildRun writes them.
func runSubset(c *cli, args []string) error {
	fs := c.flags("subset")
	classes := fs.String("classes", "", "keep only these classes: numbers or class names, comma-separated (3,8 or cat,dog)")
	perClass := fs.Int("per-class", 0, "keep at most N samples of each class (1 or more), drawn by the seed; without it, every sample of each class")
	maxN := fs.Int("max", 0, "keep at most N samples in all (1 or more), drawn by the seed; without it, no limit")
	indices := fs.String("indices", "", "keep only the samples listed in FILE: one 0-based index a line, or CSV with an index column (what check, diff and suspects print)")
	exclude := fs.String("exclude", "", "leave out the samples listed in FILE (same format as --indices)")
	mapping := fs.String("map", "", "relabel class OLD as NEW (column 0 of the labels), OLD:NEW,... (3:0,8:1 makes a binary set)")
	shuffle := fs.Bool("shuffle", false, "write the samples in a random order drawn by the seed (else the input order)")
	seed := seedFlag(fs)
	force := fs.Bool("force", false, "replace output files that exist (never a pair whose journal holds unsaved edits)")
	files, err := c.parse(fs, args, 4, 4)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, f := range []struct {
		name string
		v    int
	}{{"per-class", *perClass}, {"max", *maxN}} {
		if name, v := f.name, f.v; set[name] && v < 1 {
			return usagef("subset: --%s %d: expected a count of 1 or more (leave it out for no limit)", name, v)
		}
	}
	relabel, err := parseMap(*mapping)
	if err != nil {
		return err
	}
	in := builder.Pair{Images: files[0], Labels: files[1]}
	out := builder.Pair{Images: files[2], Labels: files[3]}
	var lists []string
	for _, f := range []string{*indices, *exclude} {
		if f != "" {
			lists = append(lists, f)
		}
	}
	if err := checkOutputs(lists, files[2:]); err != nil {
		return err
	}
	return c.buildRun([]builder.Pair{in}, []builder.Pair{out}, *force, func(inputs []*builder.Input) (*builder.Plan, func(), error) {
		o := builder.SubsetOptions{PerClass: *perClass, Max: *maxN, Relabel: relabel, Shuffle: *shuffle, Seed: *seed}
		n := inputs[0].Shape.N
		var err error
		if *indices != "" {
			if o.Indices, err = builder.ReadIndexFile(*indices, n); err != nil {
				return nil, nil, err
			}
		}
		if *exclude != "" {
			if o.Exclude, err = builder.ReadIndexFile(*exclude, n); err != nil {
				return nil, nil, err
			}
		}
		if *classes != "" {
			if o.Classes, err = parseClasses(*classes, inputs[0].Names); err != nil {
				return nil, nil, err
			}
		}
		p, err := builder.Subset(inputs[0], out, o, func(msg string) { fmt.Fprintf(c.stderr, "idxlabel: %s\n", msg) })
		if err != nil {
			return nil, nil, err
		}
		return p, func() { fmt.Fprintf(c.stderr, "subset: %d of %d samples kept\n", len(p.Parts[0].Samples), n) }, nil
	})
}

// parseClasses reads --classes: class numbers, or names of the class-name file.
func parseClasses(list string, names map[int]string) ([]int64, error) {
	out := []int64{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if v, err := strconv.ParseInt(f, 10, 32); err == nil && v != math.MinInt32 {
			out = append(out, v)
			continue
		}
		found := false
		for k, s := range names {
			if s == f {
				out, found = append(out, int64(k)), true
			}
		}
		if !found {
			return nil, usagef("subset: --classes %q: %q is neither a class number nor a class name of the labels", list, f)
		}
	}
	return out, nil
}

// parseMap reads --map OLD:NEW,...: 32-bit class numbers (not −2147483648, "no label"), each
// OLD once.
func parseMap(s string) (map[int64]int64, error) {
	if s == "" {
		return nil, nil
	}
	m := map[int64]int64{}
	for _, pair := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(pair), ":")
		x, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 32)
		y, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 32)
		if !ok || err1 != nil || err2 != nil || x == math.MinInt32 || y == math.MinInt32 {
			return nil, usagef("subset: --map %q: expected OLD:NEW,... with class numbers (3:0,8:1)", s)
		}
		if _, dup := m[x]; dup {
			return nil, usagef("subset: --map %q: class %d is mapped twice", s, x)
		}
		m[x] = y
	}
	return m, nil
}
