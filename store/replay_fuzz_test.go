package store

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
	"idxlabel/sample"
)

// FuzzReplay feeds arbitrary journal files (version 2, and version 1 as older idxlabels wrote
// them) to Open and ReplayJournal on a small generated pair: whatever the bytes, nothing panics
// or hangs (the menus' names of the steps replayed, UndoName and RedoName, included), every
// label after a replay is one the label dtype holds (0–255 here) on a sample that exists, or
// sample.NoLabel (undoing, after a save, the labelling of images that had none; a save refuses it),
// and the change log explains the state replayed (checkLogExplains) with a how that fits each
// entry.
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
	decideManual(d, 5, 1)
	d.Restore([]int{2})
	d.DecideAs(HowSuspectAccepted, 6, 2)
	d.SetLabelsAs(HowSuggestedAccepted, []int{7, 8}, []int{0, 1})
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: make([]byte, 16), Label: 3}})
	d.Delete([]int{12})
	d.Close()
	seed, err := os.ReadFile(lp + pairfile.JournalSuffix)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte(journal.Magic))
	f.Add(downgrade(f, seed))
	f.Add([]byte(journal.MagicV1))
	os.Remove(lp + pairfile.JournalSuffix)
	f.Add(historySeed(f))

	f.Fuzz(func(t *testing.T, journal []byte) {
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
		if err := os.WriteFile(lp+pairfile.JournalSuffix, journal, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(lp + pairfile.JournalSuffix)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err) // a journal never blocks opening
		}
		defer d.Close()
		if rec := d.Recovery(); rec != nil && rec.Matches {
			d.ReplayJournal()
		}
		for i := range d.Len() {
			if l := d.Label(i); (l < 0 || l > 255) && l != sample.NoLabel {
				t.Fatalf("sample %d has label %d after a replay", i, l)
			}
		}
		d.UndoName() // the menus name the steps replayed: never a panic
		d.RedoName()
		checkLogExplains(t, d)
		if err := WriteChangeLog(io.Discard, d.ChangeLog(), true); err != nil {
			t.Fatal(err)
		}
	})
}

// historySeed returns a journal begun after saves, starting with a history record (history.go)
// whose undo and redo stacks hold every kind of step, written on a copy of FuzzReplay's pair by
// saves that leave its files as they were (so the journal matches FuzzReplay's pair).
func historySeed(f *testing.F) []byte {
	ip, lp := tinyPair(f, f.TempDir(), 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		f.Fatal(err)
	}
	px := make([]byte, 16)
	d.Relabel([]int{0, 3}, 9)
	decideManual(d, 5, 1)
	d.Delete([]int{2})
	d.Restore([]int{2})
	d.SetLabels([]int{0, 3, 5}, []int{0, 3, 5})
	d.Append([]Sample{{Pixels: px, Label: 4}})
	d.Save(nil)
	d.Undo() // the saved append: its sample marked deleted
	d.Append([]Sample{{Pixels: px, Label: 7}})
	d.Relabel([]int{13}, 2)
	d.Undo()
	d.Undo()
	if err := d.Save(nil); err != nil || d.Len() != 12 || d.UndoName() == "" || d.RedoName() == "" {
		f.Fatalf("the seed's saves: %v, %d samples", err, d.Len())
	}
	d.Undo()
	d.Redo()
	d.Undo()
	d.Close()
	seed, err := os.ReadFile(lp + pairfile.JournalSuffix)
	if err != nil {
		f.Fatal(err)
	}
	e, err := Open(ip, lp, Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer e.Close()
	if rec := e.Recovery(); rec == nil || !rec.Matches || rec.Edits != 3 || len(rec.contents.Records) != 4 {
		f.Fatalf("the seed journal: %+v", rec)
	}
	if _, err := e.ReplayJournal(); err != nil {
		f.Fatal(err)
	}
	return seed
}
