package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// import holds its claim on the outputs from its check until the pair is written: another
// writer that tries to claim them just before the write is refused (the pair is being written).
// Before, import let its locks go after decoding the images and the write took them again, so
// another writer could get in between.
func TestImportHoldsItsClaimUntilWritten(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.3)
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	var during error
	importBeforeWrite = func() {
		c, err := pairfile.ClaimOutputs(nil, []string{ip, lp}, true, nil)
		if err == nil {
			c.Release()
		}
		during = err
	}
	defer func() { importBeforeWrite = nil }()
	if code, _, stderr := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var le *pairfile.LockedError
	if !errors.As(during, &le) || !le.Writing {
		t.Fatalf("another writer's claim just before import writes: %v", during)
	}
}

// import writes where each sample came from beside the labels, one line a sample in the samples'
// order (torchvision's: by class, then by path), each the file's path relative to DIR with '/';
// a file skipped has no line. The window opening the pair reads them back (store.Dataset.Source).
func TestImportWritesSources(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	writeDigitPNG(t, filepath.Join(tree, "5", "b.png"), 90, 80, -0.1)
	writeDigitPNG(t, filepath.Join(tree, "3", "sub", "a.png"), 60, 80, 0.3)
	writeDigitPNG(t, filepath.Join(tree, "3", "c.png"), 60, 80, 0.2)
	os.WriteFile(filepath.Join(tree, "3", "empty.png"), nil, 0o644)
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	if code, _, stderr := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(lp + pairfile.SourcesSuffix)
	if err != nil || string(b) != "3/c.png\n3/sub/a.png\n5/b.png\n" {
		t.Fatalf("the sources file %q (%v)", b, err)
	}
	d, err := store.Open(ip, lp, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Source(1) != "3/sub/a.png" || len(d.Notices()) != 0 {
		t.Fatalf("source %q, notices %q", d.Source(1), d.Notices())
	}
	// Without --force the sources file is an output that exists too.
	if code, _, stderr := runCLI("import", tree, filepath.Join(dir, "y-images"), lp); code == 0 || !strings.Contains(stderr, "exists") {
		t.Fatalf("over an existing pair without --force: exit %d, %s", code, stderr)
	}
}

// A symbolic link planted as the sources (or class-name) file of an import's labels is refused
// before anything is written, with --force too: it would not be written through, and the file
// it names is left as it was.
func TestImportRefusesALinkedSideFile(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.3)
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	target := filepath.Join(dir, "precious.txt")
	os.WriteFile(target, []byte("precious"), 0o644)
	for _, side := range []string{pairfile.SourcesSuffix, pairfile.ClassNamesSuffix} {
		link := lp + side
		if err := os.Symlink(target, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		code, _, stderr := runCLI("import", "--force", tree, ip, lp)
		if code == 0 || !strings.Contains(stderr, link) || !strings.Contains(stderr, "symbolic link") {
			t.Fatalf("%s a link: exit %d, %s", side, code, stderr)
		}
		if _, err := os.Stat(ip); !os.IsNotExist(err) {
			t.Fatalf("%s a link: the images were written: %v", side, err)
		}
		if b, _ := os.ReadFile(target); string(b) != "precious" {
			t.Fatalf("the file the link names was written: %q", b)
		}
		os.Remove(link)
	}
}
