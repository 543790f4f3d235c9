package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A set-aside name is readable: the time, then a counter from the second one in a second, then
// the tag.
func TestAsideName(t *testing.T) {
	at := time.Date(2026, 12, 5, 23, 4, 5, 0, time.Local)
	for k, want := range map[int]string{1: "j.20261205-230405.kept", 2: "j.20261205-230405-2.kept", 1000: "j.20261205-230405-1000.kept"} {
		if got := AsideName("j", "kept", at, k); got != want {
			t.Errorf("AsideName(%d) = %s, want %s", k, got, want)
		}
	}
}

// RenameNew never replaces a file, and PlaceAside goes on to the next name; a copy set aside
// (WriteAside) takes a name of its own too.
func TestPlaceAsideNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	j := filepath.Join(dir, "j")
	os.WriteFile(j, []byte("new"), 0o644)
	os.WriteFile(j+".x", []byte("old"), 0o644)
	if err := RenameNew(j, j+".x"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("RenameNew over a file: %v", err)
	}
	at := time.Now()
	os.WriteFile(AsideName(j, "kept", at, 1), []byte("first"), 0o644)
	to, err := PlaceAside(j, "kept", at, func(to string) error { return RenameNew(j, to) })
	if err != nil || to != AsideName(j, "kept", at, 2) {
		t.Fatalf("PlaceAside = %s, %v", to, err)
	}
	if b, _ := os.ReadFile(AsideName(j, "kept", at, 1)); string(b) != "first" {
		t.Fatalf("the file set aside first now holds %q", b)
	}
	if b, _ := os.ReadFile(to); string(b) != "new" {
		t.Fatalf("the file set aside holds %q", b)
	}
	if _, err := os.Lstat(j); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file is still at its name: %v", err)
	}
	a, err := WriteAside(j, "copy", func(w io.Writer) error { _, err := io.WriteString(w, "a"); return err })
	if err != nil {
		t.Fatal(err)
	}
	b, err := WriteAside(j, "copy", func(w io.Writer) error { _, err := io.WriteString(w, "b"); return err })
	if err != nil || a == b {
		t.Fatalf("two copies set aside: %s, %s, %v", a, b, err)
	}
	if x, _ := os.ReadFile(a); string(x) != "a" {
		t.Fatalf("the first copy holds %q", x)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*"+TempMarker+"*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}
