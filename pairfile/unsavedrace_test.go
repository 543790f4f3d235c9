package pairfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// Two pairs whose journals are in two folders share one image file; while one marks (or
// unmarks) the marker, between its read and its write, the other marks it too. The marker is
// changed by one at a time (markerLock), so the second waits for the first and neither line is
// lost. The second runs on its own file handle, as another process does (a flock is held by an
// open file, not by a process); markerBusyHook says it is waiting, so no timing is relied on.
func TestUnsavedMarkerChangesOneAtATime(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	jA := filepath.Join(t.TempDir(), "a-labels-idx1-ubyte"+JournalSuffix)
	jB := filepath.Join(t.TempDir(), "b-labels-idx1-ubyte"+JournalSuffix)
	jC := filepath.Join(t.TempDir(), "c-labels-idx1-ubyte"+JournalSuffix)
	m := ip + UnsavedSuffix
	line := func(j string) string { return filepath.Base(j) + " " + JournalDigest(j) + "\n" }
	defer func() { unsavedReadHook, markerBusyHook = nil, nil }()
	// However loaded the machine, the second change waits for the first rather than give up.
	defer func(w time.Duration) { markerWait = w }(markerWait)
	markerWait = time.Hour
	// race runs first, and, once first has read the marker, second in another goroutine; it
	// returns when both are done.
	race := func(first, second func() error) {
		t.Helper()
		var fired atomic.Bool
		done, busy := make(chan error, 1), make(chan struct{}, 1)
		markerBusyHook = func(string) {
			select {
			case busy <- struct{}{}:
			default:
			}
		}
		unsavedReadHook = func(string) {
			if !fired.CompareAndSwap(false, true) {
				return // second's own read
			}
			go func() { done <- second() }()
			select {
			case err := <-done: // nothing kept it out: it changed the marker meanwhile
				done <- err
			case <-busy: // it waits for this change to end
			}
		}
		if err := first(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		unsavedReadHook, markerBusyHook = nil, nil
	}
	race(func() error { return MarkUnsaved(ip, jA) }, func() error { return MarkUnsaved(ip, jB) })
	b, _ := os.ReadFile(m)
	if got, want := string(b), line(jA)+line(jB); got != want && got != line(jB)+line(jA) {
		t.Fatalf("two pairs marked the shared image file at once: the marker holds %q, want both lines %q", got, want)
	}
	race(func() error { return UnmarkUnsaved(ip, jA) }, func() error { return MarkUnsaved(ip, jC) })
	b, _ = os.ReadFile(m)
	if got, want := string(b), line(jB)+line(jC); got != want {
		t.Fatalf("one pair unmarked while another marked: the marker holds %q, want %q", got, want)
	}
	if _, err := os.Lstat(m + LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("the marker's lock file was left: %v", err)
	}
}

// TestMarkerChild, run as a child by TestUnsavedMarkerAcrossProcesses (IDXLABEL_MARKER_CHILD
// set to the image file), marks the image file's marker for the journal IDXLABEL_JOURNAL and,
// once it has read the marker, says "read" and waits for a line on its input before it writes.
func TestMarkerChild(t *testing.T) {
	images := os.Getenv("IDXLABEL_MARKER_CHILD")
	if images == "" {
		return // only meaningful as a child
	}
	unsavedReadHook = func(string) {
		fmt.Println("read")
		bufio.NewReader(os.Stdin).ReadString('\n')
	}
	if err := MarkUnsaved(images, os.Getenv("IDXLABEL_JOURNAL")); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// Another process marks the shared image file's marker, and this one marks it while the other
// is between its read and its write: this one waits for the other's lock (markerBusyHook says
// so), and the marker ends with both lines.
func TestUnsavedMarkerAcrossProcesses(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	jChild := filepath.Join(t.TempDir(), "a-labels-idx1-ubyte"+JournalSuffix)
	jMine := filepath.Join(t.TempDir(), "b-labels-idx1-ubyte"+JournalSuffix)
	// However loaded the machine, this change waits for the other process rather than give up.
	defer func(w time.Duration) { markerWait = w }(markerWait)
	markerWait = time.Hour
	cmd := exec.Command(os.Args[0], "-test.run=^TestMarkerChild$")
	cmd.Env = append(os.Environ(), "IDXLABEL_MARKER_CHILD="+ip, "IDXLABEL_JOURNAL="+jChild)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "read" {
		if strings.HasPrefix(sc.Text(), "error") {
			t.Fatal(sc.Text())
		}
	}
	busy, done := make(chan struct{}, 1), make(chan error, 1)
	markerBusyHook = func(string) {
		select {
		case busy <- struct{}{}:
		default:
		}
	}
	defer func() { markerBusyHook = nil }()
	go func() { done <- MarkUnsaved(ip, jMine) }()
	select {
	case err := <-done: // nothing kept it out: it wrote while the other process was changing it
		done <- err
	case <-busy:
	}
	io.WriteString(in, "go on\n")
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the child: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(ip + UnsavedSuffix)
	want := filepath.Base(jChild) + " " + JournalDigest(jChild) + "\n" + filepath.Base(jMine) + " " + JournalDigest(jMine) + "\n"
	if string(b) != want {
		t.Fatalf("two processes marked the shared image file at once: the marker holds %q, want %q", b, want)
	}
}

// The marker's lock file left by a process killed while it held it (a regular file no one
// flocks, whatever it holds) is taken and removed; a symbolic link planted in its place is
// never followed: the change is refused and the file it names is left as it was.
func TestUnsavedMarkerLockFileLeftOrPlanted(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	j := filepath.Join(t.TempDir(), "a-labels-idx1-ubyte"+JournalSuffix)
	lockFile := ip + UnsavedSuffix + LockSuffix
	os.WriteFile(lockFile, []byte("\x00idxlabel-lock pid=1 host=elsewhere\n"), 0o644)
	if err := MarkUnsaved(ip, j); err != nil || UnsavedMarker(ip) == "" {
		t.Fatalf("a lock file left by a killed process: %v, marker %q", err, UnsavedMarker(ip))
	}
	if _, err := os.Lstat(lockFile); !os.IsNotExist(err) {
		t.Fatalf("the lock file was not removed: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other")
	os.WriteFile(other, []byte("keep"), 0o644)
	if err := os.Symlink(other, lockFile); err != nil {
		t.Skipf("this system cannot make symbolic links: %v", err)
	}
	if err := UnmarkUnsaved(ip, j); !errors.Is(err, errLockFile) {
		t.Fatalf("a link planted as the marker's lock file: %v, want errLockFile", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep" || UnsavedMarker(ip) == "" {
		t.Fatalf("the planted link's file holds %q, marker %q", b, UnsavedMarker(ip))
	}
}

// While another holder keeps the marker's lock past markerWait (stuck, or planted), a mark is
// still added (a mark left out would let a writer replace the image file under unsaved edits),
// and an unmark is refused with a *LockedError, the line kept (a line left over only refuses
// writers).
func TestUnsavedMarkerLockHeldPastTheWait(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	j := filepath.Join(t.TempDir(), "a-labels-idx1-ubyte"+JournalSuffix)
	held := flock.New(ip + UnsavedSuffix + LockSuffix)
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatalf("cannot hold the marker's lock: %v", err)
	}
	defer held.Unlock()
	wait := markerWait
	markerWait = time.Millisecond // the holder never lets go: how long is waited changes nothing
	defer func() { markerWait = wait }()
	if err := MarkUnsaved(ip, j); err != nil || UnsavedMarker(ip) == "" {
		t.Fatalf("a mark while another holds the marker's lock: %v, marker %q", err, UnsavedMarker(ip))
	}
	if err := UnmarkUnsaved(ip, j); !errors.Is(err, ErrLocked) || UnsavedMarker(ip) == "" {
		t.Fatalf("an unmark while another holds the marker's lock: %v, marker %q", err, UnsavedMarker(ip))
	}
}
