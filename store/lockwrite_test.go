package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// A pair open for editing guards both of its files: a writer of its image file is refused when
// the names follow no MNIST rule (digits.idx + classes.idx), so is a writer through a symbolic
// link to its label file, and the image file cannot be opened alone for editing meanwhile (nor
// the pair while the image file is open alone). Before, only the label file's lock was held.
func TestPairLocksGuardBothFiles(t *testing.T) {
	ip := writeImagesOnly(t, "digits.idx", 20)
	lp := filepath.Join(filepath.Dir(ip), "classes.idx")
	labels, _ := idx.New(idx.UByte, 20)
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockForWrite(ip); !errors.Is(err, pairfile.ErrLocked) {
		t.Errorf("a writer of the open pair's image file: %v", err)
	}
	link := filepath.Join(t.TempDir(), "mine-labels")
	if err := os.Symlink(lp, link); err == nil {
		if _, err := lockForWrite(link); !errors.Is(err, pairfile.ErrLocked) {
			t.Errorf("a writer through a link to the open pair's label file: %v", err)
		}
	}
	if _, err := Open(ip, "", Options{}); !errors.Is(err, pairfile.ErrLocked) {
		t.Errorf("the image file opened alone while its pair is open: %v", err)
	}
	d.Close()
	release, err := lockForWrite(ip, lp)
	if err != nil {
		t.Fatalf("once the pair is closed: %v", err)
	}
	release()

	a, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := Open(ip, lp, Options{}); !errors.Is(err, pairfile.ErrLocked) {
		t.Errorf("the pair opened while its image file is open alone: %v", err)
	}
}

// A save to other files moves both locks: the new pair's files are guarded, the old ones free.
func TestSaveAsMovesBothLocks(t *testing.T) {
	ip, lp := writeTestPair(t, 6, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dir := t.TempDir()
	ip2, lp2 := filepath.Join(dir, "n-images-idx3-ubyte"), filepath.Join(dir, "n-labels-idx1-ubyte")
	mustDo(t, saveAs(d, ip2, lp2, nil))
	for _, p := range []string{ip2, lp2} {
		if _, err := lockForWrite(p); !errors.Is(err, pairfile.ErrLocked) {
			t.Errorf("%s after Save As: %v", filepath.Base(p), err)
		}
	}
	release, err := lockForWrite(ip, lp)
	if err != nil {
		t.Fatalf("the old pair after Save As: %v", err)
	}
	release()
}

// An output that is one of idxlabel's own files (a pair's lock, journal or save record), by name
// or through a link, is refused: writing over an open pair's lock file (check --confusion
// x-labels.idxlabel-lock) replaced the file the window's lock was on, and a writer of the pair's
// label file then took a lock on the new file and replaced the open pair's labels.
func TestCheckOutputsRefusesStateFiles(t *testing.T) {
	ip, lp := writeTestPair(t, 6, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	link := filepath.Join(t.TempDir(), "innocent.csv")
	if err := os.Symlink(lp+pairfile.LockSuffix, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{lp + pairfile.LockSuffix, lp + pairfile.JournalSuffix, lp + pairfile.ManifestSuffix, link} {
		var oe *pairfile.OutputError
		if err := pairfile.CheckOutputs([]string{"/elsewhere/in"}, []string{out}); !errors.As(err, &oe) {
			t.Errorf("%s: %v, want an *pairfile.OutputError", filepath.Base(out), err)
		}
	}
	if err := pairfile.CheckOutputs(nil, []string{filepath.Join(filepath.Dir(lp), "confusion.csv")}); err != nil {
		t.Errorf("an ordinary output: %v", err)
	}
}

// lockForWrite takes the locks a writer of paths takes (pairfile.ClaimOutputs with force,
// anything at them replaceable) and returns their release.
func lockForWrite(paths ...string) (func(), error) {
	c, err := pairfile.ClaimOutputs(nil, paths, true, func(string) error { return nil })
	if err != nil {
		return nil, err
	}
	return c.Release, nil
}
