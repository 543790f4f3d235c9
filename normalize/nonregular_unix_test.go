//go:build unix

package normalize

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"idxlabel/internal/atomicfile"
)

// TestLoadFileRefusesFIFO: a FIFO named like an image used to block LoadFile until a writer came.
func TestLoadFileRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "digit.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if _, err := LoadFile(fifo, Options{}, true); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Fatalf("LoadFile(fifo): %v", err)
	}
}
