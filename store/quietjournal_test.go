package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// JournalChangesNothing, the rule every writer asks of a journal of the pair it replaces, answers
// as Open does: true for a killed window's journal whose edits cancel out (3 typed over a 7, then
// 7 typed back), false for one that changes a label, and false once the files are no longer the
// ones it was written against (its edits then cannot be said to change nothing).
func TestJournalChangesNothingAsOpenDoes(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 20)
	leave := func(edits func(d *Dataset)) string { return killedAfter(t, ip, lp, edits) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	back := typedBack(t)
	j := leave(back)
	if !JournalChangesNothing(j) {
		t.Error("a journal whose edits cancel out: changes something")
	}
	os.Remove(j)
	j = leave(func(d *Dataset) { back(d); must(d.Relabel([]int{2}, 5)) })
	if JournalChangesNothing(j) {
		t.Error("a journal that relabels sample 2: changes nothing")
	}
	os.Remove(j)
	j = leave(back)
	labels, _ := idx.New(idx.UByte, 20) // another program rewrote the label file since
	must(idx.WriteFile(lp, labels))
	if JournalChangesNothing(j) {
		t.Error("a journal of files rewritten since: changes nothing")
	}
	if JournalChangesNothing(lp) {
		t.Error("a file that is not a journal: changes nothing")
	}
}

// A journal is judged only as the journal of the pair it names: one beside pair B whose pair
// record names pair A's files (crafted, or copied from A) is not quiet because its edits cancel
// out on A's files, since the window opening B judges it against B and offers it; a writer
// replacing B's files that took it for quiet would remove edits the window offers. The same for
// a pair record naming files through a path leaving the journal's folder.
func TestJournalChangesNothingOnlyOfItsOwnPair(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ipA, lpA := tinyPair(t, t.TempDir(), 20)
	ipB, lpB := tinyPair(t, t.TempDir(), 20)
	labels, err := idx.ReadFile(lpB)
	if err != nil {
		t.Fatal(err)
	}
	labels.Data[7] = 4 // B differs from A where A's journal typed 3 then 7 back
	if err := idx.WriteFile(lpB, labels); err != nil {
		t.Fatal(err)
	}
	jA := killedAfter(t, ipA, lpA, typedBack(t))
	c, err := journal.Read(jA, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !JournalChangesNothing(jA) {
		t.Fatal("A's own journal whose edits cancel out: changes something")
	}
	jB := lpB + pairfile.JournalSuffix
	if _, err := journal.Write(jB, c.Pair, c.Base, c.Records); err != nil {
		t.Fatal(err)
	}
	if JournalChangesNothing(jB) {
		t.Errorf("a journal beside %s naming %v: changes nothing", lpB, c.Pair)
	}
	dB, err := Open(ipB, lpB, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dB.Close()
	if dB.Recovery() == nil {
		t.Error("the window opening B dropped the journal beside it")
	}
}

// A pair opened through symbolic links keeps its journal beside the files they name
// (pairfile.JournalFile): a journal there whose edits cancel out is its own, and judged so.
func TestJournalChangesNothingThroughLinks(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 20)
	links := t.TempDir()
	li, ll := filepath.Join(links, "mine-images"), filepath.Join(links, "mine-labels")
	if err := os.Symlink(ip, li); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lp, ll); err != nil {
		t.Fatal(err)
	}
	j := killedAfter(t, li, ll, typedBack(t))
	if !pairfile.SamePath(j, pairfile.JournalFile(li, ll)) || !strings.HasPrefix(j, filepath.Dir(lp)) {
		t.Fatalf("the journal is at %s, not beside the label file the link names (%s)", j, lp)
	}
	if !JournalChangesNothing(j) {
		t.Error("a journal whose edits cancel out, of a pair opened through links: changes something")
	}
}

// killedAfter opens the pair images, labels for editing, makes edits, and leaves it as a
// killed window does (killed): it returns the journal's path.
func killedAfter(t testing.TB, images, labels string, edits func(d *Dataset)) string {
	t.Helper()
	d, err := Open(images, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	edits(d)
	path := journalPath(d)
	killed(t, d)
	return path
}

// typedBack types 3 over sample 7's label 7, then 7 back: edits that cancel out.
func typedBack(t testing.TB) func(d *Dataset) {
	return func(d *Dataset) {
		t.Helper()
		for _, l := range []int{3, 7} {
			if err := d.Relabel([]int{7}, l); err != nil {
				t.Fatal(err)
			}
		}
	}
}
