package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// A pair opened through a symbolic link to its label file in another folder keeps its journal
// beside the link; a writer of the label file by its own name looks in that file's folder, so
// the pair marks that file (pairfile.MarkUnsaved) while its edits are unsaved: such a writer is
// refused even with --force, and allowed again once the pair replays and saves its journal.
func TestUnsavedEditsThroughLabelLink(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 20)
	link := filepath.Join(t.TempDir(), "labels-link")
	if err := os.Symlink(lp, link); err != nil {
		t.Skip("no symbolic links here:", err) // the rule this tests is about links
	}
	d, err := Open(ip, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{7}, 3); err != nil {
		t.Fatal(err)
	}
	killed(t, d)
	claim := func() error {
		c, err := pairfile.ClaimOutputs(nil, []string{lp}, true, nil)
		if c != nil {
			c.Release()
		}
		return err
	}
	if err := claim(); !errors.Is(err, pairfile.ErrUnsavedEdits) {
		t.Fatalf("a --force writer of the label file a pair's link names, while that pair has unsaved edits: %v", err)
	}
	d, err = Open(ip, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if m := pairfile.UnsavedMarker(lp); m != "" {
		t.Errorf("saved, the mark stays: %s", m)
	}
	d.Close()
	if err := claim(); err != nil {
		t.Errorf("a writer of the saved label file: %v", err)
	}
}
