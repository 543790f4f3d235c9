//go:build windows

package store

import "os"

// processAlive reports whether a process with this id runs on this host (on Windows,
// os.FindProcess opens the process and fails when there is none).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
