package export

import (
	"path/filepath"
	"strings"
)

// SplitOf is the Hugging Face split a pair's image file names, by its base name (letter case
// aside): "train" when it holds "train", "test" when it holds "test" or "t10k" (MNIST's test
// files: t10k-images-idx3-ubyte), "validation" when it holds "val"; "" when it names none (the
// caller's default: a single pair is train). The rule of `idxlabel export --format parquet`
// without --splits and of the window's Parquet export alike.
func SplitOf(images string) string {
	base := strings.ToLower(filepath.Base(images))
	switch {
	case strings.Contains(base, "train"):
		return "train"
	case strings.Contains(base, "test"), strings.Contains(base, "t10k"):
		return "test"
	case strings.Contains(base, "val"):
		return "validation"
	}
	return ""
}
