package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func write(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestWriteFileReplacesAndKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "labels")
	if err := WriteFile(p, write("one")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o600)
	if err := WriteFile(p, write("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("content %q, mode %v; want \"two\", 0600", b, fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestFailedWriteLeavesTargetAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	os.WriteFile(p, []byte("old"), 0o644)
	boom := errors.New("boom")
	err := WriteFile(p, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	b, _ := os.ReadFile(p)
	entries, _ := os.ReadDir(dir)
	if string(b) != "old" || len(entries) != 1 {
		t.Fatalf("target %q, folder %v", b, entries)
	}
}

func TestTempNamePattern(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "a b[1]*.gz")
	p, err := Create(target, write("x"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Abort()
	base := filepath.Base(p.Temp)
	if !strings.HasPrefix(base, ".a b[1]*.gz.idxlabel-tmp-") || !IsTemp(p.Temp, target) {
		t.Fatalf("temporary name %q does not follow the pattern", base)
	}
	for _, other := range []string{target, filepath.Join(dir, ".a b[1]*.gz.idxlabel-tmp-"), filepath.Join(dir, ".a b[1]*.gz.idxlabel-tmp-12x"), filepath.Join(dir, ".other.idxlabel-tmp-1")} {
		if IsTemp(other, target) {
			t.Errorf("IsTemp(%q) = true", other)
		}
	}
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "labels")
	old := time.Now().Add(-2 * time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o644)
		os.Chtimes(p, mtime, mtime)
		return p
	}
	stale := mk(".labels.idxlabel-tmp-123", old)
	fresh := mk(".labels.idxlabel-tmp-456", time.Now())
	otherTarget := mk(".images.idxlabel-tmp-789", old)
	notOurs := mk(".labels.tmp-111", old)
	user := mk("labels.idxlabel-tmp-5", old) // not hidden: not a name we make
	held := mk(".labels.idxlabel-tmp-999", old)
	f, _ := os.Open(held)
	defer f.Close()
	lock(f)
	named := mk(".labels.idxlabel-tmp-777", old) // named by an unfinished save's manifest
	removed := RemoveStale(target, StaleAge, named)
	if len(removed) != 1 || removed[0] != stale {
		t.Fatalf("removed %v, want only %s", removed, stale)
	}
	for _, p := range []string{fresh, otherTarget, notOurs, user, named} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
	if _, err := os.Stat(held); err != nil && openNonblock != 0 {
		t.Errorf("a temporary file locked by a live writer was removed")
	}
}

func TestSymlinkIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "sub", "real")
	os.Mkdir(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("old"), 0o640)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join("sub", "real"), link); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if err := WriteFile(link, write("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symbolic link was replaced by a file")
	}
	b, _ := os.ReadFile(real)
	rfi, _ := os.Stat(real)
	if string(b) != "new" || rfi.Mode().Perm() != 0o640 {
		t.Fatalf("link target holds %q mode %v", b, rfi.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "missing"), dangling)
	if err := WriteFile(dangling, write("x")); err == nil {
		t.Fatal("a write through a dangling link was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a write through a dangling link created its target")
	}
}

func TestMissingFolderNamesTheTarget(t *testing.T) {
	target := filepath.Join(t.TempDir(), "missing", "out")
	err := WriteFile(target, write("x"))
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "create "+target+": cannot create a file in ") {
		t.Fatalf("error %v", err)
	}
}

// A file held (Hold) is Held until it is closed; where flock works (Unix), Hold holds it.
func TestHoldAndHeld(t *testing.T) {
	p := filepath.Join(t.TempDir(), "marker")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Held(p) {
		t.Fatal("held before Hold")
	}
	f, err := Hold(p)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && f == nil {
		t.Fatal("Hold held nothing where flock works")
	}
	if f != nil {
		if !Held(p) {
			t.Fatal("not Held while held")
		}
		f.Close()
	}
	if Held(p) {
		t.Fatal("still Held after Close")
	}
	if _, err := Hold(filepath.Join(filepath.Dir(p), "missing")); err == nil {
		t.Fatal("Hold of a missing file")
	}
}
