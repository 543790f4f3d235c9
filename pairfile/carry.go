package pairfile

import (
	"fmt"
	"slices"
)

// A pair derived from another (a merge, split or subset of it, the samples a window shows saved
// as a new pair, its labels re-encoded or corrected) keeps the accepted marks of the samples it
// keeps, renumbered to their places in it (CarryAccepted), in its own accepted-marks file keyed
// by its own contents (Claim.KeepAccepted): a pseudo-label stays a pseudo-label in every pair
// made from it, and `idxlabel suggest` on the derived pair does not learn it as a typed label.
// The file is written under the writer's claim once the label file is in place, after the
// claim's removal of the marks that were beside it (Claim.Replaced): a crash in between leaves
// no marks file or the one from before, whose key does not fit the new contents, so that it is
// refused as stale (ErrStaleAccepted), never applied to the new samples.

// CarryAccepted returns the accepted marks of a derived pair: kept[k] is the source sample
// (numbered 0 to n−1) that the derived pair holds at place k, marks are the source's accepted
// samples, ascending (ReadAccepted), and the result is the places k whose source sample is
// marked, ascending. A kept or marked sample outside 0..n−1 is not marked. Memory: n bits and
// the result; time O(n/64 + len(marks) + len(kept)).
func CarryAccepted(n int, marks, kept []int) []int {
	if len(marks) == 0 || n <= 0 {
		return nil
	}
	bits := make([]uint64, (n+63)/64)
	for _, i := range marks {
		if i >= 0 && i < n {
			bits[i/64] |= 1 << (i % 64)
		}
	}
	var out []int
	for k, g := range kept {
		if g >= 0 && g < n && bits[g/64]&(1<<(g%64)) != 0 {
			out = append(out, k)
		}
	}
	return out
}

// KeepAccepted writes the accepted-marks file of the label file labels (AcceptedFile), an output
// of c that the writer has put in place and reported so (Replaced, which the claim's pair writes
// call themselves): marks are its accepted samples, ascending, key the contents written (KeyOf
// the labels written and the CRC-32C of the images they pair with). With no marks it removes the
// file. It is written as WriteAccepted writes (atomically, never through a symbolic link), so a
// crash before it leaves no marks file, never one that fits the new contents and is wrong.
// Errors: ErrNotClaimed (wrapped) when labels is not an output of c reported in place or c is
// released (nothing written), and those of WriteAccepted, naming the file.
func (c *Claim) KeepAccepted(labels string, key AcceptedKey, marks []int) error {
	if c == nil {
		return fmt.Errorf("%s: %w (no claim)", labels, ErrNotClaimed)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.released:
		return fmt.Errorf("%s: %w (the claim was released)", labels, ErrNotClaimed)
	case labels == "" || !slices.Contains(c.replaced, Abs(labels)):
		return fmt.Errorf("%s: %w (its accepted marks are written once the label file is in place)", labels, ErrNotClaimed)
	}
	return WriteAccepted(AcceptedFile(labels), key, marks)
}
