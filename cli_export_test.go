package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/internal/mnisttest"
)

// sampleSet returns the pair's samples as sorted "label:pixels" strings, to compare two pairs
// whatever their order.
func sampleSet(t *testing.T, ip, lp string) []string {
	t.Helper()
	images, labels, err := mnisttest.ReadPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	n, size := images.Dims[0], images.Dims[1]*images.Dims[2]
	out := make([]string, n)
	for i := range n {
		out[i] = string(rune('0'+labels.Int(i))) + ":" + string(images.Data[i*size:(i+1)*size])
	}
	slices.Sort(out)
	return out
}

// The real t10k pair exported as an ImageFolder tree and imported back with --no-normalize gives
// the same 10,000 samples (import reads the tree class by class, so the order is the tree's).
func TestExportImportRoundTrip(t *testing.T) {
	ip, lp := mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TestLabels)
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	if code, _, stderr := runCLI("export", ip, lp, tree); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	bi, bl := filepath.Join(dir, "back-images-idx3-ubyte"), filepath.Join(dir, "back-labels-idx1-ubyte")
	if code, _, stderr := runCLI("import", "--no-normalize", tree, bi, bl); code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	if !slices.Equal(sampleSet(t, ip, lp), sampleSet(t, bi, bl)) {
		t.Fatal("the round trip changed the samples")
	}
	if code, _, stderr := runCLI("export", ip, lp, tree); code != 1 || !strings.Contains(stderr, "exists") {
		t.Fatalf("export over an existing tree: %d %s", code, stderr)
	}
	if code, _, _ := runCLI("export", "--format", "tiff", ip, lp, tree); code != 2 {
		t.Fatal("an unknown format is not a usage error")
	}
}

// diff lists the samples whose labels differ, across dtypes (ubyte against QMNIST-style N×2
// int32 column 0), and exits like diff(1): 0 same, 1 different, 2 not comparable.
func TestDiffLabels(t *testing.T) {
	dir := t.TempDir()
	a, _ := idx.New(idx.UByte, 5)
	copy(a.Data, []byte{1, 2, 3, 4, 5})
	b, _ := idx.New(idx.Int32, 5, 2)
	for i, v := range []int64{1, 2, 9, 4, 7} {
		b.SetInt(2*i, v)
		b.SetInt(2*i+1, 1234) // another column, not compared
	}
	c, _ := idx.New(idx.UByte, 4)
	pa, pb, pc := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	for p, x := range map[string]*idx.Array{pa: a, pb: b, pc: c} {
		if err := idx.WriteFile(p, x); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI("diff", pa, pb)
	if code != 1 || out != "index,a,b\n2,3,9\n4,5,7\n" || stderr != "2 of 5 labels differ\n" {
		t.Fatalf("diff: %d %q %q", code, out, stderr)
	}
	if code, _, stderr := runCLI("diff", pa, pa); code != 0 || stderr != "0 of 5 labels differ\n" {
		t.Fatalf("diff of a file with itself: %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("diff", pa, pc); code != 2 || !strings.Contains(stderr, "cannot be compared") {
		t.Fatalf("diff of different counts: %d %q", code, stderr)
	}
	if code, _, _ := runCLI("diff", pa, filepath.Join(dir, "missing")); code != 2 {
		t.Fatal("a missing file is not exit 2")
	}
}
