//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package atomicfile

import (
	"os"
	"syscall"
)

// openNonblock makes opening a FIFO return at once instead of waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

// lock takes an exclusive flock on a temporary file being written; it is released when f is
// closed (or the process dies). Best effort: a filesystem without flock leaves it unlocked.
func lock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// locked reports whether another open file description holds a flock on path.
func locked(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return err == syscall.EWOULDBLOCK
}

// lockedFile reports whether another open file description holds a flock on the file f is open
// on (f's own test lock goes when f is closed).
func lockedFile(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == syscall.EWOULDBLOCK
}
