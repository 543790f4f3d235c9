package store

import (
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// killed closes d as a window killed at that moment leaves its pair: the journal as it is on
// disk (Close removes one whose edits cancel out), the lock released.
func killed(t testing.TB, d *Dataset) {
	t.Helper()
	path := journalPath(d)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no journal to leave behind: %v", err)
	}
	d.Close()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Edits that cancel out without an undo (a 3 typed on a sample labelled 5, then 5 typed back; a
// deletion then a restore) leave the dataset as the files hold it: not dirty, as after an undo.
// A step that moves a mark the journal or a save keeps (a review's decision, an accepted
// suggestion) keeps it dirty, and so does an undo that takes the cancelling step back.
func TestEditsThatCancelOutAreNotDirty(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 20)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dirty := func(want bool, when string) {
		t.Helper()
		if got := d.Dirty(); got != want {
			t.Fatalf("%s: Dirty %v, want %v (counters %+v)", when, got, want, d.Counters())
		}
	}
	five := 5 // sample 5 is labelled 5
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Relabel([]int{five}, 3))
	dirty(true, "3 typed on a 5")
	must(d.Relabel([]int{five}, 5))
	dirty(false, "5 typed back")
	must(d.Delete([]int{2, 7}))
	dirty(true, "two deleted")
	must(d.Restore([]int{2, 7}))
	dirty(false, "restored")
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	dirty(true, "the restore undone")
	if _, _, err := d.Redo(); err != nil {
		t.Fatal(err)
	}
	dirty(false, "redone")

	// A review's decision that keeps the label: the reviewed mark lives in the journal only.
	must(d.DecideAs(HowManual, 4, 4))
	dirty(true, "a decision keeping the label")
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	dirty(false, "the decision undone")
	// An accepted suggestion then the person's own label typed back: the accepted mark came
	// and went, but a step set it: dirty (the marks are not compared sample by sample).
	must(d.SetLabelsAs(HowSuggestedAccepted, []int{6}, []int{1}))
	must(d.Relabel([]int{6}, 6))
	dirty(true, "an accepted suggestion, then the file's label typed back")

	// After a save, the same again: clean after a cancelling pair.
	must(d.Save(nil))
	dirty(false, "saved")
	must(d.Relabel([]int{9}, 0))
	must(d.Relabel([]int{9}, 9))
	dirty(false, "after the save, 0 typed on a 9 and 9 typed back")
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	dirty(true, "the 9 undone: the 0 is back")
}

// A pair whose journal's edits all cancel out (3 typed on a 5, then 5 typed back), left by a
// killed window, is not offered as unsaved work when it is opened again: the journal and the
// unsaved-edits mark beside an image file in another folder go, also when the journal begins
// with the history a save carried. One that holds a real change (the same pair of edits, and a
// label typed on another sample) is offered and kept, and so is one with a review's decision or
// an accepted suggestion's step (marks the check does not compare). A window closed normally
// with edits that cancel out leaves no journal and no mark at all.
func TestJournalThatChangesNothingIsNotOffered(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 20)
	labels := filepath.Join(t.TempDir(), filepath.Base(lp)) // the journal in another folder: a mark beside the images
	if err := os.Rename(lp, labels); err != nil {
		t.Fatal(err)
	}
	open := func() *Dataset {
		t.Helper()
		d, err := Open(ip, labels, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	cancelling := func(d *Dataset) {
		t.Helper()
		must(d.Relabel([]int{5}, 3))
		must(d.Relabel([]int{5}, 5))
		must(d.Delete([]int{1}))
		must(d.Restore([]int{1}))
	}

	d := open()
	cancelling(d)
	journal := journalPath(d)
	if pairfile.UnsavedMarker(ip) == "" {
		t.Fatal("no mark beside the images while the journal is written")
	}
	killed(t, d)
	if _, err := os.Stat(journal); err != nil {
		t.Fatalf("the killed window's journal: %v", err)
	}
	d = open()
	if r := d.Recovery(); r != nil {
		t.Fatalf("a journal whose edits cancel out offered: %d edits", r.Edits)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("the journal is still there: %v", err)
	}
	if m := pairfile.UnsavedMarker(ip); m != "" {
		t.Fatalf("the mark %s is still beside the images", m)
	}

	// Closed normally: nothing left behind.
	cancelling(d)
	d.Close()
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("closed with edits that cancel out, the journal stays: %v", err)
	}
	if m := pairfile.UnsavedMarker(ip); m != "" {
		t.Fatalf("closed with edits that cancel out, the mark %s stays", m)
	}

	// A real change among them: offered, kept, replayed as it was, then saved.
	for _, real := range []func(d *Dataset){
		func(d *Dataset) { must(d.Relabel([]int{8}, 2)) },
		func(d *Dataset) { must(d.DecideAs(HowManual, 4, 4)) },
		func(d *Dataset) { // an accepted suggestion, then the file's label typed back
			must(d.SetLabelsAs(HowSuggestedAccepted, []int{7}, []int{3}))
			must(d.Relabel([]int{7}, 7))
		},
	} {
		d = open()
		cancelling(d)
		real(d)
		killed(t, d)
		d = open()
		r := d.Recovery()
		if r == nil || !r.Matches {
			t.Fatalf("a journal with a real change not offered: %+v)", r)
		}
		if pairfile.UnsavedMarker(ip) == "" {
			t.Fatal("no mark beside the images while a real change waits")
		}
		if _, err := d.ReplayJournal(); err != nil {
			t.Fatal(err)
		}
		if !d.Dirty() || d.Label(5) != 5 {
			t.Fatalf("replayed: dirty %v, sample 5 labelled %d", d.Dirty(), d.Label(5))
		}
		must(d.Save(nil)) // the change goes into the files; the next round starts from them
		d.Close()
	}

	// After a save in the same session, the journal begins with the history it carried.
	d = open()
	must(d.Relabel([]int{3}, 9))
	must(d.Save(nil))
	cancelling(d)
	killed(t, d)
	d = open()
	defer d.Close()
	if r := d.Recovery(); r != nil {
		t.Fatalf("after a save, a journal whose edits cancel out offered: %d edits", r.Edits)
	}
	if d.Label(3) != 9 || d.Label(5) != 5 {
		t.Fatalf("samples 3 and 5 labelled %d and %d, want 9 and 5", d.Label(3), d.Label(5))
	}
}
