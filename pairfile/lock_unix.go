//go:build unix

package pairfile

import (
	"errors"
	"io/fs"
	"syscall"

	"idxlabel/internal/atomicfile"
)

// processAlive reports whether a process with this id runs on this host (signal 0 probes it;
// EPERM means it runs under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// openSafe is added to the flags of every open of a lock file: never follow a link planted in
// its place, never wait for a writer on a FIFO.
const openSafe = atomicfile.NoFollow | syscall.O_NONBLOCK

// removeWhileOpen: a file can be removed while it is open (see lock.release).
const removeWhileOpen = true

// isLink reports whether an open with openSafe failed because the path is a symbolic link.
func isLink(err error) bool { return errors.Is(err, syscall.ELOOP) }

// CannotWrite reports whether err says the folder cannot be written: no permission, a read-only
// file system, or a name too long for it.
func CannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || nameTooLong(err)
}

// nameTooLong reports whether err says a file name is too long for the file system (ENAMETOOLONG).
func nameTooLong(err error) bool { return errors.Is(err, syscall.ENAMETOOLONG) }
