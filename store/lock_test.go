package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"idxlabel/idx"
)

// wantLocked checks that err is a *LockedError naming pid on this host.
func wantLocked(t *testing.T, err error, pid int) *LockedError {
	t.Helper()
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) {
		t.Fatalf("want a *LockedError, got %v", err)
	}
	host, _ := os.Hostname()
	if le.PID != pid || le.Host != host {
		t.Fatalf("locked by pid %d on %q, want %d on %q (%v)", le.PID, le.Host, pid, host, err)
	}
	return le
}

func TestSecondOpenOfAPairIsRefused(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ip, lp, Options{})
	le := wantLocked(t, err, os.Getpid())
	if le.Path != lp || !strings.Contains(err.Error(), "already open for editing in this idxlabel") {
		t.Fatalf("error %q names %q", err, le.Path)
	}
	// The same pair named another way (relative, images alone is another pair) is still locked.
	wd, _ := os.Getwd()
	t.Chdir(filepath.Dir(lp))
	if _, err := Open(filepath.Base(ip), filepath.Base(lp), Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("relative names: %v", err)
	}
	t.Chdir(wd)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp + LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("Close left the lock file: %v", err)
	}
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("open after Close: %v", err)
	}
	e.Close()
}

func TestClosedDatasetRefusesEditsAndSaves(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	if err := d.Relabel([]int{1}, 5); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if err := d.Relabel([]int{1}, 6); !errors.Is(err, ErrClosed) {
		t.Fatalf("relabel after Close: %v", err)
	}
	if _, _, err := d.Undo(); !errors.Is(err, ErrClosed) {
		t.Fatalf("undo after Close: %v", err)
	}
	if err := d.Save(nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("save after Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestLockChild holds a pair open for TestLockHeldByAnotherProcess: it opens the pair, says
// "locked" and waits for its stdin to close, then exits without Close, like a crash.
func TestLockChild(t *testing.T) {
	ip := os.Getenv("IDXLABEL_LOCK_IMAGES")
	if ip == "" {
		return // only meaningful as a child of TestLockHeldByAnotherProcess
	}
	if _, err := Open(ip, os.Getenv("IDXLABEL_LOCK_LABELS"), Options{}); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}

func TestLockHeldByAnotherProcess(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$")
	cmd.Env = append(os.Environ(), "IDXLABEL_LOCK_IMAGES="+ip, "IDXLABEL_LOCK_LABELS="+lp)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q", line)
	}
	_, err := Open(ip, lp, Options{})
	wantLocked(t, err, cmd.Process.Pid)
	if !strings.Contains(err.Error(), fmt.Sprintf("process %d on ", cmd.Process.Pid)) {
		t.Fatalf("error does not name the process: %v", err)
	}
	if err := WritePair(ip, lp, mustArray(t, 3), mustArray(t)); !errors.Is(err, ErrLocked) {
		t.Fatalf("WritePair over a pair open elsewhere: %v", err)
	}
	stdin.Close() // the child exits without Close: its lock goes with it
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("open after the holder exited: %v", err)
	}
	d.Close()
}

// mustArray returns a ubyte array of the given dims after a leading 2 (two samples).
func mustArray(t *testing.T, dims ...int) *idx.Array {
	a, err := idx.New(idx.UByte, append([]int{2}, dims...)...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestLockFallbackWithoutFlock plays a file system without flock: the lock is the lock file,
// created exclusively; a lock file of a process that no longer runs is stale and is taken over.
func TestLockFallbackWithoutFlock(t *testing.T) {
	tryFlock = func(*flock.Flock) (bool, error) { return false, errors.ErrUnsupported }
	defer func() { tryFlock = (*flock.Flock).TryLock }()
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ip, lp, Options{})
	wantLocked(t, err, os.Getpid())
	d.Close()
	if _, err := os.Stat(lp + LockSuffix); !os.IsNotExist(err) {
		t.Fatalf("Close left the lock file: %v", err)
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
	_, err = Open(ip, lp, Options{})
	wantLocked(t, err, os.Getppid())
	// A process on another host: we cannot tell whether it runs, so it holds.
	plant(os.Getpid(), "elsewhere")
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "on elsewhere") {
		t.Fatalf("lock of another host: %v", err)
	}
	// A process of this host that has exited: stale.
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	plant(dead.Process.Pid, host)
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("stale lock of exited pid %d: %v", dead.Process.Pid, err)
	}
	b, _ := os.ReadFile(lp + LockSuffix)
	if !bytes.Contains(b, fmt.Appendf(nil, "pid=%d ", os.Getpid())) {
		t.Fatalf("lock file after taking over: %q", b)
	}
	d.Close()
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

func TestSaveAsLocksTheTargetPair(t *testing.T) {
	ipA, lpA := writeTestPair(t, 10, 2, 2)
	ipB, lpB := writeTestPair(t, 10, 2, 2)
	a, err := Open(ipA, lpA, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ipB, lpB, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before, _ := os.ReadFile(lpA)
	b.Relabel([]int{0}, 9)
	if err := b.SaveAs(ipA, lpA, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("SaveAs over a pair open elsewhere: %v", err)
	}
	if after, _ := os.ReadFile(lpA); !bytes.Equal(before, after) {
		t.Fatal("the refused SaveAs changed the target")
	}
	dir := t.TempDir()
	ipC, lpC := filepath.Join(dir, "c-images-idx3-ubyte"), filepath.Join(dir, "c-labels-idx1-ubyte")
	if err := b.SaveAs(ipC, lpC, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ipC, lpC, Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("the pair saved to is not locked: %v", err)
	}
	old, err := Open(ipB, lpB, Options{})
	if err != nil {
		t.Fatalf("the pair saved from is still locked: %v", err)
	}
	old.Close()
	// A new dataset (journal in the config folder, no pair) locks what it saves to.
	n, err := New(2, 2, nil, nil, filepath.Join(t.TempDir(), "new.journal"))
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.Append([]Sample{{Pixels: make([]byte, 4), Label: 1}})
	if err := n.SaveAs(ipA, lpA, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("new dataset SaveAs over a pair open elsewhere: %v", err)
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
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, errLockFile) {
		t.Fatalf("open with a planted link: %v", err)
	}
	if _, err := os.Lstat(outside); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
	os.WriteFile(outside, []byte("precious"), 0o644)
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, errLockFile) {
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
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, errLockFile) {
		t.Fatalf("open with a planted FIFO: %v", err)
	}
}

// TestReadOnlyFolder: where the lock file cannot be created beside the pair, the lock goes to
// the per-user folder with the fallback journal, so a second window is still refused; where
// that cannot be written either, the pair opens (to look at it) with a notice.
func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a folder without write permission is still writable")
	}
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	ip, lp := writeTestPair(t, 10, 2, 2)
	dir := filepath.Dir(lp)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notices()) != 0 {
		t.Fatalf("notices %q", d.Notices())
	}
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), lp) {
		t.Fatalf("second open of a pair in a read-only folder: %v", err)
	}
	d.Close()
	journals := filepath.Join(config, "idxlabel", "journals")
	os.Chmod(journals, 0o555)
	defer os.Chmod(journals, 0o755)
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n := strings.Join(d.Notices(), "\n"); !strings.Contains(n, "cannot create the lock file") {
		t.Fatalf("notices %q", n)
	}
}

// TestReadOnlyOpenTakesNoLock: reading a pair (info, verify, suspects) neither needs nor takes
// the lock: it works while the pair is open for editing, and does not keep an editor out.
func TestReadOnlyOpenTakesNoLock(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(ip, lp, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of a pair open for editing: %v", err)
	}
	defer r.Close()
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("open for editing while a read-only Dataset is open: %v", err)
	}
	e.Close()
}
