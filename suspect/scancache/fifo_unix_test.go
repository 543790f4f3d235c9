//go:build unix

package scancache

import (
	"errors"
	"testing"

	"idxlabel/fixture/nonregular"
)

// TestLoadFIFO: a FIFO where the cache should be is an error at once, not a read that hangs.
func TestLoadFIFO(t *testing.T) {
	fifo := nonregular.FIFO(t, "", "fifo"+Suffix)
	if _, err := Load(fifo, Key{1}, 20); err == nil || errors.Is(err, ErrMiss) {
		t.Errorf("a FIFO: %v", err)
	}
}
