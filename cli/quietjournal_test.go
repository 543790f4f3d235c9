package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// killedWith leaves beside the pair (ip, lp) the journal of a window that made edits and was
// killed before saving: the journal as it was on disk (Close would remove one whose edits cancel
// out, and the unsaved-edits marker beside an image file in another folder with it), the lock
// released. It returns the journal's path.
func killedWith(t *testing.T, ip, lp string, edits func(d *store.Dataset) error) string {
	t.Helper()
	d, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := edits(d); err != nil {
		t.Fatal(err)
	}
	journal := lp + pairfile.JournalSuffix
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatalf("no journal written: %v", err)
	}
	marker := ip + pairfile.UnsavedSuffix // there when the journal is in another folder
	m, merr := os.ReadFile(marker)
	d.Close()
	if err := os.WriteFile(journal, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if merr == nil {
		if err := os.WriteFile(marker, m, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return journal
}

// typedBack types 3 over sample 7's 7, then 7 back: two edit records that change nothing.
func typedBack(d *store.Dataset) error {
	if err := d.Relabel([]int{7}, 3); err != nil {
		return err
	}
	return d.Relabel([]int{7}, 7)
}

// A window killed with a journal whose edits cancel out (3 typed over a 7, then 7 typed back)
// leaves no unsaved work: the window drops that journal when it opens the pair, and a writer with
// --force replaces the pair as it would any other, removing the journal (left, it would be
// offered against the new files). Without --force it is refused for existing, not for unsaved
// edits. A journal whose edits do change something (one more label typed) is still refused with
// --force, naming it and its edits, and is kept.
func TestForceOverAJournalThatChangesNothing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 20)
	src := t.TempDir()
	sip, slp := genPair(t, src, 5)
	tree := filepath.Join(src, "tree")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.1)

	for _, args := range [][]string{
		{"convert", slp, lp},
		{"convert", sip, ip},
		{"import", tree, ip, lp},
	} {
		journal := killedWith(t, ip, lp, typedBack)
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, "exists (use --force to replace it)") {
			t.Errorf("%v without --force: exit %d, %q", args, code, stderr)
		}
		if _, err := os.Stat(journal); err != nil {
			t.Errorf("%v without --force removed the journal: %v", args, err)
		}
		forced := append([]string{args[0], "--force"}, args[1:]...)
		if code, _, stderr := runCLI(forced...); code != 0 {
			t.Errorf("%v over a journal that changes nothing: exit %d, %q", forced, code, stderr)
		}
		if _, err := os.Lstat(journal); err == nil {
			t.Errorf("%v left the journal that changes nothing beside the new pair", forced)
		}
		ip, lp = genPair(t, dir, 20) // the next case starts from the pair again
	}

	// One more label typed: the journal changes sample 2, and is refused exactly as before.
	journal := killedWith(t, ip, lp, func(d *store.Dataset) error {
		if err := typedBack(d); err != nil {
			return err
		}
		return d.Relabel([]int{2}, 5)
	})
	labelsBefore, _ := os.ReadFile(lp)
	code, _, stderr := runCLI("convert", "--force", slp, lp)
	want := "idxlabel: " + lp + ": the journal " + journal + " holds 3 unsaved edits of " + lp + ", made in a window that stopped before saving them; replacing the file would lose them: open that pair in idxlabel"
	if code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("--force over a journal that changes a label: exit %d, %q, want it to start %q", code, stderr, want)
	}
	unchanged(t, "the pair with a real edit", lp, labelsBefore)
	if _, err := os.Stat(journal); err != nil {
		t.Errorf("the journal with a real edit: %v", err)
	}
}

// The label file in another folder than the image file: the window's journal lies beside the
// label file and a marker beside the image file names it. A writer of both files with --force
// over edits that cancel out replaces them and removes the journal and the marker; a writer of
// the image file alone, which cannot see the journal the marker names, is refused as before.
func TestForceOverAJournalThatChangesNothingInAnotherFolder(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp0 := genPair(t, t.TempDir(), 20)
	lp := filepath.Join(t.TempDir(), filepath.Base(lp0))
	if err := os.Rename(lp0, lp); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	sip, _ := genPair(t, src, 5)
	tree := filepath.Join(src, "tree")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.1)
	journal := killedWith(t, ip, lp, typedBack)
	marker := ip + pairfile.UnsavedSuffix
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("no marker beside the image file: %v", err)
	}
	if code, _, stderr := runCLI("convert", "--force", sip, ip); code != 1 || !strings.Contains(stderr, "the marker "+marker) {
		t.Errorf("the image file alone: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("import", "--force", tree, ip, lp); code != 0 {
		t.Errorf("import --force over both files: exit %d, %q", code, stderr)
	}
	for _, f := range []string{journal, marker} {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s left beside the new pair", f)
		}
	}
}
