package pairfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// A write of a new pair whose second rename fails (another program made the label file
// meanwhile) is undone, and the undo removes the image file it created only while it is still
// the file it put there: one another program put at that name after the rename stays, and so
// does the label file the other program made. Nothing of the write is left. (Before, the undo
// removed whatever was at the image file's name.)
func TestUndoRemovesOnlyWhatTheSaveCreated(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "n-images-idx3-ubyte"), filepath.Join(dir, "n-labels-idx1-ubyte")
	images, _ := idx.New(idx.UByte, 3, 2, 2)
	labels, _ := idx.New(idx.UByte, 3)
	AfterRename = func(k int) {
		if k != 0 {
			return
		}
		theirs := filepath.Join(dir, "theirs")
		os.WriteFile(theirs, []byte("another program's image file"), 0o644)
		if err := os.Rename(theirs, ip); err != nil {
			t.Error(err)
		}
		os.WriteFile(lp, []byte("another program's label file"), 0o644)
	}
	defer func() { AfterRename = nil }()
	err := Write(context.Background(), []File{{Path: ip, Data: images, Create: true}, {Path: lp, Data: labels, Create: true}}, RecordPath(ip, lp), nil, nil, nil)
	if err == nil {
		t.Fatal("the write over a label file made meanwhile succeeded")
	}
	if b, _ := os.ReadFile(ip); string(b) != "another program's image file" {
		t.Fatalf("the image file another program put there after the rename: %q", b)
	}
	if b, _ := os.ReadFile(lp); string(b) != "another program's label file" {
		t.Fatalf("the label file another program made: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), StateMarker) {
			t.Fatalf("left beside the pair: %s", e.Name())
		}
	}
}

// An undo cut off (as a kill would, once its record says so) is finished by the next opening,
// which puts back only a file that is still the one the save put in place: an image file
// another program wrote in between is left as it is, and the notice says so; the label file,
// which the save never replaced, is as it was; the record, backups and temporary files go.
func TestFinishedUndoLeavesAFileWrittenSince(t *testing.T) {
	ip, lp := writeTestPair(t, 4, 2, 2)
	oldLabels, _ := os.ReadFile(lp)
	away := filepath.Join(t.TempDir(), "labels")
	images, _ := idx.New(idx.UByte, 4, 2, 2)
	labels, _ := idx.New(idx.UByte, 4)
	for i := range labels.Data {
		labels.Data[i] = 7
	}
	AfterRename = func(k int) {
		if k == 0 { // the label file's rename is to fail: a folder, not empty, at its name
			os.Rename(lp, away)
			os.MkdirAll(filepath.Join(lp, "x"), 0o755)
		}
	}
	AfterUndo = func(moment string) {
		if moment == "undo" {
			panic("killed once the record says undo")
		}
	}
	func() {
		defer func() { AfterRename, AfterUndo = nil, nil; recover() }()
		WritePair(ip, lp, images, labels)
		t.Fatal("the undo was not cut off")
	}()
	os.RemoveAll(lp)
	os.Rename(away, lp)
	os.WriteFile(ip+".theirs", []byte("another program's image file"), 0o644)
	os.Rename(ip+".theirs", ip)
	// Read-only meanwhile, the pair is shown as it was before the save: the image file's backup.
	if ri, rl, n := ReadView(ip, lp); ri != backupPath(ip) || rl != lp || !strings.Contains(n, "being undone") {
		t.Fatalf("ReadView: %q %q %q", ri, rl, n)
	}
	if files, placed := SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("SaveProgress of an undo: %d of %d placed", placed, files)
	}
	l, err := openPair(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	notice, err := FinishInterrupted(ip, lp)
	if err != nil || !strings.Contains(notice, "undo has been finished") || !strings.Contains(notice, "changed by another program") {
		t.Fatalf("notice %q, %v", notice, err)
	}
	if b, _ := os.ReadFile(ip); string(b) != "another program's image file" {
		t.Fatalf("the image file another program wrote: %q", b)
	}
	if b, _ := os.ReadFile(lp); string(b) != string(oldLabels) {
		t.Fatal("the label file changed")
	}
	entries, _ := os.ReadDir(filepath.Dir(lp))
	for _, e := range entries {
		if n := e.Name(); strings.Contains(n, "-saving") || strings.Contains(n, "-backup") || strings.Contains(n, "-tmp-") || strings.Contains(n, "idxlabel-log") {
			t.Fatalf("left beside the pair: %s", n)
		}
	}
}
