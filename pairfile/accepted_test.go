package pairfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// testKey is the key of a 100-sample pair: ubyte labels i mod 10 and some image CRC.
func testKey(t *testing.T) AcceptedKey {
	t.Helper()
	labels, _ := idx.New(idx.UByte, 100)
	for i := range labels.Data {
		labels.Data[i] = byte(i % 10)
	}
	return KeyOf(labels, ImagesCRC([]byte("the images")))
}

// The marks round-trip; none removes the file; no file is no marks and no error.
func TestAcceptedRoundTrip(t *testing.T) {
	key := testKey(t)
	path := filepath.Join(t.TempDir(), "x-labels-idx1-ubyte"+AcceptedSuffix)
	if got, err := ReadAccepted(path, key); got != nil || err != nil {
		t.Fatalf("no file: %v, %v", got, err)
	}
	marks := []int{0, 3, 4, 57, 99}
	if err := WriteAccepted(path, key, marks); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAccepted(path, key)
	if err != nil || !slices.Equal(got, marks) {
		t.Fatalf("read back %v, %v; want %v", got, err, marks)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "/") || !IsStateFile(path) {
		t.Fatalf("the file holds a path or is not a state file:\n%s", b)
	}
	if err := WriteAccepted(path, key, []int{3, 3}); err == nil {
		t.Fatal("marks not ascending were written")
	}
	if err := WriteAccepted(path, key, []int{100}); err == nil {
		t.Fatal("a mark beyond the samples was written")
	}
	if got, _ := ReadAccepted(path, key); !slices.Equal(got, marks) {
		t.Fatalf("a refused write changed the file: %v", got)
	}
	if err := WriteAccepted(path, key, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no marks left the file: %v", err)
	}
}

// A file written for other contents (another label array, other images, another count) is
// stale; damaged, truncated or oversized files and symbolic links are refused, each with an
// error naming the file, and never read past the bound.
func TestAcceptedRefusesBadFiles(t *testing.T) {
	key := testKey(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "x-labels-idx1-ubyte"+AcceptedSuffix)
	if err := WriteAccepted(path, key, []int{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)

	other := key
	other.Labels[0] ^= 1
	moved := key
	moved.Images++
	fewer := key
	fewer.Samples = 99
	for name, k := range map[string]AcceptedKey{"labels": other, "images": moved, "count": fewer} {
		if _, err := ReadAccepted(path, k); !errors.Is(err, ErrStaleAccepted) || !strings.Contains(err.Error(), path) {
			t.Errorf("other %s: %v, want ErrStaleAccepted naming the file", name, err)
		}
	}

	head := strings.SplitAfterN(string(good), "\n", 6)
	body := strings.Join(head[:4], "")
	cases := map[string]string{
		"truncated":         string(good[:len(good)-1]),
		"cut in the head":   strings.Join(head[:2], ""),
		"empty":             "",
		"not ours":          "hello\n",
		"bad version":       strings.Replace(string(good), "accepted-marks 1", "accepted-marks 2", 1),
		"cut at a line end": strings.TrimSuffix(string(good), "3\n"),
		"no count":          body + "1\n",
		"bad index":         body + "marks 2\n1\nx\n",
		"negative":          body + "marks 1\n-1\n",
		"signed":            body + "marks 1\n+1\n",
		"leading zero":      body + "marks 1\n01\n",
		"beyond":            body + "marks 1\n100\n",
		"repeated":          body + "marks 2\n5\n5\n",
		"descending":        body + "marks 2\n6\n5\n",
		"a path":            body + "marks 1\n../../etc/passwd\n",
		"carriage returns":  strings.ReplaceAll(string(good), "\n", "\r\n"),
		"bad samples":       strings.Replace(string(good), "samples 100", "samples 1e2", 1),
		"oversized":         body + "marks 1000\n" + strings.Repeat("9\n", 1000),
	}
	for name, content := range cases {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadAccepted(path, key)
		if err == nil || got != nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, %v; want an error naming the file", name, got, err)
		}
	}
	// Oversized: refused by its size (512 + 11 bytes a sample), not by reading it whole.
	if err := os.WriteFile(path, append(good, make([]byte, 600+11*100)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAccepted(path, key); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("oversized: %v", err)
	}

	// A symbolic link is not followed, even to a good file; nor is a FIFO waited on.
	target := filepath.Join(dir, "good")
	if err := os.WriteFile(target, good, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symbolic links here:", err) // Windows without the privilege: the rest ran
	}
	if _, err := ReadAccepted(path, key); !errors.Is(err, atomicfile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
		t.Errorf("symlink: %v, want ErrNotRegular naming the file", err)
	}
	// Writing replaces the link itself, never the file it names.
	if err := WriteAccepted(path, key, []int{7}); err == nil {
		if b, _ := os.ReadFile(target); string(b) != string(good) {
			t.Errorf("a write through the link changed %s", target)
		}
	}
	if err := RemoveAccepted(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("removing the link removed its target: %v", err)
	}
}

// markedPair writes an n-sample pair (writeTestPair) and accepted marks on samples 1 and 2
// beside its label file, and returns the paths and the marks file's bytes.
func markedPair(t *testing.T, n int) (ip, lp string, marks []byte) {
	t.Helper()
	ip, lp = writeTestPair(t, n, 2, 2)
	labels, _ := idx.ReadFile(lp)
	images, _ := idx.ReadFile(ip)
	if err := WriteAccepted(AcceptedFile(lp), KeyOf(labels, ImagesCRC(images.Data)), []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	marks, err := os.ReadFile(AcceptedFile(lp))
	if err != nil {
		t.Fatal(err)
	}
	return ip, lp, marks
}

// reversed returns the pair of ip, lp with its samples in reverse order: what a writer that
// reorders the samples (split --shuffle, subset) would put there.
func reversed(t *testing.T, ip, lp string) (images, labels *idx.Array) {
	t.Helper()
	images, _ = idx.ReadFile(ip)
	labels, _ = idx.ReadFile(lp)
	n, size := labels.Dims[0], len(images.Data)/labels.Dims[0]
	ri, rl := slices.Clone(images.Data), slices.Clone(labels.Data)
	for i := range n {
		copy(ri[i*size:], images.Data[(n-1-i)*size:(n-i)*size])
		rl[i] = labels.Data[n-1-i]
	}
	images.Data, labels.Data = ri, rl
	return images, labels
}

// marksKept fails the test unless the marks file beside lp holds want, byte for byte.
func marksKept(t *testing.T, what, lp string, want []byte) {
	t.Helper()
	if got, err := os.ReadFile(AcceptedFile(lp)); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: the accepted marks beside %s were not kept as they were (%v)", what, lp, err)
	}
}

// marksGone fails the test unless no marks file is beside lp.
func marksGone(t *testing.T, what, lp string) {
	t.Helper()
	if _, err := os.Lstat(AcceptedFile(lp)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: a writer of the pair left its accepted marks: %v", what, err)
	}
}

// A writer replacing a pair (reordered, subset, merged) removes the accepted marks beside it once
// its files are in place, never before: the claim alone leaves them, and a write that is
// cancelled or fails leaves them byte for byte, with the label file it did not replace.
func TestClaimRemovesAcceptedMarksOnlyOnceReplaced(t *testing.T) {
	ip, lp, marks := markedPair(t, 10)
	oldLabels, _ := os.ReadFile(lp)
	images, labels := reversed(t, ip, lp)

	// Claimed with force, then cancelled (a Ctrl+C before the renames).
	c, err := ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	marksKept(t, "claimed", lp, marks)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Write(ctx, []File{{Path: ip, Data: images}, {Path: lp, Data: labels}}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled write: %v", err)
	}
	c.Release()
	marksKept(t, "cancelled", lp, marks)
	unchangedFile(t, "cancelled", lp, oldLabels)

	// A streamed pair (merge, split) whose commit fails: a folder is where the label file was.
	c, err = ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	pi, err := idx.WritePending(ip, images)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := idx.WritePending(lp, labels)
	if err != nil {
		t.Fatal(err)
	}
	moved := lp + "-moved"
	if err := os.Rename(lp, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(lp, "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitPair(ip, lp, pi, pl); err == nil {
		t.Fatal("CommitPair over a folder succeeded")
	}
	c.Release()
	marksKept(t, "failed commit", lp, marks)
	if err := os.RemoveAll(lp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved, lp); err != nil {
		t.Fatal(err)
	}

	// Replaced names only the claim's outputs, and does nothing once the claim is released.
	c, err = ClaimOutputs(nil, []string{ip}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Replaced(lp)
	marksKept(t, "not an output of the claim", lp, marks)
	c.Release()
	c, err = ClaimOutputs(nil, []string{lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	c.Replaced(lp)
	marksKept(t, "after Release", lp, marks)

	// A streamed pair put in place: the marks go.
	c, err = ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pi, err = idx.WritePending(ip, images); err != nil {
		t.Fatal(err)
	}
	if pl, err = idx.WritePending(lp, labels); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitPair(ip, lp, pi, pl); err != nil {
		t.Fatal(err)
	}
	c.Release()
	marksGone(t, "CommitPair", lp)

	// A pair written whole (import, convert, save shown): the marks go.
	if err := WriteAccepted(AcceptedFile(lp), KeyOf(labels, ImagesCRC(images.Data)), []int{3}); err != nil {
		t.Fatal(err)
	}
	images, labels = reversed(t, ip, lp)
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	marksGone(t, "WritePair", lp)
}

// A crash between a writer's renames and the removal of the marks leaves the marks of the
// contents before: refused as stale by the new contents' key, none of them applied.
func TestCrashAfterRenameLeavesStaleMarks(t *testing.T) {
	ip, lp, marks := markedPair(t, 10)
	images, labels := reversed(t, ip, lp)
	writeCut(t, ip, lp, images, labels, 1)
	if got, _ := idx.ReadFile(lp); got == nil || !bytes.Equal(got.Data, labels.Data) {
		t.Fatal("the new label file is not in place")
	}
	marksKept(t, "killed after the renames", lp, marks)
	got, err := ReadAccepted(AcceptedFile(lp), KeyOf(labels, ImagesCRC(images.Data)))
	if got != nil || !errors.Is(err, ErrStaleAccepted) || !strings.Contains(err.Error(), AcceptedFile(lp)) || !strings.Contains(err.Error(), "count as typed labels") {
		t.Fatalf("the marks left by the crash: %v, %v; want them refused as stale, naming the file", got, err)
	}
	// The next writer's write removes them.
	images, labels = reversed(t, ip, lp)
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	marksGone(t, "the next write", lp)
}

// unchangedFile fails the test unless the file at path holds want.
func unchangedFile(t *testing.T, what, path string, want []byte) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: %s was changed (%v)", what, path, err)
	}
}

// The marks of a label file reached through a symbolic link sit beside the file it names (a
// write through the link replaces that file), so both names find the same marks; a link to
// nothing keeps them beside the link.
func TestAcceptedFileThroughALink(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "labels")
	if err := os.WriteFile(labels, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(labels, link); err != nil {
		t.Fatal(err)
	}
	if got, want := AcceptedFile(link), labels+AcceptedSuffix; got != want {
		t.Errorf("AcceptedFile(link) = %s, want %s", got, want)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "missing"), dangling)
	if got, want := AcceptedFile(dangling), dangling+AcceptedSuffix; got != want {
		t.Errorf("AcceptedFile(a link to nothing) = %s, want %s", got, want)
	}
}
