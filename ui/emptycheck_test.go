package ui

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/health"
)

// A key typed while the health check's kind shown lists no sample (not found yet while the
// check runs, found empty, not checked) changes nothing and says so on the status bar, with
// why: a digit, a letter (which would open the class picker), Delete, →, Enter on label errors,
// Edit → Relabel Selection…. Before, each did nothing and said nothing.
func TestKeysOnAnEmptyCheckListSaySo(t *testing.T) {
	ds := noiseStore(t, 300)
	w := newTestWindow(t)
	q := queueUI(w)
	w.scans.Opts = quickCNN
	w.c.setDataset(ds, "demo", false)
	k := w.check
	if !k.Start(nil) {
		t.Fatal("the check did not start")
	}
	gen := ds.Gen()
	say := func(what string, key func(), want string) {
		t.Helper()
		key()
		if got := w.footer.status.Text; !strings.Contains(got, want) {
			t.Fatalf("%s with no sample shown: the status bar says %q, want %q", what, got, want)
		}
		if ds.Gen() != gen || ds.UndoName() != "" {
			t.Fatalf("%s with no sample shown made an edit (%q)", what, ds.UndoName())
		}
		if _, open := w.d.Top(); open {
			t.Fatalf("%s with no sample shown opened a dialog", what)
		}
	}
	nothing := ": no sample is shown here, nothing changed "

	// While the check runs, none of its steps run yet: every list not found.
	if w.c.mode != k.Mode || w.c.v.Len() != 0 || k.Mode.F.Lists[suspecthealth.Duplicate].State != health.Waiting {
		t.Fatalf("after Start: mode %v, %d shown", w.c.mode, w.c.v.Len())
	}
	waiting := "(Duplicates: not found yet, the check runs)"
	say("a digit", func() { test.Type(w.grid, "7") }, "7 typed"+nothing+waiting)
	say("a letter", func() { test.Type(w.grid, "b") }, "b typed"+nothing+waiting)
	say("Delete", func() { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete}) }, "Delete"+nothing+waiting)
	say("→", func() { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight}) }, "→"+nothing+waiting)
	say("Edit → Relabel Selection…", menuItem(t, w, "Edit", "Relabel Selection…").Action, "Relabel Selection"+nothing+waiting)

	// The duplicates found, none among the noise; label errors wait for the CNN scan.
	waitUI(t, q, func() bool { return k.Check().WaitingScan })
	if l := k.Mode.F.Lists[suspecthealth.Duplicate]; l.State != health.Found || len(l.Order) != 0 || w.c.v.Len() != 0 {
		t.Fatalf("the noise: %d duplicates listed, %d shown (this test wants none)", len(l.Order), w.c.v.Len())
	}
	say("a digit", func() { test.Type(w.grid, "3") }, "3 typed"+nothing+"(Duplicates: none found)")
	k.Pick(suspecthealth.Label)
	say("Enter", func() { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }, "Enter"+nothing+"(Label errors: not found yet, the check runs)")

	// Cancelled: the kinds not found are not checked.
	k.Cancel()
	say("a digit", func() { test.Type(w.grid, "5") }, "5 typed"+nothing+"(Label errors: not checked, the check stopped)")
}

// noiseStore returns n labelled 28×28 images of uniform noise (seeded), journaled in a temporary
// folder: no two alike, so the health check finds no near-duplicate among them.
func noiseStore(t *testing.T, n int) *store.Dataset {
	t.Helper()
	images, err := idx.New(idx.UByte, n, 28, 28)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := idx.New(idx.UByte, n)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(18, 1))
	for i := range images.Data {
		images.Data[i] = byte(rng.IntN(256))
	}
	for i := range labels.Data {
		labels.Data[i] = byte(i % 10)
	}
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(t.TempDir(), "noise"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	return ds
}
