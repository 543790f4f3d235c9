//go:build !windows

package atomicfile

import (
	"errors"
	"syscall"
)

// DiskFull reports whether err says the disk is full (ENOSPC).
func DiskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }
