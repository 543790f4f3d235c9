package store

import (
	"testing"

	"idxlabel/idx"
)

// Deleting every sample and saving writes an empty pair (valid IDX, N = 0), which opens again.
func TestSaveWithEverySampleDeleted(t *testing.T) {
	ip, lp := writeTestPair(t, 5, 28, 28)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Delete([]int{0, 1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatalf("saving with every sample deleted: %v", err)
	}
	d.Close()
	for _, p := range []string{ip, lp} {
		if h, err := idx.ReadHeaderFile(p); err != nil || h.Dims[0] != 0 {
			t.Fatalf("%s: %v %v", p, h, err)
		}
	}
	d, err = Open(ip, lp, Options{})
	if err != nil || d.Len() != 0 {
		t.Fatalf("reopened: %v", err)
	}
	d.Close()
}
