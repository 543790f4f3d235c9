package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// A pair whose image file is in another folder than its label file (and journal): while the
// journal holds edits a marker beside the image file refuses every writer of it, even with
// force, through a crash and a reopening; a save, a discard or a reopening with nothing to
// recover removes it.
func TestUnsavedMarkerBesideImagesElsewhere(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 6)
	labels := filepath.Join(t.TempDir(), filepath.Base(lp))
	if err := os.Rename(lp, labels); err != nil {
		t.Fatal(err)
	}
	marked := func(when string) {
		t.Helper()
		if pairfile.UnsavedMarker(ip) == "" {
			t.Fatalf("%s: no marker beside the images", when)
		}
	}
	refused := func(when string) {
		t.Helper()
		_, err := pairfile.ClaimOutputs(nil, []string{ip}, true, nil)
		var ue *pairfile.UnsavedEditsError
		if !errors.As(err, &ue) || ue.Marker == "" {
			t.Fatalf("%s: a --force writer of the images: %v, want refused by the marker", when, err)
		}
	}
	free := func(when string) {
		t.Helper()
		if m := pairfile.UnsavedMarker(ip); m != "" {
			t.Fatalf("%s: marker %s left", when, m)
		}
	}
	d, err := Open(ip, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	free("opened")
	if err := d.Relabel([]int{0}, 3); err != nil {
		t.Fatal(err)
	}
	marked("an edit") // (the pair's lock refuses writers meanwhile)
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	free("saved")
	if err := d.Relabel([]int{1}, 4); err != nil {
		t.Fatal(err)
	}
	d.Close() // a crash: the journal stays
	refused("after the crash")
	d, err = Open(ip, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Recovery() == nil {
		t.Fatal("no journal offered")
	}
	marked("reopened, the journal offered")
	if err := d.DiscardJournal(true); err != nil {
		t.Fatal(err)
	}
	free("discarded")
	d.Close()
	// A marker left by a journal since removed (by hand): the next opening removes it.
	pairfile.MarkUnsaved(ip, labels+pairfile.JournalSuffix)
	refused("a stale marker")
	d, err = Open(ip, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	free("reopened with nothing to recover")
}

// Two annotators' label files of one name, in two folders, beside one shared image file: pair
// A's unsaved edits keep their mark beside the image file, so a writer of it is refused (even
// with force), whatever pair B does meanwhile: open it with nothing to recover, edit and save
// it, edit it back and close it. Opening A and discarding its journal removes A's mark.
func TestUnsavedMarkerTwoPairsShareImages(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 6)
	labelsA := filepath.Join(t.TempDir(), filepath.Base(lp))
	labelsB := filepath.Join(t.TempDir(), filepath.Base(lp))
	b, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{labelsA, labelsB} {
		if err := os.WriteFile(l, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(lp)
	refused := func(when string) {
		t.Helper()
		if pairfile.UnsavedMarker(ip) == "" {
			t.Fatalf("%s: pair A's unsaved edits have no marker beside the shared image file", when)
		}
		_, err := pairfile.ClaimOutputs(nil, []string{ip}, true, nil)
		if !errors.Is(err, pairfile.ErrUnsavedEdits) {
			t.Fatalf("%s: a --force writer of the shared image file: %v, want refused (pair A has unsaved edits)", when, err)
		}
	}
	open := func(labels string) *Dataset {
		t.Helper()
		d, err := Open(ip, labels, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := open(labelsA)
	if err := a.Relabel([]int{0}, 7); err != nil {
		t.Fatal(err)
	}
	a.Close() // A stops with its edit unsaved: its journal stays
	refused("A closed with an unsaved edit")

	open(labelsB).Close()
	refused("B opened and closed")

	d := open(labelsB)
	if err := d.Relabel([]int{1}, 8); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	refused("B edited and saved")

	d = open(labelsB)
	if err := d.Relabel([]int{2}, 9); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	d.Close()
	refused("B edited back and closed")

	a = open(labelsA)
	defer a.Close()
	if a.Recovery() == nil {
		t.Fatal("A's journal is not offered")
	}
	if pairfile.UnsavedMarker(ip) == "" { // (A's lock refuses writers meanwhile)
		t.Fatal("A reopened, its journal offered: no marker")
	}
	if err := a.DiscardJournal(false); err != nil {
		t.Fatal(err)
	}
	if m := pairfile.UnsavedMarker(ip); m != "" {
		t.Fatalf("A's journal discarded, and B's saved: marker %s left", m)
	}
}
