package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"idxlabel/idx"
)

// runInfo prints, for each file, its magic number, dtype, dimensions, sample count and, for a
// 1-D integer file (labels), a class histogram. It decodes every file fully, so a malformed file
// is reported, and goes on with the next file after an error.
func runInfo(c *cli, args []string) error {
	files, err := c.parse(c.flags("info"), args, 1, -1)
	if err != nil {
		return err
	}
	var firstErr error
	for _, name := range files {
		if err := c.info(name); err != nil {
			fmt.Fprintf(c.stderr, "idxlabel: %s\n", describe(err))
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if firstErr != nil {
		return errReported
	}
	return nil
}

// errReported is returned when the failures were already printed: exit status 1, no more output.
var errReported = reportedError{}

type reportedError struct{}

func (reportedError) Error() string { return "" }

func (c *cli) info(name string) error {
	a, err := idx.ReadFile(name)
	if err != nil {
		return err
	}
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	dims := make([]string, len(a.Dims))
	for i, d := range a.Dims {
		dims[i] = fmt.Sprint(d)
	}
	compression := "plain"
	if gz, _ := idx.IsGzipFile(name); gz {
		compression = "gzip"
	}
	fmt.Fprintf(c.stdout, "%s\n  magic   0x%08x (%d)\n  dtype   %s (0x%02x), %d byte(s) per element\n  dims    %s\n  count   %d\n  size    %d bytes on disk (%s), %d bytes of data\n",
		name, a.Magic(), a.Magic(), a.Type, byte(a.Type), a.Type.Size(), strings.Join(dims, "×"), a.Dims[0], fi.Size(), compression, len(a.Data))
	if a.Rank() == 1 && a.Type.IsInteger() {
		c.histogram(a)
	}
	return nil
}

// histogram prints one line per distinct value of a 1-D integer array: value, count, share and
// a bar scaled to the largest class.
func (c *cli) histogram(a *idx.Array) {
	counts := map[int64]int{}
	for i := range a.Len() {
		counts[a.Int(i)]++
	}
	classes := make([]int64, 0, len(counts))
	most := 0
	for v, n := range counts {
		classes = append(classes, v)
		most = max(most, n)
	}
	slices.Sort(classes)
	fmt.Fprintf(c.stdout, "  classes %d\n", len(classes))
	for _, v := range classes {
		n := counts[v]
		fmt.Fprintf(c.stdout, "  %6d %8d %5.1f%% %s\n", v, n, 100*float64(n)/float64(a.Len()), strings.Repeat("█", (n*40+most-1)/most))
	}
}
