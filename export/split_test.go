package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// SplitOf names the split of MNIST's, Fashion-MNIST's and EMNIST's file names as the hub names
// them, and none for a name that tells none; Write's Parquet export writes its one split under
// Options.Split (train when empty).
func TestSplitOfAndOptionsSplit(t *testing.T) {
	for name, want := range map[string]string{
		"t10k-images-idx3-ubyte.gz":             "test",
		"/data/mnist/train-images-idx3-ubyte":   "train",
		"emnist-letters-test-images-idx3-ubyte": "test",
		"Fashion-TRAIN-images.idx3-ubyte":       "train",
		"my-val-images-idx3-ubyte":              "validation",
		"mine-images-idx3-ubyte":                "",
	} {
		if got := SplitOf(name); got != want {
			t.Errorf("SplitOf(%q) = %q, want %q", name, got, want)
		}
	}
	s := gen(5, 4, 4)
	for split, file := range map[string]string{"": "train-00000-of-00001.parquet", "test": "test-00000-of-00001.parquet"} {
		out := filepath.Join(t.TempDir(), "hf")
		if err := Write(context.Background(), s, out, Options{Format: Parquet, Split: split}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(out, "data", file)); err != nil {
			t.Errorf("Split %q: %v", split, err)
		}
	}
}
