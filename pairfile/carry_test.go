package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"idxlabel/idx"
)

// CarryAccepted renumbers the marks of the samples kept to their places, whatever the order
// kept, and leaves out the samples not kept and anything outside the source's samples.
func TestCarryAccepted(t *testing.T) {
	for _, tc := range []struct {
		n           int
		marks, kept []int
		want        []int
	}{
		{10, []int{1, 3, 9}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{1, 3, 9}},
		{10, []int{1, 3, 9}, []int{9, 8, 3, 2}, []int{0, 2}},
		{10, []int{1, 3, 9}, []int{0, 2, 4}, nil},
		{10, nil, []int{1, 3}, nil},
		{200, []int{64, 127, 199}, []int{199, 5, 64, 127, -1, 500}, []int{0, 2, 3}},
		{3, []int{-1, 2, 7}, []int{2, 1, 0}, []int{0}},
	} {
		if got := CarryAccepted(tc.n, tc.marks, tc.kept); !slices.Equal(got, tc.want) {
			t.Errorf("CarryAccepted(%d, %v, %v) = %v, want %v", tc.n, tc.marks, tc.kept, got, tc.want)
		}
	}
}

// KeepAccepted writes a derived pair's marks only for a label file of the claim reported in
// place (after Replaced, which the pair writes call), never before nor after Release; the file
// reads back with the pair's key, and ReadAcceptedOf reads it for the same labels without the
// images (a stale file still refused).
func TestKeepAcceptedOnlyOnceInPlace(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "d-images-idx3-ubyte"), filepath.Join(dir, "d-labels-idx1-ubyte")
	images, _ := idx.New(idx.UByte, 6, 2, 2)
	labels, _ := idx.New(idx.UByte, 6)
	for i := range 6 {
		labels.Data[i] = byte(i)
		images.Data[4*i] = byte(i)
	}
	key := KeyOf(labels, ImagesCRC(images.Data))
	c, err := ClaimOutputs(nil, []string{ip, lp}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.KeepAccepted(lp, key, []int{1, 4}); !errors.Is(err, ErrNotClaimed) {
		t.Fatalf("marks kept before the label file is in place: %v", err)
	}
	if _, err := os.Lstat(AcceptedFile(lp)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a marks file before the labels: %v", err)
	}
	if err := c.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	if err := c.KeepAccepted(ip+"x", key, []int{1}); !errors.Is(err, ErrNotClaimed) {
		t.Fatalf("marks kept beside a file the claim does not hold: %v", err)
	}
	if err := c.KeepAccepted(lp, key, []int{1, 4}); err != nil {
		t.Fatal(err)
	}
	c.Release()
	if err := c.KeepAccepted(lp, key, nil); !errors.Is(err, ErrNotClaimed) {
		t.Fatalf("marks kept after Release: %v", err)
	}
	if got, err := ReadAccepted(AcceptedFile(lp), key); err != nil || !slices.Equal(got, []int{1, 4}) {
		t.Fatalf("read back %v, %v", got, err)
	}
	k, got, err := ReadAcceptedOf(AcceptedFile(lp), labels)
	if err != nil || k != key || !slices.Equal(got, []int{1, 4}) {
		t.Fatalf("ReadAcceptedOf: %v, %v, %v", k == key, got, err)
	}
	labels.Data[0] = 9
	if _, got, err := ReadAcceptedOf(AcceptedFile(lp), labels); !errors.Is(err, ErrStaleAccepted) || got != nil {
		t.Fatalf("ReadAcceptedOf other labels: %v, %v", got, err)
	}
}
