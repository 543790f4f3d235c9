package cli

import (
	"fmt"
	"os"
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
		{&pairfile.LockedError{Path: "l", LockFile: "l.lock", Self: true}, ": this command holds no lock on it, so the program running the command holds it, or an earlier process with this one's id left l.lock (if no idxlabel has the pair open, delete it)"},
		{&pairfile.LockedError{Path: "l", LockFile: "l.lock", Self: true, Writing: true}, ": this command holds no lock on it, so the program running the command holds it, or an earlier process with this one's id left l.lock (if no idxlabel has the pair open, delete it)"},
		{&pairfile.LockedError{Path: "l", PID: 12, Host: "h", Writing: true}, ": wait for it to finish, or write elsewhere"},
		{fmt.Errorf("plain"), ""},
	} {
		if got := advice(c.err); got != c.want {
			t.Errorf("advice(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// A pair held open for editing is refused by import, with the holder named and the advice. Here
// the program running the command (this test) holds it, as a program embedding the command line
// would: the message says so of this process, never of "another window" (a command-line process
// has none) nor "edit it there".
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
	lock := ip + pairfile.LockSuffix // the image file is claimed first
	want := fmt.Sprintf("idxlabel: %s is already open for editing in this idxlabel process (its lock file %s names this process, %d): this command holds no lock on it, so the program running the command holds it, or an earlier process with this one's id left %s (if no idxlabel has the pair open, delete it)\n", ip, lock, os.Getpid(), lock)
	if code != 1 || stderr != want || strings.Contains(stderr, "window") || strings.Contains(stderr, "edit it there") {
		t.Fatalf("import into a held pair: exit %d, %q, want %q", code, stderr, want)
	}
}
