package cli

import (
	"fmt"

	"idxlabel/idx"
	"idxlabel/store"
)

// runDiff compares two label files sample by sample, as diff(1) compares text: it prints CSV
// "index,a,b" for every sample whose class differs, and a summary line on stderr ("37 of 60000
// labels differ"). The classes are column 0 of either file, so MNIST's ubyte labels compare with
// QMNIST's N×8 int32 ones. Exit status: 0 identical, 1 different, 2 files that cannot be
// compared (different counts, not label files) or a usage error.
func runDiff(c *cli, args []string) error {
	files, err := c.parse(c.flags("diff"), args, 2, 2)
	if err != nil {
		return err
	}
	var cols [2][]int64
	for k, f := range files {
		a, err := idx.ReadFileLimit(f, idx.MaxData())
		if err != nil {
			return usageError{describe(err)}
		}
		n := a.Dims[0]
		if err := store.CheckLabels(f, a.Header, "", n); err != nil {
			return usageError{err.Error()}
		}
		stride := a.Stride()
		cols[k] = make([]int64, n)
		for i := range n {
			cols[k][i] = a.Int(i * stride)
		}
	}
	if len(cols[0]) != len(cols[1]) {
		return usagef("%s has %d labels and %s %d: they cannot be compared sample by sample", files[0], len(cols[0]), files[1], len(cols[1]))
	}
	fmt.Fprintln(c.stdout, "index,a,b")
	differ := 0
	for i, a := range cols[0] {
		if b := cols[1][i]; a != b {
			fmt.Fprintf(c.stdout, "%d,%d,%d\n", i, a, b)
			differ++
		}
	}
	fmt.Fprintf(c.stderr, "%d of %d labels differ\n", differ, len(cols[0]))
	if differ > 0 {
		return errReported
	}
	return nil
}
