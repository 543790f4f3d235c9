package builder

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// fuzzPair encodes a pair for the fuzz seeds: n samples of h×w pixels of dtype it (sample i's
// pixels all i), labels of dtype lt, cols columns (1: N labels), class i%3 in column 0 and i%2
// after it; gzip-compressed when gz.
func fuzzPair(n, h, w int, it, lt idx.DType, cols int, gz bool) (images, labels []byte) {
	im, _ := idx.New(it, n, h, w)
	ldims := []int{n}
	if cols > 1 {
		ldims = append(ldims, cols)
	}
	la, _ := idx.New(lt, ldims...)
	for i := range n {
		for j := range h * w {
			im.SetInt(i*h*w+j, int64(i%100))
		}
		for c := range cols {
			la.SetInt(i*cols+c, int64(i%(3-min(c, 1))))
		}
	}
	enc := func(a *idx.Array) []byte {
		var b bytes.Buffer
		idx.Encode(&b, a)
		if !gz {
			return b.Bytes()
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b.Bytes())
		zw.Close()
		return z.Bytes()
	}
	return enc(im), enc(la)
}

// forgedHeader is an image file of 40 ubyte samples of side×side whose data is 1,000 zero bytes.
func forgedHeader(side int) []byte {
	b := idx.AppendHeader(nil, idx.Header{Type: idx.UByte, Dims: []int{40, side, side}})
	return append(b, make([]byte, 1000)...)
}

// FuzzBuild feeds arbitrary image and label files to the builder commands as the command line
// runs them (Build: outputs claimed, inputs opened, a plan of merge, split or subset, written)
// with options drawn from op, a and b, and checks that Build never panics and never allocates
// what a header merely claims (at most 16 MB beyond 3 × 1032 × the inputs' size, gzip's
// greatest expansion); that a failure names a file of the build and leaves the folder as it
// was (no output, temporary file or lock); and that a success wrote what the plan says: a
// merge of the pair with itself holds its rows twice in order, a split's two parts hold every
// row once, a subset's rows are rows of the input (a row: a sample's pixels and label row).
// Seeds: small valid pairs (plain and gzip, ubyte, int16 and float32 images, N and N×3
// labels, empty), forged headers (a 1 KB file claiming 640 MB and 400 GB), truncated and
// trailing data, and pairs that disagree.
func FuzzBuild(f *testing.F) {
	for _, s := range []struct {
		n, h, w int
		it, lt  idx.DType
		cols    int
		gz      bool
	}{
		{12, 4, 4, idx.UByte, idx.UByte, 1, false},
		{9, 3, 2, idx.Int16, idx.Int32, 3, false},
		{7, 2, 2, idx.Float32, idx.UByte, 1, true},
		{0, 28, 28, idx.UByte, idx.UByte, 1, false},
		{30, 1, 1, idx.UByte, idx.Int16, 2, true},
	} {
		im, la := fuzzPair(s.n, s.h, s.w, s.it, s.lt, s.cols, s.gz)
		for op := range byte(3) {
			f.Add(im, la, op, byte(0x35), byte(0x07))
		}
		if len(im) > 20 {
			f.Add(im[:len(im)-3], la, byte(1), byte(0), byte(0))                 // truncated
			f.Add(append(slices.Clone(im), 1, 2), la, byte(2), byte(1), byte(1)) // trailing bytes
		}
	}
	_, la40 := fuzzPair(40, 1, 1, idx.UByte, idx.UByte, 1, false)
	im, _ := fuzzPair(12, 4, 4, idx.UByte, idx.UByte, 1, false)
	f.Add(im, la40, byte(0), byte(0), byte(0)) // a pair that disagrees on N
	for _, side := range []int{4000, 100000} {
		for op := range byte(3) {
			f.Add(forgedHeader(side), la40, op, byte(0xff), byte(0xff))
		}
	}
	f.Fuzz(func(t *testing.T, images, labels []byte, op, a, b byte) {
		dir := t.TempDir()
		in := Pair{filepath.Join(dir, "in-images"), filepath.Join(dir, "in-labels")}
		os.WriteFile(in.Images, images, 0o644)
		os.WriteFile(in.Labels, labels, 0o644)
		before := entries(t, dir)
		o := func(tag string) Pair {
			return Pair{filepath.Join(dir, tag+"-images"), filepath.Join(dir, tag+"-labels")}
		}
		var ins, outs []Pair
		var plan func([]*Input) (*Plan, error)
		switch op % 3 {
		case 0:
			ins, outs = []Pair{in, in}, []Pair{o("m")}
			plan = func(i []*Input) (*Plan, error) { return Merge(i, outs[0]) }
		case 1:
			ins, outs = []Pair{in}, []Pair{o("train"), o("test")}
			opts := SplitOptions{Test: (float64(a%9) + 1) / 10, TestCount: -1, Stratify: a&0x10 != 0,
				GroupColumn: -1, Shuffle: a&0x20 != 0, Seed: uint64(b)}
			if a&0x40 != 0 {
				opts.TestCount = int(b % 16)
			}
			if a&0x80 != 0 {
				opts.GroupColumn = int(b % 3)
			}
			plan = func(i []*Input) (*Plan, error) { return Split(i[0], outs[0], outs[1], opts) }
		default:
			ins, outs = []Pair{in}, []Pair{o("sub")}
			opts := SubsetOptions{PerClass: int(a % 8), Max: int(b % 16), Shuffle: a&0x80 != 0, Seed: uint64(b)}
			if a&0x40 != 0 {
				opts.Classes = []int64{int64(b % 3)}
			}
			if a&0x08 != 0 {
				opts.Relabel = map[int64]int64{0: int64(b)}
			}
			plan = func(i []*Input) (*Plan, error) { return Subset(i[0], outs[0], opts, func(string) {}) }
		}
		var err error
		used := mnisttest.Allocated(func() {
			_, err = Build(context.Background(), ins, outs, false, plan, nil, nil)
		})
		if most := uint64(16<<20 + 3*1032*(len(images)+len(labels))); used > most {
			t.Fatalf("%d bytes allocated for inputs of %d and %d bytes", used, len(images), len(labels))
		}
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("the error names no file of the build: %v", err)
			}
			if got := entries(t, dir); got != before {
				t.Fatalf("a failed build (%v) left %s, the folder held %s", err, got, before)
			}
			return
		}
		rowsIn := fuzzRows(t, in)
		var got [][]string
		for _, p := range outs {
			got = append(got, fuzzRows(t, p))
		}
		switch op % 3 {
		case 0:
			if want := append(slices.Clone(rowsIn), rowsIn...); !slices.Equal(got[0], want) {
				t.Fatalf("the merge holds %d rows, not the input's %d twice in order", len(got[0]), len(rowsIn))
			}
		case 1:
			all := append(slices.Clone(got[0]), got[1]...)
			slices.Sort(all)
			want := slices.Clone(rowsIn)
			slices.Sort(want)
			if !slices.Equal(all, want) {
				t.Fatalf("the parts hold %d rows, not the input's %d each once", len(all), len(want))
			}
		default:
			for _, r := range got[0] {
				// the class may be relabelled: compare the pixels and the other columns
				if !slices.ContainsFunc(rowsIn, func(s string) bool { return sameButClass(s, r) }) {
					t.Fatalf("the subset holds a row the input does not: %.80q", r)
				}
			}
		}
	})
}

// fuzzRows returns each sample of the pair p as one string: its pixels as float64 values (so
// a widened dtype compares equal) and its label row.
func fuzzRows(t *testing.T, p Pair) []string {
	t.Helper()
	im, err := idx.ReadFile(p.Images)
	if err != nil {
		t.Fatalf("an output does not decode: %v", err)
	}
	la, err := idx.ReadFile(p.Labels)
	if err != nil {
		t.Fatalf("an output does not decode: %v", err)
	}
	n := im.Dims[0]
	var out []string
	if n == 0 {
		return out
	}
	per, cols := im.Len()/n, la.Len()/n
	for i := range n {
		var s strings.Builder
		for j := range cols {
			fmt.Fprintf(&s, "%d,", la.Int(i*cols+j))
		}
		s.WriteString("|")
		for j := range per {
			fmt.Fprintf(&s, "%g,", im.Float(i*per+j))
		}
		out = append(out, s.String())
	}
	return out
}

// sameButClass reports whether rows a and b (fuzzRows) differ at most in their class (the first
// label value).
func sameButClass(a, b string) bool {
	_, ra, _ := strings.Cut(a, ",")
	_, rb, _ := strings.Cut(b, ",")
	return ra == rb
}
