//go:build unix

package store

import (
	"os"
	"syscall"
)

// hardLinks returns how many names the file of fi has (1 when the system does not say).
func hardLinks(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 0 {
		return int(st.Nlink)
	}
	return 1
}
