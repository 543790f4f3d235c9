package pairfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

// TestLockFallbackWithoutFlock plays a file system without flock: the lock is the lock file,
// created exclusively; a lock file of a process that no longer runs is stale and is taken over.
func TestLockFallbackWithoutFlock(t *testing.T) {
	tryFlock = func(*flock.Flock) (bool, error) { return false, errors.ErrUnsupported }
	defer func() { tryFlock = (*flock.Flock).TryLock }()
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, err := openPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = openPair(ip, lp)
	wantLocked(t, err, os.Getpid())
	d.Release()
	if _, err := os.Stat(lp + LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("Release left the lock file: %v", err)
	}

	host, _ := os.Hostname()
	plant := func(pid int, host string) {
		b := append([]byte{0}, fmt.Sprintf("idxlabel-lock pid=%d host=%s\n", pid, host)...)
		if err := os.WriteFile(lp+LockSuffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A live process on this host (our parent, go test) holds it.
	plant(os.Getppid(), host)
	_, err = openPair(ip, lp)
	wantLocked(t, err, os.Getppid())
	// A process on another host: we cannot tell whether it runs, so it holds.
	plant(os.Getpid(), "elsewhere")
	if _, err := openPair(ip, lp); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "on elsewhere") {
		t.Fatalf("lock of another host: %v", err)
	}
	// A process of this host that has exited: stale.
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	plant(dead.Process.Pid, host)
	d, err = openPair(ip, lp)
	if err != nil {
		t.Fatalf("stale lock of exited pid %d: %v", dead.Process.Pid, err)
	}
	b, _ := os.ReadFile(lp + LockSuffix)
	if !bytes.Contains(b, fmt.Appendf(nil, "pid=%d ", os.Getpid())) {
		t.Fatalf("lock file after taking over: %q", b)
	}
	d.Release()
}

// TestLockFileContentIsUntrusted: a planted lock file with a hostile host name gives a clean,
// short message.
func TestLockFileContentIsUntrusted(t *testing.T) {
	_, lp := writeTestPair(t, 10, 2, 2)
	plant := append([]byte{0}, "idxlabel-lock pid=99 host=\u202eevil\x1b[2J"+strings.Repeat("x", 5000)...)
	if err := os.WriteFile(lp+LockSuffix, plant, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := lockPair(lp, false)
	if err != nil {
		t.Fatalf("an unlocked planted file must not block: %v", err)
	}
	e := lockedBy(lp, lp+LockSuffix)
	l.release()
	if e.PID != os.Getpid() {
		t.Fatalf("holder %d after locking", e.PID)
	}
	os.WriteFile(lp+LockSuffix, plant, 0o644)
	e = lockedBy(lp, lp+LockSuffix)
	if e.PID != 99 || strings.ContainsAny(e.Host, "\u202e\x1b") || len([]rune(e.Host)) > maxNameRunes {
		t.Fatalf("host read from a planted file: %q", e.Host)
	}
}

// TestPlantedLockFileIsNeverFollowed: a link in the lock file's place, pointing outside the
// folder, is refused: the file it points to is neither created nor written. A FIFO there is
// refused without waiting for a writer.
func TestPlantedLockFileIsNeverFollowed(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.Symlink(outside, lp+LockSuffix); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	if _, err := openPair(ip, lp); !errors.Is(err, errLockFile) {
		t.Fatalf("open with a planted link: %v", err)
	}
	if _, err := os.Lstat(outside); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
	os.WriteFile(outside, []byte("precious"), 0o644)
	if _, err := openPair(ip, lp); !errors.Is(err, errLockFile) {
		t.Fatalf("open with a planted link to a file: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("the link's target was written: %q", b)
	}
	os.Remove(lp + LockSuffix)
	if err := mkfifo(lp + LockSuffix); err != nil {
		t.Logf("no FIFO on this system: %v", err)
		return
	}
	if _, err := openPair(ip, lp); !errors.Is(err, errLockFile) {
		t.Fatalf("open with a planted FIFO: %v", err)
	}
}

// An output named with a trailing separator ("out/", as a shell completes a folder) is locked
// beside the folder, as "out" is: the lock file was "out/.idxlabel-lock", inside it, so a writer
// then found its own lock file in an empty folder (or in an earlier export or report) and
// refused it as not its own.
func TestLockForWriteFolderWithSlash(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	release, err := lockForWrite(out + string(filepath.Separator))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("the lock put %s inside the output folder", e.Name())
	}
	if _, err := os.Lstat(out + LockSuffix); err != nil {
		t.Errorf("no lock file beside the folder: %v", err)
	}
}
