package cli

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"idxlabel/builder"
	"idxlabel/internal/numfmt"
)

// seedFlag registers --seed: the seed of every random draw of split and subset (default 1, so
// a command run twice gives the same files).
func seedFlag(fs *flag.FlagSet) *uint64 {
	return fs.Uint64("seed", 1, "seed of the random draws: the same seed gives byte-identical outputs")
}

// runSplit writes a train and a test pair that together hold every sample of IMAGES LABELS
// exactly once (builder.Split): a share (--test) or a count (--test-count) of samples drawn by
// the seed, per class with --stratify (each class within one sample of the fraction;
// unlabelled samples a class of their own), whole groups with --group-column K (the label
// column naming a sample's group, QMNIST's writer in column 2), in input order unless
// --shuffle. It prints each part's size and, with --stratify or --group-column, each class's
// share of the test part (classShares). A split the samples cannot give as asked (a part
// empty, whole groups far from the count: builder.SplitError) exits 1 saying why; a count of 0
// is a usage error like a negative one. The outputs are written as buildRun writes them.
func runSplit(c *cli, args []string) error {
	fs := c.flags("split")
	test := fs.Float64("test", 0.2, "the share of samples in the test part, between 0 and 1")
	testCount := fs.Int("test-count", -1, "the number of samples in the test part (instead of --test)")
	stratify := fs.Bool("stratify", false, "keep each class's share of the test part within one sample of the fraction (unlabelled samples count as a class)")
	group := fs.Int("group-column", -1, "keep whole the groups named by this label column (0-based; QMNIST's writer is column 2): no group is in both parts")
	shuffle := fs.Bool("shuffle", false, "write each part in a random order drawn by the seed (else the input order)")
	seed := seedFlag(fs)
	force := fs.Bool("force", false, "replace output files that exist (never a pair whose journal holds unsaved edits)")
	files, err := c.parse(fs, args, 6, 6)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["test"] && set["test-count"] {
		return usagef("split: give --test or --test-count, not both")
	}
	if !set["test-count"] && !(*test > 0 && *test < 1) {
		return usagef("split: --test %s: expected a fraction between 0 and 1", strconv.FormatFloat(*test, 'g', -1, 64))
	}
	if set["test-count"] && *testCount < 1 {
		return usagef("split: --test-count %d: expected a count of 1 or more", *testCount)
	}
	if set["group-column"] && *group < 0 {
		return usagef("split: --group-column %d: columns count from 0", *group)
	}
	in := builder.Pair{Images: files[0], Labels: files[1]}
	train := builder.Pair{Images: files[2], Labels: files[3]}
	testOut := builder.Pair{Images: files[4], Labels: files[5]}
	opts := builder.SplitOptions{Test: *test, TestCount: *testCount, Stratify: *stratify, GroupColumn: *group, Shuffle: *shuffle, Seed: *seed}
	return c.buildRun([]builder.Pair{in}, []builder.Pair{train, testOut}, *force, func(inputs []*builder.Input) (*builder.Plan, func(), error) {
		p, err := builder.Split(inputs[0], train, testOut, opts)
		var se *builder.SplitError
		if errors.As(err, &se) {
			return nil, nil, err // the samples cannot give the parts asked: exit 1
		}
		if err != nil {
			return nil, nil, usagef("split: %v", err)
		}
		return p, func() {
			n := inputs[0].Shape.N
			fmt.Fprint(c.stderr, numfmt.Sprintf("split: %d samples: train %d, test %d (%.2f%%)\n", n, len(p.Parts[0].Samples), len(p.Parts[1].Samples), 100*float64(len(p.Parts[1].Samples))/float64(max(n, 1))))
			if *stratify || *group >= 0 {
				c.classShares(inputs[0], p.Parts[1].Samples)
			}
		}, nil
	})
}

// maxShareLines is the most classes classShares lists one by one; above it gives their range.
const maxShareLines = 50

// classShares prints on stderr each class's share of the test part: "  class 3 (three):
// 1,010 of 10,100 in test (10.00%)", one line a class (unlabelled samples as "unlabelled"), or
// above maxShareLines classes the least and greatest share.
func (c *cli) classShares(in *builder.Input, test []int) {
	all, inTest := map[int64]int{}, map[int64]int{}
	for i := range in.Shape.N {
		all[in.Class(i)]++
	}
	for _, i := range test {
		inTest[in.Class(i)]++
	}
	classes := slices.Sorted(maps.Keys(all))
	share := func(k int64) float64 { return 100 * float64(inTest[k]) / float64(all[k]) }
	if len(classes) > maxShareLines {
		lo, hi := 100.0, 0.0
		for _, k := range classes {
			lo, hi = min(lo, share(k)), max(hi, share(k))
		}
		fmt.Fprintf(c.stderr, "split: the %d classes' shares of the test part: %.2f%% to %.2f%%\n", len(classes), lo, hi)
		return
	}
	for _, k := range classes {
		fmt.Fprint(c.stderr, numfmt.Sprintf("  class %s: %d of %d in test (%.2f%%)\n", builder.ClassName(k, in.Names), inTest[k], all[k], share(k)))
	}
}
