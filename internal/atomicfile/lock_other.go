//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package atomicfile

import "os"

// openNonblock is 0 where FIFOs cannot block an open the way they do on POSIX.
const openNonblock = 0

// lock does nothing where flock is unavailable; on Windows an open file cannot be removed, which
// protects a temporary file being written in the same way.
func lock(f *os.File) {}

// locked reports false where flock is unavailable: RemoveStale then goes by age alone.
func locked(path string) bool { return false }

// lockedFile reports false where flock is unavailable.
func lockedFile(f *os.File) bool { return false }
