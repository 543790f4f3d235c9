package pairfile

import (
	"os"
	"path/filepath"
	"testing"

	"idxlabel/internal/atomicfile"
)

// leftovers plants, beside the accepted-marks file of the pair whose label file is lp, what a
// writer killed between the label file and its marks file leaves (the marks' temporary file), and
// what must stay: a temporary file a live writer holds (flocked), a name that only looks like
// one, a symbolic link of the temporary files' pattern to a file elsewhere, and, behind a
// symbolic link planted at the marks file's own path, a temporary file of the file it names. It
// returns the stale file and those that must stay.
func leftovers(t *testing.T, lp string) (stale string, stay []string) {
	t.Helper()
	marks := AcceptedFile(lp)
	prefix := atomicfile.TempPrefix(marks)
	stale = prefix + "4242"
	held := prefix + "77"
	write := func(p string) {
		t.Helper()
		if err := os.WriteFile(p, []byte("idxlabel accepted-marks 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(stale)
	write(held)
	f, err := atomicfile.Hold(held)
	if err != nil || f == nil {
		t.Fatalf("cannot hold a temporary file as a live writer does: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	lookalike := prefix + "12x"
	write(lookalike)
	elsewhere := t.TempDir()
	outside := filepath.Join(elsewhere, "someones-file")
	write(outside)
	link := prefix + "99"
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	// The marks file's own path a link to a file in another folder: its temporary files there are
	// that file's, not the pair's.
	other := filepath.Join(elsewhere, "other-marks")
	write(other)
	if err := os.Symlink(other, marks); err != nil {
		t.Fatal(err)
	}
	behind := atomicfile.TempPrefix(other) + "5"
	write(behind)
	return stale, []string{held, lookalike, link, outside, other, behind, marks}
}

// checkSwept fails the test unless stale is gone and every file of stay is still there.
func checkSwept(t *testing.T, when, stale string, stay []string) {
	t.Helper()
	if _, err := os.Lstat(stale); err == nil {
		t.Errorf("%s: the killed writer's temporary file %s is still there", when, stale)
	}
	for _, p := range stay {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %s was removed (%v)", when, p, err)
		}
	}
}

// A writer killed between a pair's label file and its accepted-marks file leaves the marks'
// temporary file beside the label file. Opening the pair for editing removes it, and so does
// the next write of the label file (a writer's claim: Claim.Replaced), but never a temporary file
// a live writer holds, a look-alike, nor anything reached through a symbolic link.
func TestKilledMarksWriteIsSwept(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 6, 2, 2)
	stale, stay := leftovers(t, lp)
	locks, err := openPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FinishInterrupted(ip, lp); err != nil {
		t.Fatal(err)
	}
	locks.Release()
	checkSwept(t, "opened for editing", stale, stay)

	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	claim, err := ClaimOutputs(nil, []string{lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	claim.Replaced(lp)
	claim.Release()
	// The link at the marks file's path goes (removed, not followed: the file it names stays).
	checkSwept(t, "the label file written again", stale, stay[:len(stay)-1])
}

// The class-name and sources files beside a pair are written as its marks are, so a writer
// killed before their rename leaves their temporary files too: opening the pair for editing
// removes them, and so does the next write of each (WriteClassNames, WriteSources); a
// temporary file a live writer holds stays.
func TestKilledSideFileWritesAreSwept(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 3, 2, 2)
	plant := func() (stale []string, held string) {
		t.Helper()
		for _, side := range []string{lp + ClassNamesSuffix, SourcesFile(ip, lp)} {
			p := atomicfile.TempPrefix(side) + "8"
			if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
				t.Fatal(err)
			}
			stale = append(stale, p)
		}
		held = atomicfile.TempPrefix(lp+ClassNamesSuffix) + "9"
		os.WriteFile(held, nil, 0o644)
		return stale, held
	}
	stale, held := plant()
	f, err := atomicfile.Hold(held)
	if err != nil || f == nil {
		t.Fatalf("cannot hold a temporary file as a live writer does: %v", err)
	}
	defer f.Close()
	locks, err := openPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FinishInterrupted(ip, lp); err != nil {
		t.Fatal(err)
	}
	checkSwept(t, "opened for editing", stale[0], []string{held})
	checkSwept(t, "opened for editing", stale[1], []string{held})

	stale, _ = plant()
	if err := WriteClassNames(lp+ClassNamesSuffix, map[int]string{0: "zero"}); err != nil {
		t.Fatal(err)
	}
	if err := WriteSources(SourcesFile(ip, lp), []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	locks.Release()
	checkSwept(t, "written again", stale[0], []string{held})
	checkSwept(t, "written again", stale[1], []string{held})
}

// A save killed before its renames leaves the pair's own temporary files (as big as the files:
// a ~10 MB image file for MNIST's training set, more uncompressed) beside them, just written.
// Opening the pair for editing, its locks held, removes them then, not only once they are an hour
// old: no writer of the pair's files in another process can be under way (each holds the pair's
// lock) and a live one flocks its temporary file, which stays.
func TestKilledSaveTempsSweptOnOpen(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 4, 2, 2)
	var stale []string
	for _, p := range []string{ip, lp} {
		s := atomicfile.TempPrefix(p) + "31"
		if err := os.WriteFile(s, []byte("half a save"), 0o644); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, s)
	}
	held := atomicfile.TempPrefix(ip) + "32"
	if err := os.WriteFile(held, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := atomicfile.Hold(held)
	if err != nil || f == nil {
		t.Fatalf("cannot hold a temporary file as a live writer does: %v", err)
	}
	defer f.Close()
	locks, err := openPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	defer locks.Release()
	if _, err := FinishInterrupted(ip, lp); err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		checkSwept(t, "opened for editing after a killed save", s, []string{held, ip, lp})
	}
}
