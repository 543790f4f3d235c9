package store

import (
	"bytes"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// TestDisplayPixelsRoundTrip: a sample appended to a transposed dataset (given in display
// order, 3 rows × 2 cols) is stored transposed and reads back in display order; a stored
// sample of the file reads back as the transpose of its bytes.
func TestDisplayPixelsRoundTrip(t *testing.T) {
	em, _ := idx.New(idx.UByte, 1, 2, 3) // stored 2×3: displayed 3×2
	copy(em.Data, []byte{1, 2, 3, 4, 5, 6})
	lab, _ := idx.New(idx.UByte, 1)
	ds, err := FromArrays(em, lab, nil, filepath.Join(t.TempDir(), "j"+pairfile.JournalSuffix), Options{Transposed: TransposeYes})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if got, want := displayPixels(ds, 0, nil), []byte{1, 4, 2, 5, 3, 6}; !bytes.Equal(got, want) {
		t.Fatalf("sample 0 in display order: %v, want %v", got, want)
	}
	drawn := []byte{9, 8, 7, 6, 5, 4}
	if _, err := ds.Append([]Sample{{Pixels: drawn, Label: 1}}); err != nil {
		t.Fatal(err)
	}
	if got := displayPixels(ds, 1, nil); !bytes.Equal(got, drawn) {
		t.Fatalf("appended sample in display order: %v, want %v", got, drawn)
	}
	if bytes.Equal(ds.Pixels(1), drawn) {
		t.Fatal("the appended sample is not stored transposed")
	}
}
