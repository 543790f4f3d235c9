//go:build unix

package store

import "syscall"

// oNoFollow makes opening a symbolic link fail (POSIX O_NOFOLLOW), for journal files.
const oNoFollow = syscall.O_NOFOLLOW
