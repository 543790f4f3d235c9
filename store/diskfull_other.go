//go:build !windows

package store

import (
	"errors"
	"syscall"
)

// diskFull reports whether err says the disk is full (ENOSPC).
func diskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }
