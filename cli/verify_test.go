package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/store"
)

// TestVerifyInterruptedSave: a save cut off between its renames leaves the new images in place
// and the new labels under their temporary name, with the save record beside them. verify
// checks the pair as it is saved (the record's temporary file stands in for the labels, as the
// app's read-only open does), says so on stderr, and changes nothing on disk: before, it reported
// the counts as different, which reads as a damaged pair.
func TestVerifyInterruptedSave(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	write := func(p string, a *idx.Array) {
		if err := idx.WriteFile(p, a); err != nil {
			t.Fatal(err)
		}
	}
	oldLabels, _ := idx.New(idx.UByte, 3)
	newImages, _ := idx.New(idx.UByte, 2, 2, 2)
	newLabels, _ := idx.New(idx.UByte, 2)
	newLabels.Data[1] = 7
	write(ip, newImages) // renamed already
	write(lp, oldLabels) // not yet
	temp := filepath.Join(dir, ".x-labels-idx1-ubyte.idxlabel-tmp-123")
	write(temp, newLabels)
	record := `{"version":2,"files":[{"target":"x-images-idx3-ubyte","temp":".x-images-idx3-ubyte.idxlabel-tmp-9","backup":false},` +
		`{"target":"x-labels-idx1-ubyte","temp":".x-labels-idx1-ubyte.idxlabel-tmp-123","backup":false}]}`
	if err := os.WriteFile(lp+store.ManifestSuffix, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	before := listing(t, dir)
	code, out, errOut := runCLI("verify", ip, lp)
	if code != 0 || !strings.HasPrefix(out, "ok: 2 samples") || !strings.Contains(out, "2 classes (0–7)") {
		t.Fatalf("verify of an interrupted save: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "interrupted") {
		t.Errorf("stderr does not say the save was interrupted: %q", errOut)
	}
	if after := listing(t, dir); after != before {
		t.Fatalf("verify changed the folder:\n%s\n%s", before, after)
	}
}

// listing names every file in dir with its size and modification time.
func listing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, _ := e.Info()
		b.WriteString(e.Name() + " " + fi.ModTime().String() + " " + fi.Mode().String() + "\n")
	}
	return b.String()
}
