package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OpenNoFollow and WriteFileNoFollow never go through a symbolic link (dangling or not) or use a
// folder; a regular file is opened, created, or replaced with its permissions kept.
func TestNoFollow(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink(filepath.Join(dir, "nothing"), dangling)
	for _, p := range []string{link, dangling, dir} {
		if f, _, err := OpenNoFollow(p, os.O_RDWR|os.O_CREATE, 0o644); !errors.Is(err, ErrNotRegular) {
			if f != nil {
				f.Close()
			}
			t.Errorf("OpenNoFollow(%s): %v", filepath.Base(p), err)
		}
		err := WriteFileNoFollow(p, write("new"))
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
			t.Errorf("WriteFileNoFollow(%s): %v", filepath.Base(p), err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the target was written: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nothing")); !os.IsNotExist(err) {
		t.Fatal("a file was created through a dangling link")
	}
	plain := filepath.Join(dir, "plain")
	f, fi, err := OpenNoFollow(plain, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("creating a file: %v", err)
	}
	io.WriteString(f, "one")
	f.Close()
	if err := WriteFileNoFollow(plain, write("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(plain); string(b) != "two" {
		t.Fatalf("replaced: %q", b)
	}
	if fi, _ := os.Stat(plain); fi.Mode().Perm() != 0o600 {
		t.Fatalf("permissions %v, want 0600", fi.Mode().Perm())
	}
}
