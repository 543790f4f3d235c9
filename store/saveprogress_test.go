package store

import (
	"os"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// A save of a pair stopped after its first rename (the images in place, the labels waiting under
// their temporary name): SaveProgress says 1 of 2 placed, ReadView shows the waiting labels, and
// once Open has finished the save there is nothing left to say. A damaged record says nothing.
func TestSaveProgressOfACutSave(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	if files, placed := pairfile.SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("no save yet: %d files, %d placed", files, placed)
	}
	images, _ := idx.New(idx.UByte, 4, 2, 2)
	labels, _ := idx.New(idx.UByte, 4)
	labels.Data[3] = 9
	writeCutBetweenRenames(t, ip, lp, images, labels)
	if files, placed := pairfile.SaveProgress(ip, lp); files != 2 || placed != 1 {
		t.Fatalf("cut after the first rename: %d files, %d placed; want 2, 1", files, placed)
	}
	ri, rl, note := pairfile.ReadView(ip, lp)
	if ri != ip || rl == lp || note == "" {
		t.Fatalf("ReadView: %q %q %q", ri, rl, note)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 4 || d.Label(3) != 9 {
		t.Fatalf("after Open finished the save: %d samples", d.Len())
	}
	d.Close()
	if files, placed := pairfile.SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("after Open: %d files, %d placed", files, placed)
	}
	if err := os.WriteFile(lp+pairfile.ManifestSuffix, []byte("{damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, placed := pairfile.SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("a damaged record: %d files, %d placed", files, placed)
	}
}

// A file written by another program after a save was cut off between its renames is not replaced
// by the older file the save left waiting: Open leaves it, says so, and sets the record aside.
// Before, Open renamed the save's temporary file over it (another program's file lost). And no
// writer replaces a file of a pair whose save is pending (pairfile.ClaimOutputs).
func TestCutSaveNeverReplacesALaterFile(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	images, _ := idx.New(idx.UByte, 4, 2, 2)
	labels, _ := idx.New(idx.UByte, 4)
	writeCutBetweenRenames(t, ip, lp, images, labels)
	if _, err := lockForWrite(lp); err == nil {
		t.Fatal("a writer may replace a file of a pair whose save is pending")
	}
	if _, err := lockForWrite(ip); err == nil {
		t.Fatal("a writer may replace the image file of a pair whose save is pending")
	}
	theirs, _ := idx.New(idx.UByte, 4)
	theirs.Data[0] = 7
	tmp := lp + ".theirs"
	if err := idx.WriteFile(tmp, theirs); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, lp); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(lp)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got, _ := os.ReadFile(lp); string(got) != string(want) {
		t.Fatal("Open put the cut save's older file over the file written since")
	}
	if d.Label(0) != 7 || len(d.Notices()) == 0 || pairfile.SavePending(lp) {
		t.Fatalf("label %d, notices %q, record still pending %v", d.Label(0), d.Notices(), pairfile.SavePending(lp))
	}
}
