package store

// renumbering maps sample numbers before a save to numbers after it.
type renumbering struct {
	to      []int // for each sample before the save: its number after, -1 when it was left out
	removed int   // samples left out
}

// newRenumbering makes the renumbering of a save that keeps the samples to[i] >= 0 (renumber).
func newRenumbering(to []int) renumbering {
	r := renumbering{to: to}
	for _, k := range to {
		if k < 0 {
			r.removed++
		}
	}
	return r
}

// at returns sample i's number after the save, false when the save left it out. A number past
// the samples before the save is one a redone append will create: it moves down by the samples
// left out.
func (r renumbering) at(i int32) (int32, bool) {
	if int(i) >= len(r.to) {
		return i - int32(r.removed), true
	}
	k := r.to[i]
	return int32(k), k >= 0
}
