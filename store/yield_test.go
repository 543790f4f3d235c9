package store

import (
	"bytes"
	"testing"
)

// equalYielding answers as bytes.Equal does, whichever chunk a difference is in.
func TestEqualYielding(t *testing.T) {
	a := make([]byte, 3*yieldBytes+17) // three whole chunks and a part
	for i := range a {
		a[i] = byte(i * 7)
	}
	for _, at := range []int{0, yieldBytes - 1, yieldBytes, 2*yieldBytes + 5, len(a) - 1} {
		b := bytes.Clone(a)
		b[at]++
		if equalYielding(a, b) {
			t.Errorf("a difference at byte %d was not seen", at)
		}
	}
	if !equalYielding(a, bytes.Clone(a)) {
		t.Error("equal arrays compared unequal")
	}
	if equalYielding(a, a[:len(a)-1]) || equalYielding(a[:yieldBytes], a) {
		t.Error("arrays of different lengths compared equal")
	}
	if !equalYielding(nil, []byte{}) {
		t.Error("two empty arrays compared unequal")
	}
}
