package store

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// TestUndoCrashChild is the child of TestKilledUndoLeavesTheOldPair (selected by the
// IDXLABEL_UNDO_CHILD variable, which names the moment): it relabels samples 0, 1 and 2, appends
// a sample (so both files are written) and saves; once the image file is in place, the label
// file's rename is made to fail for real (the label file moved to IDXLABEL_AWAY and a folder,
// not empty, put at its name), so the save is undone, and the child stops for good at that
// moment of the undo (pairfile.AfterUndo) until the parent kills it (SIGKILL).
func TestUndoCrashChild(t *testing.T) {
	stop := os.Getenv("IDXLABEL_UNDO_CHILD")
	if stop == "" {
		return // only meaningful as a child of TestKilledUndoLeavesTheOldPair
	}
	fail := func(err error) {
		fmt.Println("error", err)
		os.Exit(3)
	}
	lp := os.Getenv("IDXLABEL_LABELS")
	d, err := Open(os.Getenv("IDXLABEL_IMAGES"), lp, Options{})
	if err != nil {
		fail(err)
	}
	for i := range 3 {
		if err := d.Relabel([]int{i}, (d.Label(i)+1)%10); err != nil {
			fail(err)
		}
	}
	if _, err := d.Append([]Sample{{Pixels: make([]byte, 28*28), Label: 3}}); err != nil {
		fail(err)
	}
	pairfile.AfterRename = func(k int) {
		if k != 0 {
			return
		}
		if err := os.Rename(lp, os.Getenv("IDXLABEL_AWAY")); err != nil {
			fail(err)
		}
		if err := os.MkdirAll(filepath.Join(lp, "x"), 0o755); err != nil {
			fail(err)
		}
	}
	pairfile.AfterUndo = func(moment string) {
		if moment == stop {
			fmt.Println("stopped")
			select {}
		}
	}
	err = d.Save(nil)
	fail(fmt.Errorf("the save was not stopped while it was undone: %v", err))
}

// A save whose second rename fails is undone; a kill (SIGKILL) at any moment of that undo (once
// its record says so, once its rows are gone, after the image file is put back, once its
// temporary files are gone) leaves the pair, once it is opened again (twice), exactly as it was
// before the save: both files' bytes, the change log without the undone save's rows, the
// journal's edits offered again, and nothing of the save left beside the pair. (Before, a kill
// after the image file was put back had the opening finish the save forward, a new label file
// beside the old image file; one after the temporary files were gone had it append the undone
// save's rows to the change log.)
func TestKilledUndoLeavesTheOldPair(t *testing.T) {
	for _, stop := range []string{"undo", "rows", "restored", "temporaries"} {
		t.Run(stop, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			ip, lp := copyPair(t, 300, false)
			log := lp + ChangesSuffix
			// A save before, not undone: its entry is in the log.
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			was := d.Label(10)
			if err := d.Relabel([]int{10}, (was+1)%10); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(nil); err != nil {
				t.Fatal(err)
			}
			d.Close()
			want := [][3]int{{10, was, (was + 1) % 10}}
			assertLogRows(t, log, want)
			images, labels := mustRead(t, ip), mustRead(t, lp)

			away := filepath.Join(t.TempDir(), "labels-moved-away")
			cmd := exec.Command(os.Args[0], "-test.run=^TestUndoCrashChild$")
			cmd.Env = append(os.Environ(), "IDXLABEL_UNDO_CHILD="+stop, "IDXLABEL_IMAGES="+ip, "IDXLABEL_LABELS="+lp, "IDXLABEL_AWAY="+away)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, bufio.NewScanner(out), "stopped")
			cmd.Process.Kill() // SIGKILL
			cmd.Wait()
			if _, err := os.Stat(pairfile.RecordPath(ip, lp)); err != nil {
				t.Fatalf("the kill did not land during the undo: no record (%v)", err)
			}
			// The rename's failure undone: the folder goes, the label file is back at its name.
			if err := os.RemoveAll(lp); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(away, lp); err != nil {
				t.Fatal(err)
			}
			for range 2 { // opened again, then once more
				d, err = Open(ip, lp, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(mustRead(t, ip), images) || !bytes.Equal(mustRead(t, lp), labels) {
					t.Fatalf("the pair is not the one before the undone save: image file %v, label file %v", bytes.Equal(mustRead(t, ip), images), bytes.Equal(mustRead(t, lp), labels))
				}
				assertLogRows(t, log, want)
				if rec := d.Recovery(); rec == nil || rec.Edits != 4 || !rec.Matches {
					t.Fatalf("the edits of the undone save are not offered again: journal %+v", rec)
				}
				d.Close()
			}
			entries, _ := os.ReadDir(filepath.Dir(lp))
			for _, e := range entries {
				n := e.Name()
				if strings.Contains(n, ".idxlabel-saving") || strings.Contains(n, ".idxlabel-log") || strings.Contains(n, ".idxlabel-backup") || strings.Contains(n, atomicfile.TempMarker) || strings.HasSuffix(n, ".refused") {
					t.Fatalf("left beside the pair: %s", n)
				}
			}
		})
	}
}
