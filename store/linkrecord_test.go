package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// linksTo makes, in a new folder, symbolic links "mine-<name>" to the image file ip and the
// label file lp (so that each finds the other as their files do) and returns them.
func linksTo(t *testing.T, ip, lp string) (li, ll string) {
	t.Helper()
	links := t.TempDir()
	li, ll = filepath.Join(links, "mine-"+filepath.Base(ip)), filepath.Join(links, "mine-"+filepath.Base(lp))
	for real, link := range map[string]string{ip: li, lp: ll} {
		if err := os.Symlink(real, link); err != nil {
			t.Skipf("this system cannot make symbolic links: %v", err)
		}
	}
	return li, ll
}

// A save cut off between its renames is seen by whoever comes to the pair by the other names,
// whether the save was made through symbolic links (mine-images → the image file, mine-labels →
// the label file, in another folder) and the pair is then reached by the files' own names, or
// the other way round: its record is beside the label file the links name (pairfile.RecordPath),
// where the pair's lock and journal are. So a --force writer of either file is refused
// (pairfile.ErrSavePending), SaveProgress and a read-only view (ReadView) see the save, and
// opening the pair for editing finishes it and removes the record.
func TestCutSaveSeenByTheOtherNames(t *testing.T) {
	for _, through := range []string{"the links", "the files' own names"} {
		t.Run("saved through "+through, func(t *testing.T) {
			ip, lp := writeTestPair(t, 10, 2, 2)
			li, ll := linksTo(t, ip, lp)
			saveI, saveL, seeI, seeL := li, ll, ip, lp
			if through != "the links" {
				saveI, saveL, seeI, seeL = ip, lp, li, ll
			}
			images, _ := idx.New(idx.UByte, 4, 2, 2)
			labels, _ := idx.New(idx.UByte, 4)
			labels.Data[3] = 9
			writeCutBetweenRenames(t, saveI, saveL, images, labels)
			for _, out := range []string{seeL, seeI} {
				c, err := pairfile.ClaimOutputs(nil, []string{out}, true, nil)
				if !errors.Is(err, pairfile.ErrSavePending) {
					t.Errorf("a --force writer of %s while the save is cut off: %v, want ErrSavePending", filepath.Base(out), err)
				}
				if err == nil {
					c.Release()
				}
			}
			if files, placed := pairfile.SaveProgress(seeI, seeL); files != 2 || placed != 1 {
				t.Errorf("SaveProgress: %d files, %d placed; want 2, 1", files, placed)
			}
			if _, rl, note := pairfile.ReadView(seeI, seeL); rl == seeL || note == "" {
				t.Errorf("ReadView reads %s (%q), not the save's waiting label file", rl, note)
			}
			d, err := Open(seeI, seeL, Options{})
			if err != nil {
				t.Fatalf("opening the pair: %v", err)
			}
			defer d.Close()
			if d.Len() != 4 || d.Label(3) != 9 || len(d.Notices()) == 0 {
				t.Fatalf("opening the pair did not finish the save: %d samples, label 3 is %d, notices %q", d.Len(), d.Label(3), d.Notices())
			}
			for _, p := range []string{lp + pairfile.ManifestSuffix, ll + pairfile.ManifestSuffix} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("the save record %s is still there", p)
				}
			}
		})
	}
}

// A window saving a pair it opened through symbolic links (both files changed: nextVersion),
// killed (SIGKILL) between the two renames: a --force writer of the label file the link names is refused, and opening the files
// by their own names finishes the save (the labels as saved, the record gone).
func TestCrashBetweenRenamesThroughLinks(t *testing.T) {
	ip, lp := copyPair(t, 300, true)
	li, ll := linksTo(t, ip, lp)
	orig, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	cmd, sc := child(t, "save-stop", li, ll)
	waitFor(t, sc, "between")
	cmd.Process.Kill()
	cmd.Wait()
	if waiting, _ := filepath.Glob(filepath.Join(filepath.Dir(lp), "."+filepath.Base(lp)+".idxlabel-tmp-*")); len(waiting) != 1 {
		t.Fatalf("the kill did not land between the renames: the label file's temporary files %q", waiting)
	}
	if !pairfile.SavePending(lp) {
		t.Fatalf("the label file %s does not know that its save through a link was cut off", lp)
	}
	if c, err := pairfile.ClaimOutputs(nil, []string{lp}, true, nil); !errors.Is(err, pairfile.ErrSavePending) {
		if err == nil {
			c.Release()
		}
		t.Fatalf("a --force writer of the label file: %v, want ErrSavePending", err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	v := (int(orig.Data[0]) + 1) % 10
	want := 299 // nextVersion: an even version deletes the last sample, an odd one appends one
	if v%2 == 1 {
		want = 301
	}
	if d.Len() != want || d.Label(0) != v || d.Label(1) != int(orig.Data[1]) || len(d.Notices()) == 0 {
		t.Fatalf("opened by the files' own names: %d samples (want %d), labels %d %d (want %d), notices %q", d.Len(), want, d.Label(0), d.Label(1), v, d.Notices())
	}
	if pairfile.SavePending(lp) || pairfile.SavePending(ll) {
		t.Fatal("the save record is still there")
	}
}
