//go:build unix

package idx

import (
	"errors"
	"testing"

	"idxlabel/fixture/nonregular"
	"idxlabel/internal/atomicfile"
)

// TestFIFOIsRefused: a FIFO that no one writes used to hang ReadFile forever (os.Open waits
// for a writer, and the gzip check opened it again).
func TestFIFOIsRefused(t *testing.T) {
	fifo := nonregular.FIFO(t, "", "fifo")
	if _, err := ReadFile(fifo); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Fatalf("ReadFile(fifo): %v", err)
	}
	if _, err := OpenFile(fifo); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Fatalf("OpenFile(fifo): %v", err)
	}
	// As a target it is refused too, and stays a FIFO.
	a, _ := New(UByte, 1)
	if err := WriteFile(fifo, a); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Fatalf("WriteFile(fifo): %v", err)
	}
	nonregular.Kept(t, fifo)
}
