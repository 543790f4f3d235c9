package dialogs

import (
	"errors"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// A pair open elsewhere is said as a fact by the store; the window adds what to do, and keeps
// the error matchable.
func TestWithAdvice(t *testing.T) {
	err := withAdvice(&pairfile.LockedError{Path: "x-labels-idx1-ubyte", PID: 7, Host: "h"})
	if !errors.Is(err, pairfile.ErrLocked) || !strings.HasSuffix(err.Error(), "Close it there, or choose other files") {
		t.Fatalf("%v", err)
	}
	err = withAdvice(&pairfile.LockedError{Path: "x-labels-idx1-ubyte", PID: 7, Host: "h", Writing: true})
	if !errors.Is(err, pairfile.ErrLocked) || !strings.HasSuffix(err.Error(), "Wait for it to finish, or choose other files") {
		t.Fatalf("a file being written: %v", err)
	}
	plain := errors.New("plain")
	if withAdvice(plain) != plain {
		t.Fatal("an error without advice was changed")
	}
}
