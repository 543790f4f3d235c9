package store

import (
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// writeCutBetweenRenames writes images (N×H×W) and labels (N) as the pair ip, lp with
// pairfile.WritePair and stops it as a kill would after its first rename: the image file in
// place, the label file still under its temporary name, the save record left behind. It fails
// the test when the write is not cut off.
func writeCutBetweenRenames(t *testing.T, ip, lp string, images, labels *idx.Array) {
	t.Helper()
	pairfile.AfterRename = func(k int) {
		if k == 0 {
			panic("killed between the renames")
		}
	}
	defer func() { pairfile.AfterRename = nil; recover() }()
	err := pairfile.WritePair(ip, lp, images, labels)
	t.Fatalf("the write was not cut off: %v", err)
}
