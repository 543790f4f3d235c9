package store

import (
	"os"
	"testing"

	"idxlabel/idx"
)

// JournalChangesNothing, the rule every writer asks of a journal of the pair it replaces, answers
// as Open does: true for a killed window's journal whose edits cancel out (3 typed over a 7, then
// 7 typed back), false for one that changes a label, and false once the files are no longer the
// ones it was written against (its edits then cannot be said to change nothing).
func TestJournalChangesNothingAsOpenDoes(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 20)
	leave := func(edits func(d *Dataset)) string {
		t.Helper()
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		edits(d)
		path := journalPath(d)
		killed(t, d)
		return path
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	typedBack := func(d *Dataset) {
		must(d.Relabel([]int{7}, 3))
		must(d.Relabel([]int{7}, 7))
	}
	j := leave(typedBack)
	if !JournalChangesNothing(j) {
		t.Error("a journal whose edits cancel out: changes something")
	}
	os.Remove(j)
	j = leave(func(d *Dataset) { typedBack(d); must(d.Relabel([]int{2}, 5)) })
	if JournalChangesNothing(j) {
		t.Error("a journal that relabels sample 2: changes nothing")
	}
	os.Remove(j)
	j = leave(typedBack)
	labels, _ := idx.New(idx.UByte, 20) // another program rewrote the label file since
	must(idx.WriteFile(lp, labels))
	if JournalChangesNothing(j) {
		t.Error("a journal of files rewritten since: changes nothing")
	}
	if JournalChangesNothing(lp) {
		t.Error("a file that is not a journal: changes nothing")
	}
}
