//go:build unix

package scancache

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadFIFO: a FIFO where the cache should be is an error at once, not a read that hangs.
func TestLoadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo"+Suffix)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if _, err := Load(fifo, Key{1}, 20); err == nil || errors.Is(err, ErrMiss) {
		t.Errorf("a FIFO: %v", err)
	}
}
