package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// linkedPair writes a tiny pair whose image file is in another folder than its label file, and
// symbolic links to both in a third folder; it returns the files and the links.
func linkedPair(t *testing.T) (ip, lp, kip, klp string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip0, lp := tinyPair(t, t.TempDir(), 6)
	ip = filepath.Join(t.TempDir(), filepath.Base(ip0))
	if err := os.Rename(ip0, ip); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	kip, klp = filepath.Join(links, "mine-images"), filepath.Join(links, "mine-labels")
	for real, link := range map[string]string{ip: kip, lp: klp} {
		if err := os.Symlink(real, link); err != nil {
			t.Skipf("this system cannot make symbolic links: %v", err)
		}
	}
	return ip, lp, kip, klp
}

// editAndStop opens the pair (images, labels), relabels sample 0 and closes it unsaved: the
// journal of a window that stopped before saving.
func editAndStop(t *testing.T, images, labels string) {
	t.Helper()
	d, err := Open(images, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{0}, 7); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

// A pair edited through symbolic links keeps its journal beside the files the links name, so a
// writer aimed at those files (even with force) finds the unsaved edits and is refused, and
// opening the files by their own names offers the journal.
func TestJournalThroughLinksRefusesWriterOfTheFiles(t *testing.T) {
	ip, lp, kip, klp := linkedPair(t)
	editAndStop(t, kip, klp)
	if _, err := os.Lstat(lp + pairfile.JournalSuffix); err != nil {
		t.Errorf("no journal beside the label file the link names: %v", err)
	}
	for _, out := range []string{lp, ip, klp, kip} {
		c, err := pairfile.ClaimOutputs(nil, []string{out}, true, nil)
		if !errors.Is(err, pairfile.ErrUnsavedEdits) {
			c.Release()
			t.Fatalf("a writer of %s with force, the pair edited through links and left unsaved: %v, want ErrUnsavedEdits", out, err)
		}
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Recovery() == nil {
		t.Fatal("the pair opened by its own names does not offer the journal written through the links")
	}
	if n, err := d.ReplayJournal(); err != nil || n != 1 || d.Label(0) != 7 {
		t.Fatalf("replayed %d edits (%v); sample 0's label %d, want 1 edit giving 7", n, err, d.Label(0))
	}
}

// A journal an earlier version wrote beside the links' names is still found when the pair is
// opened through them, and still refuses a writer through the links.
func TestJournalBesideLinkOfEarlierVersionFound(t *testing.T) {
	_, lp, kip, klp := linkedPair(t)
	editAndStop(t, kip, klp)
	if err := os.Rename(lp+pairfile.JournalSuffix, klp+pairfile.JournalSuffix); err != nil {
		t.Fatal(err)
	}
	if c, err := pairfile.ClaimOutputs(nil, []string{klp}, true, nil); !errors.Is(err, pairfile.ErrUnsavedEdits) {
		c.Release()
		t.Fatalf("a writer of the link beside an earlier version's journal: %v, want ErrUnsavedEdits", err)
	}
	d, err := Open(kip, klp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if rec := d.Recovery(); rec == nil || rec.Path != klp+pairfile.JournalSuffix {
		t.Fatalf("recovery through the links: %+v, want the journal beside the link", rec)
	}
}

// A label file's link changed, after the pair was opened through it, to name another pair's file:
// the first edit does not start its journal beside that file (whose lock the dataset does not
// hold, and which another window may have open), it fails with ErrJournalWrite.
func TestJournalNotStartedBesideSwappedLink(t *testing.T) {
	_, _, kip, klp := linkedPair(t)
	_, lpB := tinyPair(t, t.TempDir(), 6)
	d, err := Open(kip, klp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := os.Remove(klp); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lpB, klp); err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{0}, 7); !errors.Is(err, ErrJournalWrite) {
		t.Fatalf("an edit after the label file's link was swapped: %v, want ErrJournalWrite", err)
	}
	if _, err := os.Lstat(lpB + pairfile.JournalSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a journal started beside the file the swapped link names: %v", err)
	}
}
