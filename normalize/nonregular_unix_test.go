//go:build unix

package normalize

import (
	"errors"
	"testing"

	"idxlabel/fixture/nonregular"
	"idxlabel/internal/atomicfile"
)

// TestLoadFileRefusesFIFO: a FIFO named like an image used to block LoadFile until a writer came.
func TestLoadFileRefusesFIFO(t *testing.T) {
	fifo := nonregular.FIFO(t, "", "digit.png")
	if _, err := LoadFile(fifo, Options{}, true); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Fatalf("LoadFile(fifo): %v", err)
	}
}
