//go:build windows

package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processAlive reports whether a process with this id runs on this host (on Windows,
// os.FindProcess opens the process and fails when there is none).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// openSafe is added to the flags of every open of a lock file; Windows has no O_NOFOLLOW, so
// lockPair's Lstat check is what refuses a link there.
const openSafe = oNoFollow

// isLink reports whether an open failed because the path is a symbolic link; never on Windows.
func isLink(error) bool { return false }

// cannotWrite reports whether err says the folder cannot be written: no permission, or a
// read-only file system.
func cannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}
