package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"idxlabel/pairfile"
)

// TestSaveRefusesFilesChangedOnDisk: another program changes the label file while it is open;
// Save refuses and leaves that program's file as it wrote it, Save As still works, and after a
// save of our own, Save works again.
func TestSaveRefusesFilesChangedOnDisk(t *testing.T) {
	for _, how := range []string{"rewritten in place", "rewritten, time put back", "replaced by rename", "removed"} {
		t.Run(how, func(t *testing.T) {
			ip, lp := writeTestPair(t, 10, 2, 2)
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if err := d.Relabel([]int{1}, 7); err != nil {
				t.Fatal(err)
			}
			theirs, _ := os.ReadFile(lp)
			theirs[8] = 5 // same size; the sample count stays
			fi, _ := os.Stat(lp)
			switch how {
			case "rewritten in place":
				if err := os.WriteFile(lp, theirs, 0o644); err != nil {
					t.Fatal(err)
				}
				// Same size and inode: the modification time tells. Set it a second on, so a
				// file system with a coarse clock cannot hide the rewrite in this test.
				os.Chtimes(lp, time.Now(), fi.ModTime().Add(time.Second))
			case "rewritten, time put back":
				// Same size, inode and modification time: only the content tells.
				if err := os.WriteFile(lp, theirs, 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(lp, fi.ModTime(), fi.ModTime())
			case "replaced by rename":
				tmp := filepath.Join(filepath.Dir(lp), "other.tmp")
				os.WriteFile(tmp, theirs, 0o644)
				os.Chtimes(tmp, fi.ModTime(), fi.ModTime()) // same size and time: only the identity differs
				if err := os.Rename(tmp, lp); err != nil {
					t.Fatal(err)
				}
			case "removed":
				os.Remove(lp)
				theirs = nil
			}
			err = d.Save(nil)
			if !errors.Is(err, pairfile.ErrChangedOnDisk) || !strings.Contains(err.Error(), lp) ||
				!strings.Contains(err.Error(), "changed by another program since you opened it; Save As or reload") {
				t.Fatalf("Save over a changed file: %v", err)
			}
			if got, _ := os.ReadFile(lp); !bytes.Equal(got, theirs) {
				t.Fatal("the refused save touched the file")
			}
			if !d.Dirty() || d.Label(1) != 7 {
				t.Fatal("the refused save lost the edit")
			}
			dir := t.TempDir()
			ip2, lp2 := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
			if err := saveAs(d, ip2, lp2, nil); err != nil {
				t.Fatalf("Save As after the refusal: %v", err)
			}
			// Our own save updates the stamps: a later Save is fine.
			if err := d.Relabel([]int{2}, 8); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(nil); err != nil {
				t.Fatalf("Save after our own save: %v", err)
			}
			if err := d.Relabel([]int{3}, 8); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(nil); err != nil {
				t.Fatalf("second Save after our own save: %v", err)
			}
		})
	}
}
