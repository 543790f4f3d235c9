package dialogs

import (
	"os"
	"strings"

	"idxlabel/internal/clip"
)

// ExistingFiles names those of paths that exist ("a-images-idx3-ubyte and a-labels-idx1-ubyte"),
// for the question "… already there. Replace?".
func ExistingFiles(paths ...string) string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); p != "" && err == nil {
			out = append(out, clip.Name(p))
		}
	}
	return strings.Join(out, " and ")
}
