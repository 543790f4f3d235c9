package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"idxlabel/idx"
	"idxlabel/internal/clip"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// runInfo prints, for each file, its magic number, dtype, dimensions, sample count and, for a
// 1-D integer file (labels), a class histogram. It reads every file to its end in chunks (so a
// malformed file is reported, in bounded memory whatever its size) and goes on with the next
// file after an error.
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
	f, err := idx.OpenFile(name)
	if err != nil {
		return err
	}
	defer f.Close()
	h := f.Header
	var counts *classCounts
	if h.Rank() == 1 && h.Type.IsInteger() {
		counts = &classCounts{}
		err = scanClasses(f, func(_ int, v int64) error { counts.add(v); return nil })
	} else {
		err = drain(f)
	}
	if err != nil {
		return err
	}
	compression := "plain"
	if f.Gzip {
		compression = "gzip"
	}
	fmt.Fprintf(c.stdout, "%s\n  magic   0x%08x (%d)\n  dtype   %s (0x%02x), %d byte(s) per element\n  dims    %s\n  count   %d\n  size    %d bytes on disk (%s), %d bytes of data\n",
		clip.Printable(name), h.Magic(), h.Magic(), h.Type, byte(h.Type), h.Type.Size(), h.Shape(), h.Dims[0], f.FileSize, compression, h.DataSize())
	if counts != nil {
		c.histogram(counts)
	}
	if note := cutSaveNote(name); note != "" {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", note)
	}
	return nil
}

// cutSaveNote returns a note when name belongs to a pair whose save was cut off between its
// renames (pairfile.ReadView finds a temporary file of it not yet renamed), its partner found the
// way the app finds it (pairfile.FindLabels, FindImages); "" otherwise. info describes each file as
// it stands; the note says that the file, or its partner, is not yet what was saved.
func cutSaveNote(name string) string {
	for _, p := range [][2]string{{name, pairfile.FindLabels(name)}, {pairfile.FindImages(name), name}} {
		if p[0] == "" {
			continue
		}
		if ri, rl, _ := pairfile.ReadView(p[0], p[1]); ri != p[0] || rl != p[1] {
			return fmt.Sprintf("%s: a save of it was cut off between its renames and waits to be finished: as they stand, its files are not the pair that was saved (idxlabel verify says more; opening the pair in idxlabel finishes the save)", strings.Trim(p[0]+", "+p[1], ", "))
		}
	}
	return ""
}

// histogram prints one line per distinct value: value, count, share and a bar scaled to the
// largest class; or one line saying there are too many distinct values to list.
func (c *cli) histogram(counts *classCounts) {
	if counts.overflow {
		fmt.Fprintf(c.stdout, "  classes more than %d (values %d to %d; no histogram)\n", maxClasses, counts.lo, counts.hi)
		return
	}
	classes := counts.classes()
	most := 0
	for _, v := range classes {
		most = max(most, counts.count(v))
	}
	fmt.Fprintf(c.stdout, "  classes %d\n", len(classes))
	if counts.unlabelled > 0 {
		fmt.Fprintf(c.stdout, "  unlabelled %d (value %d)\n", counts.unlabelled, sample.NoLabel)
	}
	for _, v := range classes {
		n := counts.count(v)
		fmt.Fprintf(c.stdout, "  %6d %8d %5.1f%% %s\n", v, n, 100*float64(n)/float64(counts.total), strings.Repeat("█", (n*40+most-1)/most))
	}
}

// maxClasses is the most distinct label values info and verify count one by one; beyond it they
// report only the range, so a file of a billion distinct int32 values needs no billion-entry map.
const maxClasses = 1 << 16

// classCounts counts label values: an array for the common range −128…255, a map (up to
// maxClasses distinct values in all) for the rest.
type classCounts struct {
	small    [384]int // values −128…255 at index v+128
	large    map[int64]int
	distinct int
	total    int
	lo, hi   int64
	// unlabelled counts the value sample.NoLabel (−2147483648), a sample without a label: it is
	// in no class and not in total.
	unlabelled int
	overflow   bool // more than maxClasses distinct values: large is no longer kept
}

func (c *classCounts) add(v int64) {
	if v == sample.NoLabel {
		c.unlabelled++ // a sample not labelled yet, as idxlabel saves it: no class
		return
	}
	if c.total == 0 || v < c.lo {
		c.lo = v
	}
	if c.total == 0 || v > c.hi {
		c.hi = v
	}
	c.total++
	if v >= -128 && v <= 255 {
		if c.small[v+128] == 0 {
			c.distinct++
		}
		c.small[v+128]++
		return
	}
	if c.overflow {
		return
	}
	if c.large == nil {
		c.large = map[int64]int{}
	}
	if c.large[v] == 0 {
		c.distinct++
	}
	c.large[v]++
	if c.distinct > maxClasses {
		c.overflow, c.large = true, nil
	}
}

func (c *classCounts) count(v int64) int {
	if v >= -128 && v <= 255 {
		return c.small[v+128]
	}
	return c.large[v]
}

// classes returns the distinct values, sorted (meaningless after overflow).
func (c *classCounts) classes() []int64 {
	var out []int64
	for i, n := range c.small {
		if n > 0 {
			out = append(out, int64(i)-128)
		}
	}
	for v := range c.large {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// chunkSize is how many bytes info, verify and convert read at a time: a multiple of every
// element size.
const chunkSize = 64 << 10

// drain reads f to its end, which verifies the whole file (see idx.FileReader).
func drain(f *idx.FileReader) error {
	_, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, f, make([]byte, chunkSize))
	return err
}

// scanClasses reads an integer file of N or N×K elements to its end and calls fn with each
// row's index and its class, the value in column 0 (QMNIST's layout). It stops at fn's first
// error. Errors: f's read errors, or fn's.
func scanClasses(f *idx.FileReader, fn func(i int, v int64) error) error {
	size := int64(f.Type.Size())
	stride := int64(1) // elements per row: the product of the dimensions after the first
	for _, d := range f.Dims[1:] {
		stride *= int64(d)
	}
	buf := make([]byte, chunkSize)
	chunk := &idx.Array{Header: idx.Header{Type: f.Type, Dims: []int{1}}}
	var elem int64 // index of the first element in buf
	for {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			chunk.Data = buf[:n]
			count := int64(n) / size
			// The first element of this chunk that starts a row.
			first := (stride - elem%stride) % stride
			for k := first; k < count; k += stride {
				if ferr := fn(int((elem+k)/stride), chunk.Int(int(k))); ferr != nil {
					return ferr
				}
			}
			elem += count
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			// ReadFull saw io.EOF from f: every byte was returned and the end verified.
			return nil
		}
		if err != nil {
			return err
		}
	}
}
