//go:build unix

package main

import (
	"os"
	"syscall"
)

// maxRSS returns a finished process's peak resident set size in MB (Linux reports KB).
func maxRSS(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss) / 1024
	}
	return 0
}
