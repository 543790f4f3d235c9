package pairfile

import (
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

// Every writer's claim drops the accepted marks beside its outputs: a pair rewritten (reordered,
// subset, merged) must not keep marks naming other samples.
func TestClaimDropsAcceptedMarks(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	labels, _ := idx.ReadFile(lp)
	images, _ := idx.ReadFile(ip)
	key := KeyOf(labels, ImagesCRC(images.Data))
	if err := WriteAccepted(AcceptedFile(lp), key, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(AcceptedFile(lp)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a writer of the pair left its accepted marks: %v", err)
	}
}
