//go:build unix

package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO at OUT is refused for every format, with or without Force, and stays.
func TestForceRefusesAFIFO(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(out, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{PNG, CSV, NPZ} {
		for _, force := range []bool{false, true} {
			err := Write(context.Background(), gen(6, 2, 2), out, Options{Format: f, Force: force})
			if !errors.Is(err, ErrInTheWay) || !strings.Contains(err.Error(), "not a regular file or folder") {
				t.Fatalf("%s, Force %v: %v", f, force, err)
			}
			if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Fatalf("%s: the FIFO is gone: %v", f, err)
			}
		}
	}
}
