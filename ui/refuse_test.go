package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"idxlabel/store"
	"idxlabel/ui/mode"
)

// An edit the store refuses is said on the status bar with why and what to do, never in a
// dialog: a journal that could not be written (the edit was not made), one damaged (no edit is
// taken until it is repaired: save now, which the store's reason says), a save writing the files,
// a journal awaiting its answer, a read-only pair, a label the file cannot hold.
func TestEditRefusalSaysWhy(t *testing.T) {
	damaged := fmt.Errorf("%w: %w (j could not be cut back); save the dataset now to keep the edits made so far", store.ErrJournalWrite, store.ErrJournalDamaged)
	for _, c := range []struct {
		err  error
		want []string
	}{
		{damaged, []string{"no edit is taken until the journal can be repaired", "save the dataset now"}},
		{fmt.Errorf("%w: disk full", store.ErrJournalWrite), []string{"could not be recorded", "disk full"}},
		{store.ErrSaving, []string{"a save is writing the files"}},
		{store.ErrRecoveryPending, []string{"replay or discard them first"}},
		{store.ErrReadOnly, []string{"Read-only"}},
		{errors.Join(errors.New("adding failed"), damaged), []string{"no edit is taken until the journal can be repaired"}},
		{errors.New("label 300 does not fit ubyte"), []string{"Not done: label 300"}},
	} {
		got := mode.Refusal(c.err)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: %q does not say %q", c.err, got, w)
			}
		}
	}
}

// While a journal found at Open awaits its answer, a digit, Delete, an undo and Edit → Class
// Names… change nothing and the status bar says to replay or discard it first; no dialog opens
// (the recovery question is the only one).
func TestEditsRefusedOnTheStatusBarWhileRecoveryPends(t *testing.T) {
	w, ds, ip, lp := digitsWindow(t, 50)
	if err := ds.Relabel([]int{0}, (ds.Label(0)+1)%10); err != nil {
		t.Fatal(err)
	}
	ds.Close() // the journal stays, holding the edit
	again, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	if again.Recovery() == nil {
		t.Fatal("no journal found")
	}
	w.c.setDataset(again, "g", false)
	l1 := again.Label(1)
	w.c.moveCursor(1, false)
	test.Type(w.grid, "3")
	w.c.toggleDelete()
	w.c.undo()
	w.build.Names.Apply(map[int]string{1: "one"})
	if again.Label(1) != l1 || again.State(1).Deleted || again.ClassName(1) != "" {
		t.Fatalf("an edit was made while the journal pended: label %d, deleted %v, name %q", again.Label(1), again.State(1).Deleted, again.ClassName(1))
	}
	if s := w.footer.status.Text; !strings.Contains(s, "replay or discard them first") {
		t.Fatalf("the status bar says %q", s)
	}
	if len(w.d.Open()) != 0 {
		t.Fatalf("a dialog opened: %q", overlayText(w))
	}
}
