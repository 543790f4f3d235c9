package store

import (
	"maps"
	"slices"

	"idxlabel/sample"
)

// Counters summarises the dataset for a status bar and the question about unsaved edits.
type Counters struct {
	Samples       int // every sample, deleted ones included
	Edited, Added int // since the files were opened (State.Edited, State.Added), saves or not
	Deleted       int // marked deleted (the next save removes them)
	// What the next save would change besides the deletions: samples of the files whose label
	// differs from the files' (Relabelled), and samples not in the files yet (Appended).
	Relabelled, Appended int
}

// follow brings t up to date with change c, just made to m (m.mu held for writing).
func (t *tally) follow(m *model, c Change) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.valid {
		return
	}
	switch c.Kind {
	case Relabelled, DeletedChanged:
		for _, i := range c.Indices {
			t.sub(m, i)
			t.add(m, i)
		}
	case Appended:
		t.label = append(t.label, make([]int32, len(c.Indices))...)
		t.del = append(t.del, make([]bool, len(c.Indices))...)
		for _, i := range c.Indices {
			t.add(m, i)
		}
	case Truncated:
		for _, i := range c.Indices {
			t.sub(m, i)
		}
		n := len(t.label) - len(c.Indices)
		t.label, t.del = t.label[:n], t.del[:n]
	default: // Reset: anything may have changed, the files' labels too
		t.valid = false
	}
}

// fill counts every sample of m afresh, unless t is up to date (m.mu held, for reading at
// least; t.mu held).
func (t *tally) fill(m *model) {
	if t.valid {
		return
	}
	n := len(m.labels)
	t.label = slices.Grow(t.label[:0], n)[:n]
	t.del = slices.Grow(t.del[:0], n)[:n]
	t.live, t.all = map[int32]int{}, map[int32]int{}
	t.deleted, t.edited, t.relabelled = 0, 0, 0
	for i := range n {
		t.add(m, i)
	}
	t.valid = true
}

// add counts sample i as m holds it now and remembers what it counted.
func (t *tally) add(m *model, i int) {
	l, del := m.labels[i], m.deleted[i]
	t.label[i], t.del[i] = l, del
	t.all[l]++
	if del {
		t.deleted++
	} else {
		t.live[l]++
	}
	t.edited += differs(i, l, m.opened)
	t.relabelled += differs(i, l, m.orig)
}

// sub takes back what sample i counted.
func (t *tally) sub(m *model, i int) {
	l, del := t.label[i], t.del[i]
	uncount(t.all, l)
	if del {
		t.deleted--
	} else {
		uncount(t.live, l)
	}
	t.edited -= differs(i, l, m.opened)
	t.relabelled -= differs(i, l, m.orig)
}

// differs is 1 when sample i is one of the samples of base and its label l differs from base's.
func differs(i int, l int32, base []int32) int {
	if i < len(base) && l != base[i] {
		return 1
	}
	return 0
}

// uncount takes one from m[l], leaving no zero counts in m.
func uncount(m map[int32]int, l int32) {
	if m[l]--; m[l] == 0 {
		delete(m, l)
	}
}

// counters returns m's Counters (m.mu held for reading).
func (t *tally) counters(m *model) Counters {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fill(m)
	n := len(m.labels)
	return Counters{Samples: n, Added: n - len(m.opened), Appended: n - m.baseN,
		Deleted: t.deleted, Edited: t.edited, Relabelled: t.relabelled}
}

// liveCounts returns the number of samples not deleted of each label (m.mu held for reading).
func (t *tally) liveCounts(m *model) map[int32]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fill(m)
	return maps.Clone(t.live)
}

// present returns the distinct labels of the samples, deleted ones included, sorted, sample.NoLabel
// left out (m.mu held for reading).
func (t *tally) present(m *model) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fill(m)
	out := make([]int, 0, len(t.all))
	for l := range t.all {
		if l != sample.NoLabel {
			out = append(out, int(l))
		}
	}
	slices.Sort(out)
	return out
}
