package sample

import (
	"bytes"
	"slices"
	"testing"
)

// TestUpright: a 2×3 sample (as shown) stored transposed (3×2, as EMNIST stores it) comes back
// upright; an untransposed one comes back as stored, without a copy; AppendStored undoes it.
func TestUpright(t *testing.T) {
	shown := []byte{1, 2, 3, 4, 5, 6}  // rows {1 2 3}, {4 5 6}
	stored := []byte{1, 4, 2, 5, 3, 6} // its transpose: rows {1 4}, {2 5}, {3 6}
	if got := Upright(stored, 2, 3, true, nil); !bytes.Equal(got, shown) {
		t.Fatalf("transposed: got %v, want %v", got, shown)
	}
	buf := make([]byte, 0, 6)
	if got := Upright(stored, 2, 3, true, buf); &got[0] != &buf[:1][0] {
		t.Fatal("transposed: buf was not reused")
	}
	if got := Upright(shown, 2, 3, false, nil); &got[0] != &shown[0] || len(got) != 6 {
		t.Fatal("not transposed: not the stored pixels themselves")
	}
	if got := AppendStored([]byte{9}, shown, 2, 3, true); !bytes.Equal(got, append([]byte{9}, stored...)) {
		t.Fatalf("AppendStored transposed: %v, want 9 then %v", got, stored)
	}
	if got := AppendStored(nil, shown, 2, 3, false); !bytes.Equal(got, shown) {
		t.Fatalf("AppendStored: %v, want %v", got, shown)
	}
}

// TestSetShownAndSubset: a transposed Set of stored 3×2 samples is shown 2×3, upright; a
// Subset keeps the chosen samples in order, numbered by their dataset numbers.
func TestSetShownAndSubset(t *testing.T) {
	px := [][]byte{{1, 4, 2, 5, 3, 6}, {6, 3, 5, 2, 4, 1}, {0, 0, 0, 0, 0, 7}}
	s := Set{N: 3, H: 3, W: 2, Transposed: true, Pixels: func(k int) []byte { return px[k] },
		Labels: []int{4, NoLabel, 9}, Index: []int{10, 11, 15}}
	if h, w := s.ShownSize(); h != 2 || w != 3 || s.Dim() != 6 {
		t.Fatalf("shown %d×%d, Dim %d; want 2×3, 6", h, w, s.Dim())
	}
	if got := s.Shown(0, nil); !bytes.Equal(got, []byte{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("Shown(0) = %v", got)
	}
	sub := s.Subset([]int{2, 0})
	if sub.N != 2 || !slices.Equal(sub.Labels, []int{9, 4}) || !slices.Equal(sub.Index, []int{15, 10}) ||
		!bytes.Equal(sub.Pixels(1), px[0]) || sub.Number(0) != 15 {
		t.Fatalf("Subset: N %d, labels %v, index %v", sub.N, sub.Labels, sub.Index)
	}
	if !s.Labelled() || (Set{Labels: []int{NoLabel}}).Labelled() {
		t.Fatal("Labelled")
	}
	if (Set{N: 2}).Number(1) != 1 {
		t.Fatal("Number without Index")
	}
}
