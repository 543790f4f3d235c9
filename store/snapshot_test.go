package store

import (
	"bytes"
	"path/filepath"
	"testing"

	"idxlabel/idx"
)

// Snapshot holds the dataset as it is now: edits included, deleted samples left out, each
// numbered by its sample number, pixels as stored, the class names the dataset has.
func TestSnapshotHasEditsNotDeleted(t *testing.T) {
	images, _ := idx.New(idx.UByte, 4, 2, 3)
	for i := range images.Data {
		images.Data[i] = byte(i)
	}
	labels, _ := idx.New(idx.UByte, 4)
	copy(labels.Data, []byte{0, 1, 2, 3})
	ds, err := FromArrays(images, labels, nil, filepath.Join(t.TempDir(), "j"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Relabel([]int{2}, 7); err != nil {
		t.Fatal(err)
	}
	if err := ds.Delete([]int{1}); err != nil {
		t.Fatal(err)
	}
	s := ds.Snapshot()
	if s.N != 3 || s.H != 2 || s.W != 3 || s.Labels[1] != 7 || s.Index[1] != 2 || !bytes.Equal(s.Pixels(2), images.Data[18:24]) || s.ClassName == nil || s.Transposed {
		t.Fatalf("%d samples, labels %v, index %v", s.N, s.Labels, s.Index)
	}
}
