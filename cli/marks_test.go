package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// markOutputs writes, at the paths oi and ol, a pair of n samples (genPair's in a folder of its
// own, copied) with accepted marks on samples 1 and 3 beside its label file, as a window's save
// leaves them; it removes out's other files (a split's test pair, class-name files). It returns
// the label file's bytes and the marks file's.
func markOutputs(t *testing.T, oi, ol string, n int, others ...string) (labels, marks []byte) {
	t.Helper()
	for _, o := range others {
		os.Remove(o)
	}
	os.Remove(pairfile.AcceptedFile(ol))
	ip, lp := genPair(t, t.TempDir(), n)
	images, err := idx.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(oi, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(ol, lab); err != nil {
		t.Fatal(err)
	}
	if err := pairfile.WriteAccepted(pairfile.AcceptedFile(ol), pairfile.KeyOf(lab, pairfile.ImagesCRC(images.Data)), []int{1, 3}); err != nil {
		t.Fatal(err)
	}
	labels, _ = os.ReadFile(ol)
	marks, _ = os.ReadFile(pairfile.AcceptedFile(ol))
	return labels, marks
}

// correctedErrata writes, in dir, the labels of genBuildPair's or genPair's n samples (class i
// mod 10) with the samples corrected given other labels (9, or 8 when that is their class), and
// the errata `idxlabel errata` makes from them for the pair ai, al. It returns both files.
func correctedErrata(t *testing.T, dir, ai, al string, n int, corrected ...int) (labels, errata string) {
	t.Helper()
	other := make([]int64, n)
	for i := range other {
		other[i] = int64(i % 10)
	}
	for _, i := range corrected {
		other[i] = 9
		if i%10 == 9 {
			other[i] = 8
		}
	}
	labels = writeLabels(t, dir, "other-labels", idx.UByte, 1, other)
	code, out, errOut := runCLI("errata", ai, al, labels)
	if code != 0 {
		t.Fatalf("errata: exit %d %s", code, errOut)
	}
	errata = filepath.Join(dir, "errata.csv")
	if err := os.WriteFile(errata, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return labels, errata
}

// Every command-line writer that replaces a label file with --force removes the accepted marks
// beside it once the new file is in place; one that stops after claiming its outputs (a bad
// input found once it reads) leaves the label file and its marks byte for byte.
func TestWritersRemoveAcceptedMarksOnlyOnceReplaced(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	ai, al := genPair(t, filepath.Join(dir, "a"), 20)
	bi, bl := genPair(t, filepath.Join(dir, "b"), 20)
	short := writeLabels(t, dir, "short-labels", idx.UByte, 1, []int64{1, 2, 3})
	otherLabels, errataPath := correctedErrata(t, dir, ai, al, 20, 4)
	garbage := filepath.Join(dir, "garbage")
	os.WriteFile(garbage, []byte("not an IDX file, nor errata\n"), 0o644)
	small := filepath.Join(dir, "small")
	os.MkdirAll(small, 0o755)
	si, sl := genBuildPair(t, small, "s", 4, 14, 14, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i) })
	badIndices := filepath.Join(dir, "indices.txt")
	os.WriteFile(badIndices, []byte("1\n2\n9999\n"), 0o644)
	tree := filepath.Join(dir, "tree")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.1)
	emptyTree := filepath.Join(dir, "empty-tree")
	os.MkdirAll(filepath.Join(emptyTree, "3"), 0o755)
	os.WriteFile(filepath.Join(emptyTree, "3", "a.png"), []byte("not a PNG"), 0o644)

	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	oi, ol := filepath.Join(out, "o-images-idx3-ubyte"), filepath.Join(out, "o-labels-idx1-ubyte")
	ti, tl := filepath.Join(out, "t-images-idx3-ubyte"), filepath.Join(out, "t-labels-idx1-ubyte")
	others := []string{ti, tl, ol + pairfile.ClassNamesSuffix, tl + pairfile.ClassNamesSuffix}
	for _, tc := range []struct {
		name string
		args []string
		ok   bool // the writer succeeds (exit 0, or 1 for agree's "some differ")
	}{
		{"merge", []string{"merge", "--force", ai, al, bi, bl, oi, ol}, true},
		{"merge of another size", []string{"merge", "--force", ai, al, si, sl, oi, ol}, false},
		{"split", []string{"split", "--force", "--test", "0.5", ai, al, oi, ol, ti, tl}, true},
		{"split of garbage", []string{"split", "--force", "--test", "0.5", ai, garbage, oi, ol, ti, tl}, false},
		{"subset", []string{"subset", "--force", "--max", "5", ai, al, oi, ol}, true},
		{"subset of a bad index", []string{"subset", "--force", "--indices", badIndices, ai, al, oi, ol}, false},
		{"convert", []string{"convert", "--force", otherLabels, ol}, true},
		{"convert of garbage", []string{"convert", "--force", garbage, ol}, false},
		{"apply-errata", []string{"apply-errata", "--force", errataPath, ai, al, ol}, true},
		{"apply-errata of garbage", []string{"apply-errata", "--force", garbage, ai, al, ol}, false},
		{"agree --consensus", []string{"agree", "--force", "--consensus", ol, al, otherLabels, bl}, true},
		{"agree --consensus of other lengths", []string{"agree", "--force", "--consensus", ol, al, short}, false},
		{"import", []string{"import", "--force", tree, oi, ol}, true},
		{"import of no image", []string{"import", "--force", emptyTree, oi, ol}, false},
	} {
		labels, marks := markOutputs(t, oi, ol, 12, others...)
		code, _, errOut := runCLI(tc.args...)
		if !tc.ok {
			if code == 0 {
				t.Errorf("%s: exit 0", tc.name)
			}
			unchanged(t, tc.name, ol, labels)
			unchanged(t, tc.name+": its accepted marks", pairfile.AcceptedFile(ol), marks)
			continue
		}
		if code != 0 && !(code == 1 && tc.args[0] == "agree") {
			t.Errorf("%s: exit %d, %s", tc.name, code, errOut)
			continue
		}
		if now, _ := os.ReadFile(ol); string(now) == string(labels) {
			t.Errorf("%s: the label file was not replaced", tc.name)
		}
		if _, err := os.Lstat(pairfile.AcceptedFile(ol)); err == nil || !os.IsNotExist(err) {
			t.Errorf("%s: the accepted marks beside the label file it replaced are still there (%v)", tc.name, err)
		}
		if strings.Contains(errOut, "accepted") {
			t.Errorf("%s: %s", tc.name, errOut)
		}
	}
}
