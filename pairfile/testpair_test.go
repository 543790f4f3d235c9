package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
)

// writeTestPair writes, through WritePair, an n-sample pair of h×w ubyte images (sample i all
// of value i) and ubyte labels i mod 10 into a new temporary folder, named as MNIST names its
// pairs, and returns the paths.
func writeTestPair(t testing.TB, n, h, w int) (string, string) {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, h, w)
	labels, _ := idx.New(idx.UByte, n)
	for i := range n {
		for k := range h * w {
			images.Data[i*h*w+k] = byte(i)
		}
		labels.Data[i] = byte(i % 10)
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// openPair takes the pair's locks for editing, as a dataset opening it does (LockPair); its
// notices are dropped.
func openPair(images, labels string) (Locks, error) {
	l, _, err := LockPair(images, labels)
	return l, err
}

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

// writeCut writes images and labels to ip and lp (WritePair) and stops the write for good after
// its rename number k (0: the image file's, 1: the label file's), as a kill there would.
func writeCut(t *testing.T, ip, lp string, images, labels *idx.Array, k int) {
	t.Helper()
	AfterRename = func(n int) {
		if n == k {
			panic("killed after a rename")
		}
	}
	defer func() { AfterRename = nil; recover() }()
	WritePair(ip, lp, images, labels)
	t.Fatal("the write was not cut off")
}
