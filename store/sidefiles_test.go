package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// The files a session reads and writes beside a pair are never opened through a symbolic link
// planted in their place: a class-name file and a sources file are not read through one (a notice
// names it; the pair opens without them) and not written through one by a save (a note names it;
// the pair is saved), and a save record is not written through one (the save refuses). The files
// the links name are left as they were. (The journal, the lock and the change log have tests of
// their own: TestJournalSymlinkNotFollowed, TestPlantedLockFileIsNeverFollowed,
// TestChangesFileRefusesWhatIsNotItsOwn.)
func TestSideFilesNeverFollowLinks(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside.txt")
	plant := func(t *testing.T, link string) {
		t.Helper()
		if err := os.WriteFile(outside, []byte("zero\none\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	untouched := func(t *testing.T, link string) {
		t.Helper()
		if b, _ := os.ReadFile(outside); string(b) != "zero\none\n" {
			t.Fatalf("the file the link names was written: %q", b)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced or removed: %v", err)
		}
	}
	for _, side := range []string{pairfile.ClassNamesSuffix, pairfile.SourcesSuffix} {
		t.Run(side, func(t *testing.T) {
			ip, lp := tinyPair(t, t.TempDir(), 2)
			link := lp + side
			plant(t, link)
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			notes := strings.Join(d.Notices(), "\n")
			if !strings.Contains(notes, link) || !strings.Contains(notes, "symbolic link") || d.ClassName(0) != "" || d.Source(1) != "" {
				t.Fatalf("notices %q, class 0 %q, source 1 %q", notes, d.ClassName(0), d.Source(1))
			}
			mustDo(t, d.SetClassNames(map[int]string{0: "nought"}))
			if _, err := d.Append([]Sample{{Pixels: px16(3), Label: 1, Source: "a.png"}}); err != nil {
				t.Fatal(err)
			}
			mustDo(t, d.Save(nil))
			if notes := strings.Join(d.LastSave().Notes, "\n"); !strings.Contains(notes, filepath.Base(lp)) || !strings.Contains(notes, "symbolic link") {
				t.Fatalf("the save's notes %q", notes)
			}
			untouched(t, link)
		})
	}
	t.Run("save record", func(t *testing.T) {
		ip, lp := tinyPair(t, t.TempDir(), 2)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		link := lp + pairfile.ManifestSuffix
		plant(t, link)
		mustDo(t, d.Delete([]int{0}))
		if err := d.Save(nil); err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("a save with its record's name a link: %v", err)
		}
		untouched(t, link)
		if d.Len() != 2 || !d.Dirty() {
			t.Fatalf("the refused save changed the dataset: %d samples", d.Len())
		}
	})
}
