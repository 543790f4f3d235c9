package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"idxlabel/idx"
)

// writePair writes images n×dims… ubyte and the given int32 labels (one column, or rows of k).
func writeTestPair(t *testing.T, dir string, imageDims []int, labels []int64, k int) (string, string) {
	t.Helper()
	images, err := idx.New(idx.UByte, imageDims...)
	if err != nil {
		t.Fatal(err)
	}
	dims := []int{len(labels) / k}
	if k > 1 {
		dims = append(dims, k)
	}
	la, err := idx.New(idx.Int32, dims...)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range labels {
		la.SetInt(i, v)
	}
	ip, lp := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, la); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// TestVerifyFollowsThePairRule: verify and the app (store.CheckPair) agree. verify used to
// accept the label −2147483648, which the app refuses; the app now opens N×1×H×W like verify.
func TestVerifyFollowsThePairRule(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writeTestPair(t, dir, []int{3, 1, 28, 28}, []int64{4, 2, 4}, 1)
	if code, out, e := runCLI("verify", ip, lp); code != 0 || out != "ok: 3 samples; images 0x00000804 ubyte 3×1×28×28; labels 0x00000c01 int32 3, 2 classes (2–4)\n" {
		t.Fatalf("N×1×28×28: exit %d, %q %q", code, out, e)
	}
	ip, lp = writeTestPair(t, dir, []int{3, 28, 28}, []int64{4, math.MinInt32, 4}, 1)
	if code, _, e := runCLI("verify", ip, lp); code != 1 || !strings.Contains(e, lp+": label -2147483648 of sample 1 is outside") {
		t.Fatalf("label -2147483648: exit %d, %q", code, e)
	}
	ip, lp = writeTestPair(t, dir, []int{3, 3, 28, 28}, []int64{4, 2, 4}, 1)
	if code, _, e := runCLI("verify", ip, lp); code != 1 || !strings.Contains(e, "images must be N×H×W") {
		t.Fatalf("N×3×28×28: exit %d, %q", code, e)
	}
	// QMNIST-style N×K labels: the class is column 0, whatever the other columns hold.
	ip, lp = writeTestPair(t, dir, []int{3, 28, 28}, []int64{7, math.MinInt32, -9, 1, 5, 5, 7, 0, 0}, 3)
	if code, out, e := runCLI("verify", ip, lp); code != 0 || !strings.HasSuffix(out, "labels 0x00000c02 int32 3×3, 2 classes (1–7)\n") {
		t.Fatalf("N×3 labels: exit %d, %q %q", code, out, e)
	}
}

// TestSameFileIsAUsageError: `import DIR X X` used to report success with only the labels in X.
func TestSameFileIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "7", "a.png"), 60, 60, 0)
	x := filepath.Join(dir, "x")
	ip, lp := writeTestPair(t, dir, []int{3, 28, 28}, []int64{1, 2, 3}, 1)
	link := filepath.Join(dir, "link")
	os.Symlink(ip, link)
	hard := filepath.Join(dir, "hard")
	os.Link(ip, hard)
	rel, _ := filepath.Rel(mustGetwd(t), ip)
	cases := [][]string{
		{"import", tree, x, x},
		{"import", tree, x, filepath.Join(dir, ".", "x")},
		{"import", tree, filepath.Join(tree, "7", "a.png"), x},
		{"import", tree, tree, x},
		{"convert", ip, ip},
		{"convert", ip, rel},
		{"convert", ip, link},
		{"convert", ip, hard},
		{"normalize", filepath.Join(tree, "7", "a.png"), filepath.Join(tree, "7", "a.png")},
	}
	before, _ := os.ReadFile(ip)
	for _, args := range cases {
		code, _, e := runCLI(args...)
		if code != 2 || !strings.Contains(e, "idxlabel: ") || !(strings.Contains(e, "same file") || strings.Contains(e, "is the input")) {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, e)
		}
	}
	if _, err := os.Stat(x); err == nil {
		t.Error("a refused import wrote its output")
	}
	if after, _ := os.ReadFile(ip); !bytes.Equal(before, after) {
		t.Error("an input was changed")
	}
	_ = lp
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// TestImportRefusesWrappingFolderNames: "4294967296" used to become label 0, "2147483648"
// label −2147483648.
func TestImportRefusesWrappingFolderNames(t *testing.T) {
	for _, name := range []string{"4294967296", "2147483648"} {
		dir := t.TempDir()
		tree := filepath.Join(dir, "digits")
		writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 60, 0)
		writeDigitPNG(t, filepath.Join(tree, name, "b.png"), 60, 60, 0)
		ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
		code, _, e := runCLI("import", tree, ip, lp)
		if code != 1 || !strings.Contains(e, filepath.Join(tree, name)+": folder name "+name+" is above the largest label") {
			t.Fatalf("%s: exit %d, %q", name, code, e)
		}
		if _, err := os.Stat(lp); err == nil {
			t.Fatalf("%s: labels written", name)
		}
	}
	// The largest label that fits is taken, as int32.
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "2147483647", "b.png"), 60, 60, 0)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if code, _, e := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("2147483647: %q", e)
	}
	if l, err := idx.ReadFile(lp); err != nil || l.Int(0) != math.MaxInt32 {
		t.Fatalf("labels %v %v", l, err)
	}
}

// TestImportSkipsHugeImages: a 20,000×20,000 PNG is skipped, named, without being decoded.
func TestImportSkipsHugeImages(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "1", "ok.png"), 60, 60, 0)
	huge := filepath.Join(tree, "1", "huge.png")
	os.WriteFile(huge, pngHeader20k(), 0o644)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	code, out, e := runCLI("import", tree, ip, lp)
	if code != 0 || !strings.Contains(e, huge+": image too large: 20000×20000 pixels") || !strings.Contains(out, "1 samples of 28×28") || !strings.Contains(out, "(1 skipped)") {
		t.Fatalf("exit %d, %q %q", code, out, e)
	}
}

// pngHeader20k is the signature and IHDR chunk of a 20,000×20,000 8-bit grey PNG: all that
// image.DecodeConfig reads.
func pngHeader20k() []byte {
	chunk := []byte("IHDR\x00\x00\x4e\x20\x00\x00\x4e\x20\x08\x00\x00\x00\x00")
	b := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), chunk...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(chunk))
}

// TestGzipOutputNameNotLatin1: such a name used to fail with "gzip.Write: non-Latin-1 header
// string".
func TestGzipOutputNameNotLatin1(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	out := filepath.Join(dir, "цифры-数字.gz")
	if code, _, e := runCLI("convert", ip, out); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if code, _, e := runCLI("info", out); code != 0 {
		t.Fatalf("info: %q", e)
	}
}

// TestConvertRemovesStaleTemps: a convert killed mid-write leaves ".<out>.idxlabel-tmp-N"; the
// next convert to the same target removes those older than an hour and leaves the rest.
func TestConvertRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	out := filepath.Join(dir, "out.gz")
	stale, fresh, other := filepath.Join(dir, ".out.gz.idxlabel-tmp-1"), filepath.Join(dir, ".out.gz.idxlabel-tmp-2"), filepath.Join(dir, ".images.idxlabel-tmp-3")
	old := time.Now().Add(-3 * time.Hour)
	for _, p := range []string{stale, fresh, other} {
		os.WriteFile(p, []byte("partial"), 0o644)
		if p != fresh {
			os.Chtimes(p, old, old)
		}
	}
	if code, _, e := runCLI("convert", ip, out); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

// TestConvertWritesThroughSymlink: the documented choice for a symbolic link as OUT.
func TestConvertWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	real := filepath.Join(dir, "real")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Skip(err)
	}
	if code, _, e := runCLI("convert", ip, link); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if a, err := idx.ReadFile(real); err != nil || a.Dims[0] != 2 {
		t.Fatalf("the link's target: %v", err)
	}
}
