package dialogs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// A pair open elsewhere is said as a fact by the store; the window adds what to do, and keeps
// the error matchable.
func TestWithAdvice(t *testing.T) {
	err := withAdvice(&pairfile.LockedError{Path: "x-labels-idx1-ubyte", PID: 7, Host: "h"}, nil)
	if !errors.Is(err, pairfile.ErrLocked) || !strings.HasSuffix(err.Error(), "Close it there, or choose other files") {
		t.Fatalf("%v", err)
	}
	err = withAdvice(&pairfile.LockedError{Path: "x-labels-idx1-ubyte", PID: 7, Host: "h", Writing: true}, nil)
	if !errors.Is(err, pairfile.ErrLocked) || !strings.HasSuffix(err.Error(), "Wait for it to finish, or choose other files") {
		t.Fatalf("a file being written: %v", err)
	}
	plain := errors.New("plain")
	if withAdvice(plain, nil) != plain {
		t.Fatal("an error without advice was changed")
	}
}

// A lock this process holds is this window's (one main window a process): the pair it has open
// for editing, or a job of it. The window never says "another window" of it, which it said of
// every such lock (pairfile's message: "already open for editing in this idxlabel (another
// window)", and the advice "Edit it in the window that has it open").
func TestWithAdviceOwnLocks(t *testing.T) {
	dir := t.TempDir()
	images, labels := filepath.Join(dir, "a-images-idx3-ubyte"), filepath.Join(dir, "a-labels-idx1-ubyte")
	for _, f := range []string{images, labels} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	held, _, err := pairfile.LockPair(images, labels) // the pair the window has open
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	_, _, again := pairfile.LockPair(images, labels) // File → Open of it, or a writer of its files
	var locked *pairfile.LockedError
	if !errors.As(again, &locked) || !locked.Self {
		t.Fatalf("locking a pair this process holds: %v, want a LockedError of this process", again)
	}
	open := func() (string, string) { return images, labels }
	other := func() (string, string) {
		return filepath.Join(dir, "b-images-idx3-ubyte"), filepath.Join(dir, "b-labels-idx1-ubyte")
	}
	// The same files named through a link are the open pair too.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	viaLink := func() (string, string) {
		return filepath.Join(link, "a-images-idx3-ubyte"), filepath.Join(link, "a-labels-idx1-ubyte")
	}
	for _, c := range []struct {
		name string
		open func() (string, string)
		want string
	}{
		{"the window's open pair", open, labels + " is the pair this window has open for editing.\n\nChoose other files"},
		{"the window's open pair named through a link", viaLink, labels + " is the pair this window has open for editing.\n\nChoose other files"},
		{"a pair held by a job of the window (a save to it)", other, labels + " is open for editing in this idxlabel, held by a job of this window under way (a save to it, or its opening).\n\nWait for it to finish"},
		{"a pair held by a job of a window with no pair open", nil, labels + " is open for editing in this idxlabel, held by a job of this window"},
	} {
		err := withAdvice(again, c.open)
		if !errors.Is(err, pairfile.ErrLocked) || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "another window") {
			t.Errorf("%s: %q, want it to start %q, match ErrLocked and say nothing of another window", c.name, err, c.want)
		}
	}
	// A file this window's own job writes (an export under way).
	err = withAdvice(&pairfile.LockedError{Path: labels, PID: os.Getpid(), Self: true, Writing: true}, open)
	if !errors.Is(err, pairfile.ErrLocked) || !strings.HasSuffix(err.Error(), "Wait for this window's job that writes it to finish, or choose other files") {
		t.Errorf("a file this window's job writes: %q", err)
	}
}
