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
