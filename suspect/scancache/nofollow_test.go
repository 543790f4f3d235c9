package scancache

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symbolic link planted as the scan cache (IMAGES.idxlabel-scan → any file the user can write)
// is neither read nor written through: the scan runs, the file the link names keeps its bytes,
// the link stays, and the reason is noted (check prints the notes).
func TestScannerNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "x-images-idx3-ubyte"+Suffix)
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	var notes []string
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	res, out, err := s.Scan(context.Background(), twoShapes(40), quick, nil)
	if err != nil || res == nil || out.Cached || out.Load == nil || out.Store == nil || len(notes) != 2 {
		t.Fatalf("res %v, cached %v, load %v, store %v, notes %q, %v", res != nil, out.Cached, out.Load, out.Store, notes, err)
	}
	for _, n := range notes {
		if !strings.Contains(n, path) || !strings.Contains(n, "symbolic link") {
			t.Errorf("note %q does not name the link", n)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Fatalf("the file the link names was written: %d bytes", len(b))
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
}
