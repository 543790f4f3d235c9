package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
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

// 1,100 generated digits exported as an ImageFolder tree and imported back with --no-normalize
// give the same samples (import reads the tree class by class, so the order is the tree's).
func TestExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	px, labels := digits(t, 1100)
	ip, lp := writePair(t, dir, "digits", px, labels, 1100, 28, 28)
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
	if code, _, stderr := runCLI("export", ip, lp, tree); code != 1 || !strings.HasSuffix(stderr, "exists (use --force to replace it)\n") {
		t.Fatalf("export over an existing tree: %d %s", code, stderr)
	}
	if code, _, _ := runCLI("export", "--format", "tiff", ip, lp, tree); code != 2 {
		t.Fatal("an unknown format is not a usage error")
	}
}

// diff lists the samples whose labels differ, across dtypes (ubyte against QMNIST-style N×2
// int32 column 0), and exits like diff(1): 0 same, 1 different, 2 not comparable. Files of
// different lengths (a sample deleted) compare over the samples both have, list the samples
// only one has with the other side empty, and say so.
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
	copy(c.Data, []byte{1, 2, 4, 5}) // a with its sample 2 deleted
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
	code, out, stderr = runCLI("diff", pa, pc)
	if code != 1 || out != "index,a,b\n2,3,4\n3,4,5\n4,5,\n" || !strings.HasPrefix(stderr, "2 of 4 labels differ\n1 sample only in "+pa+" (5 against 4)") || !strings.Contains(stderr, "shifts every sample after it") {
		t.Fatalf("diff of different counts: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCLI("diff", pc, pa)
	if code != 1 || out != "index,a,b\n2,4,3\n3,5,4\n4,,5\n" {
		t.Fatalf("diff of different counts, the other way: %d %q", code, out)
	}
	empty, _ := idx.New(idx.UByte, 0)
	pe := filepath.Join(dir, "empty")
	idx.WriteFile(pe, empty)
	if code, out, stderr := runCLI("diff", pe, pc); code != 1 || out != "index,a,b\n0,,1\n1,,2\n2,,4\n3,,5\n" {
		t.Fatalf("diff of an empty file: %d %q %q", code, out, stderr)
	}
	if code, _, _ := runCLI("diff", pa, filepath.Join(dir, "missing")); code != 2 {
		t.Fatal("a missing file is not exit 2")
	}
}

// genPair writes a generated pair of n 28×28 samples (labels k mod 10) into dir and returns its
// paths.
func genPair(t *testing.T, dir string, n int) (ip, lp string) {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, 28, 28)
	labels, _ := idx.New(idx.UByte, n)
	for i := range images.Data {
		images.Data[i] = byte(i * 31)
	}
	for k := range n {
		labels.Data[k] = byte(k % 10)
	}
	ip, lp = filepath.Join(dir, "g-images-idx3-ubyte"), filepath.Join(dir, "g-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// export --force replaces an earlier export only: a folder of the user's (QA's thesis folder) or
// a CSV aimed at a folder exits 1 naming OUT and what is in it, and nothing is touched.
func TestExportForceReplacesOnlyAnExport(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 30)
	thesis := filepath.Join(dir, "thesis")
	if err := os.Mkdir(thesis, 0o755); err != nil {
		t.Fatal(err)
	}
	tex := filepath.Join(thesis, "thesis.tex")
	os.WriteFile(tex, []byte("mine\n"), 0o644)
	for _, format := range []string{"png", "csv", "npz"} {
		code, _, stderr := runCLI("export", "--force", "--format", format, ip, lp, thesis)
		if code != 1 || !strings.Contains(stderr, thesis) || !strings.Contains(stderr, "refusing to replace it") {
			t.Fatalf("--format %s over a folder of the user's: %d %s", format, code, stderr)
		}
		if b, err := os.ReadFile(tex); err != nil || string(b) != "mine\n" {
			t.Fatalf("--format %s: thesis.tex is %q, %v", format, b, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Fatalf("left behind: %v", entries)
	}
	tree := filepath.Join(dir, "tree")
	if code, _, stderr := runCLI("export", "--classes", "names", ip, lp, tree); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	os.WriteFile(filepath.Join(tree, "0", "stale.png"), []byte("x"), 0o644)
	if code, _, stderr := runCLI("export", "--force", ip, lp, tree); code != 1 || !strings.Contains(stderr, "stale.png") {
		t.Fatalf("--force over an export with a file added: %d %s", code, stderr)
	}
	os.Remove(filepath.Join(tree, "0", "stale.png"))
	os.WriteFile(filepath.Join(tree, "0", "000.png"), []byte("an old sample"), 0o644)
	if code, _, stderr := runCLI("export", "--force", ip, lp, tree); code != 0 || stderr != "" {
		t.Fatalf("--force over an earlier export: %d %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(tree, "0", "00.png")); err != nil || string(b[1:4]) != "PNG" {
		t.Fatalf("the new tree: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tree, "0", "000.png")); !os.IsNotExist(err) {
		t.Fatal("the earlier export's files are still there")
	}
}

// An export --force killed between its renames leaves OUT missing, its new tree and the earlier
// export hidden beside it; the next export of OUT finishes it first, says so on stderr, and
// leaves no hidden folder.
func TestExportFinishesOneKilledBetweenItsRenames(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 30)
	tree, newer := filepath.Join(dir, "tree"), filepath.Join(dir, "newer")
	for _, out := range []string{tree, newer} {
		if code, _, stderr := runCLI("export", ip, lp, out); code != 0 {
			t.Fatalf("export: %d %s", code, stderr)
		}
	}
	if err := os.Rename(tree, filepath.Join(dir, ".tree.idxlabel-export-7.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(newer, filepath.Join(dir, ".tree.idxlabel-export-7")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("export", "--force", ip, lp, tree)
	if code != 0 || stderr != "idxlabel: "+tree+": an export killed between its renames was finished (its tree put in place)\n"+
		"idxlabel: removed "+filepath.Join(dir, ".tree.idxlabel-export-7.old")+", left by an export of tree that was killed\n" {
		t.Fatalf("export over a killed export: %d %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tree") {
			t.Fatalf("left behind: %s", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(tree, "0", "00.png")); err != nil {
		t.Fatal(err)
	}
}

// export --classes names takes the names from the class-name file line by line (line k names
// class k; a blank line names none) and puts the class number first, so that the folders sort
// in class order.
func TestExportNamesFollowTheClassFile(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 30) // labels k mod 10
	os.WriteFile(filepath.Join(dir, "classes.txt"), []byte("zero\n\ntwo\nthree\n"), 0o644)
	tree := filepath.Join(dir, "tree")
	if code, _, stderr := runCLI("export", "--classes", "names", ip, lp, tree); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	for k, want := range []string{"0-zero", "1", "2-two", "3-three", "4", "9"} {
		if k == 5 {
			k = 9
		}
		if _, err := os.Stat(filepath.Join(tree, want, fmt.Sprintf("%02d.png", k))); err != nil { // indices padded to 2 digits
			t.Errorf("class %d: %v", k, err)
		}
	}
}
