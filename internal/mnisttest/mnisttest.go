// Package mnisttest finds the real MNIST files that tests and benchmarks use
// (../shared/data/mnist beside the repository, or $IDXLABEL_MNIST) and builds larger datasets
// from them. It never copies the files into the repository.
package mnisttest

import (
	"os"
	"path/filepath"
	"testing"
)

// Names of the real files (see ../shared/data/mnist/README.md).
const (
	TestImages  = "t10k-images-idx3-ubyte.gz"  // 10000×28×28 ubyte, magic 0x00000803
	TestLabels  = "t10k-labels-idx1-ubyte.gz"  // 10000 ubyte, first ten 7 2 1 0 4 1 4 9 5 9
	TrainImages = "train-images-idx3-ubyte.gz" // 60000×28×28 ubyte, magic 0x00000803
	TrainLabels = "train-labels-idx1-ubyte.gz" // 60000 ubyte, first ten 5 0 4 1 9 2 1 3 1 4
)

// TrainImagesMD5 is the MD5 of the official train-images-idx3-ubyte.gz (the checksum
// torchvision's MNIST loader checks).
const TrainImagesMD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"

// Dir returns the folder holding the real MNIST files: $IDXLABEL_MNIST when set, otherwise
// shared/data/mnist in the first parent folder of the working directory that has one. When
// there is none it skips tb with a message naming where it looked.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("IDXLABEL_MNIST"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Skipf("real MNIST files not found: %v", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		cand := filepath.Join(d, "shared", "data", "mnist")
		if _, err := os.Stat(filepath.Join(cand, TestImages)); err == nil {
			return cand
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	tb.Skipf("real MNIST files not found in shared/data/mnist above %s; set IDXLABEL_MNIST to their folder", wd)
	return ""
}

// Path returns the path of one of the real files (TestImages, TestLabels, TrainImages,
// TrainLabels).
func Path(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), name)
}
