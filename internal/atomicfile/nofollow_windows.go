//go:build windows

package atomicfile

import "syscall"

// NoFollow is Windows' counterpart of O_NOFOLLOW, for journal, lock and change-log files:
// FILE_FLAG_OPEN_REPARSE_POINT, which os.OpenFile passes on to CreateFile (since Go 1.26 it
// takes FILE_FLAG_* in the flag's high bits; golang.org/issue/73676), opens a symbolic link
// itself instead of the file it names. The callers' check of the opened file (a link is not a
// regular file) then refuses it, without the gap between an Lstat and the open.
const NoFollow = syscall.FILE_FLAG_OPEN_REPARSE_POINT

// followRefused is false on Windows: an open with NoFollow opens a link itself, and the check of
// the opened file refuses it (OpenNoFollow).
func followRefused(error) bool { return false }
