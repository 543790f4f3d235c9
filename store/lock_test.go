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

	"idxlabel/fixture/rodir"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

// wantLocked checks that err is a *pairfile.LockedError naming pid on this host.
func wantLocked(t *testing.T, err error, pid int) *pairfile.LockedError {
	t.Helper()
	var le *pairfile.LockedError
	if !errors.Is(err, pairfile.ErrLocked) || !errors.As(err, &le) {
		t.Fatalf("want a *pairfile.LockedError, got %v", err)
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
	if _, err := Open(filepath.Base(ip), filepath.Base(lp), Options{}); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("relative names: %v", err)
	}
	t.Chdir(wd)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp + pairfile.LockSuffix); !os.IsNotExist(err) {
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
	if err := pairfile.WritePair(ip, lp, mustArray(t, 3), mustArray(t)); !errors.Is(err, pairfile.ErrLocked) {
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
	if err := saveAs(b, ipA, lpA, nil); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("SaveAs over a pair open elsewhere: %v", err)
	}
	if after, _ := os.ReadFile(lpA); !bytes.Equal(before, after) {
		t.Fatal("the refused SaveAs changed the target")
	}
	dir := t.TempDir()
	ipC, lpC := filepath.Join(dir, "c-images-idx3-ubyte"), filepath.Join(dir, "c-labels-idx1-ubyte")
	if err := saveAs(b, ipC, lpC, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ipC, lpC, Options{}); !errors.Is(err, pairfile.ErrLocked) {
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
	if err := saveAs(n, ipA, lpA, nil); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("new dataset SaveAs over a pair open elsewhere: %v", err)
	}
}

// TestReadOnlyFolder: where the lock file cannot be created beside the pair (a folder on a
// read-only mount: rodir), the lock goes to the per-user folder with the fallback journal, so a
// second window is still refused, and the pair says so when it opens, once: the folder cannot be
// written, the edits are kept safe in the per-user journal, File → Save As… writes the dataset
// elsewhere. (Before, it said nothing: the person learnt it at the first save.) An edit made right
// after the opening is journaled there, Save is refused as unable to write (pairfile.CannotWrite),
// and the edit is offered again when the pair is opened again.
func TestReadOnlyFolder(t *testing.T) {
	var ip, lp string
	dir, here := rodir.Enter(t, func(dir string) { ip, lp = writeMNISTPair(t, dir, 10, false) })
	if !here {
		return
	}
	ip, lp = filepath.Join(dir, "t10k-images-idx3-ubyte"), filepath.Join(dir, "t10k-labels-idx1-ubyte")
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	notes := d.Notices()
	if len(notes) != 1 {
		t.Fatalf("opening a pair in a folder that cannot be written gave %d notices, not 1: %q", len(notes), notes)
	}
	for _, want := range []string{"The folder " + dir + " cannot be written", "per-user journal (in " + pairfile.FallbackDir() + ")", "File → Save As… writes the dataset"} {
		if !strings.Contains(notes[0], want) {
			t.Fatalf("the notice %q does not say %q", notes[0], want)
		}
	}
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, pairfile.ErrLocked) || !strings.Contains(err.Error(), lp) {
		t.Fatalf("second open of a pair in a read-only folder: %v", err)
	}
	if err := d.Relabel([]int{3}, 8); err != nil {
		t.Fatalf("an edit right after the opening: %v", err)
	}
	if jp := journalPath(d); !strings.HasPrefix(jp, config) {
		t.Fatalf("the journal is %s, not in the per-user folder %s", jp, config)
	}
	if err := d.Save(nil); !pairfile.CannotWrite(err) {
		t.Fatalf("Save in a folder that cannot be written: %v", err)
	}
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if rec := d.Recovery(); rec == nil || rec.Edits != 1 || !rec.Matches {
		t.Fatalf("reopened: recovery %+v", rec)
	}
}

// TestFallbackFolderUnwritable: where the per-user folder cannot be written either, the pair
// opens (to look at it) with a notice that it is not locked.
func TestFallbackFolderUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a folder without write permission is still writable")
	}
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	ip, lp := writeTestPair(t, 10, 2, 2)
	dir := filepath.Dir(lp)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	journals := filepath.Join(config, "idxlabel", "journals")
	os.MkdirAll(journals, 0o755)
	os.Chmod(journals, 0o555)
	defer os.Chmod(journals, 0o755)
	d, err := Open(ip, lp, Options{})
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
