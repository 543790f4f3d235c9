package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/export"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// The libraries' errors state facts; the command line adds the advice, once, after the message.
func TestAdviceFollowsTheFacts(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("out.csv: %w", export.ErrExists), " (use --force to replace it)"},
		{&pairfile.LockedError{Path: "l", LockFile: "l.lock", PID: 12, Host: "h"}, ": close it there"},
		{&pairfile.LockedError{Path: "l", LockFile: "l.lock"}, ": close it there (if no other idxlabel is running, delete l.lock)"},
		{&pairfile.LockedError{Path: "l", Self: true}, ": edit it there"},
		{&pairfile.LockedError{Path: "l", PID: 12, Host: "h", Writing: true}, ": wait for it to finish, or write elsewhere"},
		{fmt.Errorf("plain"), ""},
	} {
		if got := advice(c.err); got != c.want {
			t.Errorf("advice(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// A pair held open for editing is refused by import, with the holder named and the advice.
func TestImportIntoAHeldPairSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	writeDigitPNG(t, filepath.Join(dir, "in", "1", "a.png"), 60, 80, 0)
	ip, lp := filepath.Join(dir, "p-images-idx3-ubyte"), filepath.Join(dir, "p-labels-idx1-ubyte")
	if code, _, stderr := runCLI("import", filepath.Join(dir, "in"), ip, lp); code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	ds, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	code, _, stderr := runCLI("import", filepath.Join(dir, "in"), ip, lp)
	if code != 1 || !strings.HasSuffix(stderr, "is already open for editing in this idxlabel (another window): edit it there\n") {
		t.Fatalf("import into a held pair: exit %d, %q", code, stderr)
	}
}
