package store

import (
	"os"
	"testing"

	"idxlabel/idx"
)

// A save of a pair stopped after its first rename (the images in place, the labels waiting under
// their temporary name): SaveProgress says 1 of 2 placed, ReadView shows the waiting labels, and
// once Open has finished the save there is nothing left to say. A damaged record says nothing.
func TestSaveProgressOfACutSave(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	if files, placed := SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("no save yet: %d files, %d placed", files, placed)
	}
	images, _ := idx.New(idx.UByte, 4, 2, 2)
	labels, _ := idx.New(idx.UByte, 4)
	labels.Data[3] = 9
	afterCommit = func(k int) {
		if k == 0 {
			panic("killed between the renames")
		}
	}
	func() {
		defer func() { afterCommit = nil; recover() }()
		WritePair(ip, lp, images, labels)
		t.Fatal("the save was not cut off")
	}()
	if files, placed := SaveProgress(ip, lp); files != 2 || placed != 1 {
		t.Fatalf("cut after the first rename: %d files, %d placed; want 2, 1", files, placed)
	}
	ri, rl, note := ReadView(ip, lp)
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
	if files, placed := SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("after Open: %d files, %d placed", files, placed)
	}
	if err := os.WriteFile(lp+ManifestSuffix, []byte("{damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, placed := SaveProgress(ip, lp); files != 0 || placed != 0 {
		t.Fatalf("a damaged record: %d files, %d placed", files, placed)
	}
}
