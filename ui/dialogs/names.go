package dialogs

import (
	"idxlabel/pairfile"
	"path/filepath"
	"strings"
)

// BaseName returns the part of an MNIST-style file name before "-images"/"-labels", the base
// name the dialogs propose for what is written beside a pair
// ("train" for train-images-idx3-ubyte.gz), or the name without extensions.
func BaseName(path string) string {
	name := filepath.Base(path)
	for _, marker := range []string{"-images", "-labels", ".images", "_images"} {
		if k := strings.Index(strings.ToLower(name), marker); k > 0 {
			return name[:k]
		}
	}
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// AbsPath makes a path absolute and clean (pairfile.Abs: a path remembered in the preferences
// must name the same file from any working folder); "" stays "".
func AbsPath(p string) string {
	if p == "" {
		return ""
	}
	return pairfile.Abs(p)
}
