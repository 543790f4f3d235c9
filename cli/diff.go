package cli

import (
	"bufio"
	"fmt"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// runDiff compares two label files sample by sample, as diff(1) compares text: it prints CSV
// "index,a,b" for every sample whose class differs, and a summary line on stderr ("37 of 60000
// labels differ"). The classes are column 0 of either file, so MNIST's ubyte labels compare with
// QMNIST's N×8 int32 ones. Files of different lengths (after samples were deleted or added)
// compare over the samples both have; each sample only the longer one has is a row with the
// other side empty ("10000,,7"), and stderr says how many there are and that a deletion or an
// addition before the end shifts every later sample (the change log records them). Exit
// status: 0 identical, 1 different (or of different lengths), 2 files that cannot be compared
// (not label files) or a usage error.
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
		if err := pairfile.CheckLabels(f, a.Header, "", n); err != nil {
			return usageError{err.Error()}
		}
		stride := a.Stride()
		cols[k] = make([]int64, n)
		for i := range n {
			cols[k][i] = a.Int(i * stride)
		}
	}
	na, nb := len(cols[0]), len(cols[1])
	common := min(na, nb)
	w := bufio.NewWriterSize(c.stdout, 1<<16)
	fmt.Fprintln(w, "index,a,b")
	differ := 0
	for i, a := range cols[0][:common] {
		if b := cols[1][i]; a != b {
			fmt.Fprintf(w, "%d,%d,%d\n", i, a, b)
			differ++
		}
	}
	for i := common; i < na; i++ {
		fmt.Fprintf(w, "%d,%d,\n", i, cols[0][i])
	}
	for i := common; i < nb; i++ {
		fmt.Fprintf(w, "%d,,%d\n", i, cols[1][i])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "%d of %d labels differ\n", differ, common)
	if na != nb {
		longer, extra := files[1], nb-na
		if na > nb {
			longer, extra = files[0], na-nb
		}
		samples := "samples"
		if extra == 1 {
			samples = "sample"
		}
		fmt.Fprintf(c.stderr, "%d %s only in %s (%d against %d): the samples both have are compared by number, and a deletion or an addition before the end shifts every sample after it; the change log (LABELS.changes.csv) records deletions and additions\n", extra, samples, longer, na, nb)
	}
	if differ > 0 || na != nb {
		return errReported
	}
	return nil
}
