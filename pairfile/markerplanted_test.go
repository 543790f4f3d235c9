package pairfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Something other than a regular file planted at the marker's lock file (a symbolic link, a
// folder, a FIFO: by a hostile user of a shared folder, or left by a tool) keeps the lock from
// being taken; a mark is still added, as when another holder keeps the lock past the wait (a
// mark left out would let a writer replace the image file under unsaved edits), at once (no
// wait on the FIFO), and nothing is written through the link.
func TestUnsavedMarkAddedPastAPlantedLockFile(t *testing.T) {
	plant := map[string]func(path, other string) error{
		"link":   func(path, other string) error { return os.Symlink(other, path) },
		"folder": func(path, _ string) error { return os.Mkdir(path, 0o755) },
		"fifo":   func(path, _ string) error { return mkfifo(path) },
	}
	for name, make := range plant {
		t.Run(name, func(t *testing.T) {
			ip, _ := writeTestPair(t, 4, 2, 2)
			j := filepath.Join(t.TempDir(), "a-labels-idx1-ubyte"+JournalSuffix)
			other := filepath.Join(t.TempDir(), "other")
			os.WriteFile(other, []byte("keep"), 0o644)
			if err := make(ip+UnsavedSuffix+LockSuffix, other); err != nil {
				t.Skipf("this system cannot make a %s: %v", name, err)
			}
			err := MarkUnsaved(ip, j)
			if err != nil || UnsavedMarker(ip) == "" {
				t.Fatalf("a %s planted as the marker's lock file: mark %v, marker %q", name, err, UnsavedMarker(ip))
			}
			if b, _ := os.ReadFile(other); string(b) != "keep" {
				t.Fatalf("the planted link's file holds %q", b)
			}
		})
	}
}
