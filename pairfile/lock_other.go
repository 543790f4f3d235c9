//go:build !unix && !windows

package pairfile

import (
	"errors"
	"io/fs"

	"idxlabel/internal/atomicfile"
)

// processAlive cannot tell on this system, so a lock file is never taken for stale.
func processAlive(pid int) bool { return true }

// openSafe: no O_NOFOLLOW here; lockPair's Lstat check refuses a link.
const openSafe = atomicfile.NoFollow

// removeWhileOpen: as on Unix (see lock.release).
const removeWhileOpen = true

// isLink: never on this system.
func isLink(error) bool { return false }

// CannotWrite reports whether err says the folder cannot be written: no permission, or a
// read-only file system.
func CannotWrite(err error) bool { return errors.Is(err, fs.ErrPermission) }

// nameTooLong: not told apart on this system.
func nameTooLong(error) bool { return false }
