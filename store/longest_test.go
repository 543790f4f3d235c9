package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// Label file names of 240 to 255 bytes: the save record's name (+16 bytes), the journal's (+18),
// a save's temporary file's (+25 or so) and, from 242, the lock's (+14) exceed the 255-byte
// limit. No record is reported where none can exist, the lock (from 242) and journal go to the
// per-user folder (a second editor is still refused), and edits are kept; a notice says so when
// the pair opens (pairfile.UnwritableNotice: the name is too long for the files kept beside it),
// once, at 240 too, where the lock fits but the journal and a save's temporary file do not.
func TestLongestLabelNames(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	for _, n := range []int{240, 242, 255} {
		dir := t.TempDir()
		images, _ := idx.New(idx.UByte, 3, 2, 2)
		labels, _ := idx.New(idx.UByte, 3)
		ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, strings.Repeat("l", n))
		for p, a := range map[string]*idx.Array{ip: images, lp: labels} {
			var b bytes.Buffer
			idx.Encode(&b, a)
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, note := pairfile.ReadView(ip, lp); note != "" {
			t.Fatalf("%d bytes: ReadView says %q", n, note)
		}
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if notes := d.Notices(); len(notes) != 1 || !strings.Contains(notes[0], "is too long for the lock, journal and temporary files") || !strings.Contains(notes[0], "per-user journal") {
			t.Fatalf("%d bytes: notices %q", n, notes)
		}
		if _, err := Open(ip, lp, Options{}); !errors.Is(err, pairfile.ErrLocked) {
			t.Fatalf("%d bytes: a second editor: %v", n, err)
		}
		if err := d.Relabel([]int{0}, 4); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		d.Close()
	}
}
