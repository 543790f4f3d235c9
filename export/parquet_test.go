package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/sample"
)

// The dataset card names the classes (quoted for YAML whatever they hold), the splits and
// their sizes, and each source by its name and SHA-256; labels a ClassLabel cannot hold make
// the label a plain int64.
func TestParquetCard(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "train-images")
	os.WriteFile(src, []byte("abc"), 0o644)
	s := gen(9, 3, 4)
	s.ClassName = func(c int) string { return []string{`say "zero": 0`, "", "two"}[c] }
	out := filepath.Join(dir, "hub")
	if err := WriteParquet(context.Background(), []Split{{Name: "train", Set: s, Sources: []string{src}}, {Name: "test", Set: gen(4, 3, 4)}}, out, Options{Made: "idxlabel 9.9"}); err != nil {
		t.Fatal(err)
	}
	card, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, want := range []string{
		`'0': "say \"zero\": 0"`, `'1': "one"`, `'2': "two"`, // class 1: the second split's name
		"  - name: train\n    num_bytes: ", "num_examples: 9\n", "num_examples: 4\n",
		"  - split: test\n    path: data/test-*\n",
		"Written by idxlabel 9.9", "| train | 9 | train-images | `ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad` |",
	} {
		if !strings.Contains(string(card), want) {
			t.Fatalf("the card lacks %q:\n%s", want, card)
		}
	}
	neg := gen(5, 2, 2)
	neg.Labels[2] = -7
	out2 := filepath.Join(dir, "neg")
	if err := WriteParquet(context.Background(), []Split{{Name: "train", Set: neg}}, out2, Options{}); err != nil {
		t.Fatal(err)
	}
	if card, _ := os.ReadFile(filepath.Join(out2, "README.md")); !strings.Contains(string(card), "  - name: label\n    dtype: int64\n") {
		t.Fatalf("a negative label kept a ClassLabel:\n%s", card)
	}
}

// An existing folder is replaced only with Force and only when it is an earlier Parquet export
// or empty; split names are the hub's.
func TestParquetOut(t *testing.T) {
	dir := t.TempDir()
	s := gen(6, 2, 2)
	one := []Split{{Name: "train", Set: s}}
	out := filepath.Join(dir, "hub")
	os.Mkdir(out, 0o755)
	if err := WriteParquet(context.Background(), one, out, Options{}); err != nil {
		t.Fatalf("into an empty folder: %v", err)
	}
	if err := WriteParquet(context.Background(), one, out, Options{}); !errors.Is(err, ErrExists) {
		t.Fatalf("again without Force: %v", err)
	}
	if err := WriteParquet(context.Background(), []Split{{Name: "other", Set: s}}, out, Options{Force: true}); err != nil {
		t.Fatalf("with Force: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, ParquetFile("train"))); !os.IsNotExist(err) {
		t.Fatalf("the earlier export's file is left: %v", err)
	}
	os.WriteFile(filepath.Join(out, "data", "notes.txt"), []byte("mine"), 0o644)
	if err := WriteParquet(context.Background(), one, out, Options{Force: true}); !errors.Is(err, ErrInTheWay) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("an export with a file added: %v", err)
	}
	foreign := filepath.Join(dir, "foreign")
	os.MkdirAll(filepath.Join(foreign, "x"), 0o755)
	if err := WriteParquet(context.Background(), one, foreign, Options{Force: true}); !errors.Is(err, ErrInTheWay) {
		t.Fatalf("a foreign folder: %v", err)
	}
	for _, bad := range [][]Split{nil, {{Name: "a/b", Set: s}}, {{Name: "a", Set: s}, {Name: "a", Set: s}}, {{Name: "a", Set: s}, {Name: "b", Set: gen(3, 3, 3)}}} {
		if err := WriteParquet(context.Background(), bad, filepath.Join(dir, "bad"), Options{}); err == nil {
			t.Fatalf("%d splits accepted", len(bad))
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
	// Write with the Parquet format writes one split, train.
	w := filepath.Join(dir, "w")
	if err := Write(context.Background(), sample.Set{N: 1, H: 1, W: 1, Labels: []int{sample.NoLabel}, Pixels: func(int) []byte { return []byte{9} }}, w, Options{Format: Parquet}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w, ParquetFile("train"))); err != nil {
		t.Fatal(err)
	}
}
