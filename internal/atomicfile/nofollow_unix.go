//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// NoFollow, added to os.OpenFile's flags, makes opening a symbolic link fail (POSIX
// O_NOFOLLOW): for files that must never be followed through a link planted in their place
// (journals, lock files, change logs).
const NoFollow = syscall.O_NOFOLLOW

// followRefused reports whether an open with NoFollow failed because the path is a symbolic
// link (ELOOP; EMLINK on FreeBSD and NetBSD).
func followRefused(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
