//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"idxlabel/fixture/nonregular"
)

// RemoveAbandoned removes, whatever their age, the temporary files of the target's own name that
// no writer flocks, and nothing else: not one a live writer holds, not a FIFO or a symbolic link
// of that pattern (never opened, never followed), not a temporary file of the file a symbolic
// link at the target's path names, and it never waits on a FIFO.
func TestRemoveAbandoned(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(dir, "x.side")
	other := filepath.Join(elsewhere, "y.side")
	os.WriteFile(other, nil, 0o644)
	if err := os.Symlink(other, target); err != nil {
		t.Fatal(err)
	}
	dead, live := TempPrefix(target)+"1", TempPrefix(target)+"2"
	behind := TempPrefix(other) + "3"
	for _, p := range []string{dead, live, behind} {
		os.WriteFile(p, []byte("half"), 0o644)
	}
	f, err := Hold(live)
	if err != nil || f == nil {
		t.Fatalf("cannot hold a temporary file as a live writer does: %v", err)
	}
	defer f.Close()
	fifo := nonregular.FIFO(t, dir, "."+filepath.Base(target)+TempMarker+"4")
	link := TempPrefix(target) + "5"
	os.Symlink(other, link)
	removed := RemoveAbandoned(target)
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %q, want only %s", removed, dead)
	}
	for _, p := range []string{live, behind, fifo, link, other, target} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
