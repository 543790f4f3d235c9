package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/export"
	"idxlabel/idx"
)

// sameFile fails t unless the IDX files a and b hold the same array (values; the label dtype of
// b may be wider).
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := idx.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := idx.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != y.Len() {
		t.Fatalf("%s: %d values, %s: %d", a, x.Len(), b, y.Len())
	}
	for i := range x.Len() {
		if x.Int(i) != y.Int(i) {
			t.Fatalf("%s and %s differ at value %d", a, b, i)
		}
	}
}

// export --format parquet writes a Hugging Face folder of the pairs given, its splits named
// from the files; convert turns a split back into the same pair, and a Kaggle CSV and an .npz
// likewise; an existing output is replaced only with --force.
func TestExportAndConvertFormats(t *testing.T) {
	dir := t.TempDir()
	gip, glp := genPair(t, dir, 30)
	ip, lp := filepath.Join(dir, "train-images-idx3-ubyte"), filepath.Join(dir, "train-labels-idx1-ubyte")
	tip, tlp := filepath.Join(dir, "t10k-images-idx3-ubyte"), filepath.Join(dir, "t10k-labels-idx1-ubyte")
	for _, p := range [][2]string{{gip, ip}, {glp, lp}, {gip, tip}, {glp, tlp}} {
		if err := os.Link(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(lp+".classes.txt", []byte("zero\none\n"), 0o644)
	hub := filepath.Join(dir, "hub")
	code, _, stderr := runCLI("export", "--format", "parquet", ip, lp, tip, tlp, hub)
	if code != 0 {
		t.Fatalf("export parquet: exit %d, %s", code, stderr)
	}
	card, _ := os.ReadFile(filepath.Join(hub, "README.md"))
	for _, want := range []string{"- name: train\n", "- name: test\n", "num_examples: 30", `'0': "zero"`, `'9': "9"`, "path: data/test-*", "t10k-labels-idx1-ubyte"} {
		if !bytes.Contains(card, []byte(want)) {
			t.Fatalf("the card lacks %q:\n%s", want, card)
		}
	}
	oi, ol := filepath.Join(dir, "back-images-idx3-ubyte"), filepath.Join(dir, "back-labels-idx1-ubyte")
	test := filepath.Join(hub, export.ParquetFile("test"))
	if code, out, stderr := runCLI("convert", test, oi, ol); code != 0 || !strings.Contains(out, "30 samples of 28×28") {
		t.Fatalf("convert parquet: exit %d, %q %q", code, out, stderr)
	}
	sameFile(t, ip, oi)
	sameFile(t, lp, ol)
	if names, _ := os.ReadFile(ol + ".classes.txt"); string(names) != "zero\none\n" {
		t.Fatalf("class names %q", names)
	}
	if code, _, stderr := runCLI("convert", test, oi, ol); code != 1 || !strings.Contains(stderr, "exists (use --force") {
		t.Fatalf("convert onto existing outputs: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("export", "--format", "parquet", ip, lp, tip, tlp, hub); code != 1 || !strings.Contains(stderr, "exists (use --force") {
		t.Fatalf("export onto an earlier export: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("export", "--force", "--format", "parquet", "--splits", "a,b", ip, lp, tip, tlp, hub); code != 0 {
		t.Fatalf("export --force: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(hub, export.ParquetFile("b"))); err != nil {
		t.Fatalf("--splits a,b: %v", err)
	}
	for _, f := range []string{"kaggle-csv", "npz"} {
		out := filepath.Join(dir, "out."+f)
		if code, _, stderr := runCLI("export", "--format", f, ip, lp, out); code != 0 {
			t.Fatalf("export %s: exit %d, %q", f, code, stderr)
		}
		if code, _, stderr := runCLI("convert", "--force", out, oi, ol); code != 0 {
			t.Fatalf("convert %s: exit %d, %q", f, code, stderr)
		}
		sameFile(t, ip, oi)
		sameFile(t, lp, ol)
		if _, err := os.Stat(ol + ".classes.txt"); !os.IsNotExist(err) {
			t.Fatalf("%s: a class-name file left from the Parquet's: %v", f, err)
		}
	}
}

// The command line says what is wrong with the operands.
func TestFormatsUsage(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 4)
	npz := filepath.Join(dir, "x.npz")
	if code, _, _ := runCLI("export", "--format", "npz", ip, lp, npz); code != 0 {
		t.Fatal("export npz failed")
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"convert", npz, filepath.Join(dir, "o")}, "convert FILE IMAGES LABELS"},
		{[]string{"convert", ip, filepath.Join(dir, "a"), filepath.Join(dir, "b")}, "is an IDX file"},
		{[]string{"export", "--format", "png", ip, lp, ip, lp, filepath.Join(dir, "t")}, "writes one pair"},
		{[]string{"export", "--format", "parquet", ip, lp, ip, filepath.Join(dir, "t")}, "takes pairs"},
		{[]string{"export", "--format", "parquet", "--splits", "a", ip, lp, ip, lp, filepath.Join(dir, "t")}, "2 pairs"},
		{[]string{"export", "--format", "parquet", ip, lp, ip, lp, filepath.Join(dir, "t")}, "--splits"},
		{[]string{"export", "--format", "tsv", ip, lp, filepath.Join(dir, "t")}, "parquet"},
	} {
		if code, _, stderr := runCLI(tc.args...); code != 2 || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d, %q, want 2 and %q", tc.args, code, stderr, tc.says)
		}
	}
}
