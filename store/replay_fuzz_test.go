package store

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReplay feeds arbitrary journal files (version 2, and version 1 as older idxlabels wrote
// them) to Open and ReplayJournal on a small generated pair: whatever the bytes, nothing panics
// or hangs, every label after a replay is one the label dtype holds (0–255 here) on a sample
// that exists, and the change log explains the state replayed (checkLogExplains) with a how
// that fits each entry.
func FuzzReplay(f *testing.F) {
	dir := f.TempDir()
	ip, lp := tinyPair(f, dir, 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		f.Fatal(err)
	}
	d.Relabel([]int{0, 3}, 9)
	d.Append([]Sample{{Pixels: make([]byte, 16), Label: 4}})
	d.Delete([]int{2})
	d.Undo()
	d.Redo()
	d.Decide(5, 1)
	d.Restore([]int{2})
	d.DecideAs(HowSuspectAccepted, 6, 2)
	d.SetLabelsAs(HowSuggestedAccepted, []int{7, 8}, []int{0, 1})
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: make([]byte, 16), Label: 3}})
	d.Delete([]int{12})
	d.Close()
	seed, err := os.ReadFile(lp + JournalSuffix)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte(journalMagic))
	f.Add(downgrade(f, seed))
	f.Add([]byte(journalMagicV1))
	os.Remove(lp + JournalSuffix)

	f.Fuzz(func(t *testing.T, journal []byte) {
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
		if err := os.WriteFile(lp+JournalSuffix, journal, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(lp + JournalSuffix)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err) // a journal never blocks opening
		}
		defer d.Close()
		if rec := d.Recovery(); rec != nil && rec.Matches {
			d.ReplayJournal()
		}
		for i := range d.Len() {
			if l := d.Label(i); l < 0 || l > 255 {
				t.Fatalf("sample %d has label %d after a replay", i, l)
			}
		}
		checkLogExplains(t, d)
		if err := WriteChangeLog(io.Discard, d.ChangeLog(), true); err != nil {
			t.Fatal(err)
		}
	})
}
