package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/rodir"
	"idxlabel/pairfile"
)

// TestReadOnlyFolderWithLocksLeft: a pair whose folder became read-only (rodir) after lock files
// were left beside it opens with the same notice as any pair in a folder that cannot be written,
// though its locks are taken there without writing: the folder cannot be written, the edits are
// kept safe in the per-user journal (where the first edit's journal goes), File → Save As…
// writes the dataset elsewhere.
func TestReadOnlyFolderWithLocksLeft(t *testing.T) {
	dir, here := rodir.Enter(t, func(dir string) {
		ip, lp := writeMNISTPair(t, dir, 10, false)
		for _, f := range []string{ip, lp} {
			if err := os.WriteFile(pairfile.LockFile(f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	if !here {
		return
	}
	ip, lp := filepath.Join(dir, "t10k-images-idx3-ubyte"), filepath.Join(dir, "t10k-labels-idx1-ubyte")
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	notes := d.Notices()
	if len(notes) != 1 {
		t.Fatalf("opening a pair in a folder that cannot be written, its lock files left there, gave %d notices, not 1: %q", len(notes), notes)
	}
	for _, want := range []string{"The folder " + dir + " cannot be written", "per-user journal (in " + pairfile.FallbackDir() + ")", "File → Save As… writes the dataset"} {
		if !strings.Contains(notes[0], want) {
			t.Fatalf("the notice %q does not say %q", notes[0], want)
		}
	}
	if err := d.Relabel([]int{3}, 8); err != nil {
		t.Fatalf("an edit right after the opening: %v", err)
	}
	if jp := journalPath(d); !strings.HasPrefix(jp, config) {
		t.Fatalf("the journal is %s, not in the per-user folder %s", jp, config)
	}
}
