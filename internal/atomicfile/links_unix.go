//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// Links returns how many names (hard links) the file fi describes has: 1 when the system does
// not say.
func Links(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 0 {
		return int(st.Nlink)
	}
	return 1
}
