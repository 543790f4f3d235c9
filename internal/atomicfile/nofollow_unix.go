//go:build unix

package atomicfile

import "syscall"

// NoFollow, added to os.OpenFile's flags, makes opening a symbolic link fail (POSIX
// O_NOFOLLOW): for files that must never be followed through a link planted in their place
// (journals, lock files, change logs).
const NoFollow = syscall.O_NOFOLLOW
