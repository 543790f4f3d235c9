//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/nonregular"
)

func TestRefusesNonRegularTargets(t *testing.T) {
	dir := t.TempDir()
	fifo, sock := nonregular.FIFO(t, dir, "fifo"), nonregular.Socket(t, dir, "sock")
	for _, p := range []string{fifo, sock, dir, os.DevNull} {
		err := WriteFile(p, write("x"))
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("write to %s: %v, want ErrNotRegular", p, err)
		}
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device", os.DevNull)
	}
	nonregular.Kept(t, fifo, sock)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("folder holds %v", entries)
	}
}

func TestOpenRegularDoesNotBlockOnFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := nonregular.FIFO(t, dir, "fifo")
	// No writer ever opens the FIFO: an open that waited for one would hang the test.
	if _, _, err := OpenRegular(fifo); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("OpenRegular(fifo): %v", err)
	}
	if _, _, err := OpenRegular(dir); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("OpenRegular(folder): %v", err)
	}
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("abc"), 0o644)
	f, fi, err := OpenRegular(p)
	if err != nil || fi.Size() != 3 {
		t.Fatalf("regular file: %v", err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "abc" {
		t.Fatalf("read %q, %v", b, err)
	}
}
