//go:build unix

package export

import (
	"context"
	"errors"
	"strings"
	"testing"

	"idxlabel/fixture/nonregular"
)

// A FIFO at OUT is refused for every format, with or without Force, and stays.
func TestForceRefusesAFIFO(t *testing.T) {
	out := nonregular.FIFO(t, "", "fifo")
	for _, f := range []Format{PNG, CSV, NPZ} {
		for _, force := range []bool{false, true} {
			err := Write(context.Background(), gen(6, 2, 2), out, Options{Format: f, Force: force})
			if !errors.Is(err, ErrInTheWay) || !strings.Contains(err.Error(), "not a regular file or folder") {
				t.Fatalf("%s, Force %v: %v", f, force, err)
			}
			nonregular.Kept(t, out)
		}
	}
}
