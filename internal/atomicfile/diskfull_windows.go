//go:build windows

package atomicfile

import (
	"errors"
	"syscall"
)

// Windows error codes the syscall package lacks.
const (
	errorHandleDiskFull = syscall.Errno(39)  // ERROR_HANDLE_DISK_FULL
	errorDiskFull       = syscall.Errno(112) // ERROR_DISK_FULL: "There is not enough space on the disk."
)

// DiskFull reports whether err says the disk is full: ERROR_DISK_FULL or ERROR_HANDLE_DISK_FULL
// on Windows, or ENOSPC (which Go's own code may return, and the tests inject).
func DiskFull(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull) || errors.Is(err, syscall.ENOSPC)
}
