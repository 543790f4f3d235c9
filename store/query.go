package store

import (
	"maps"
	"slices"

	"idxlabel/sample"
)

// State describes one sample for display and filtering. Edited, Added and Original compare with
// the files as they were opened: a save keeps them (see model.opened), until the pair is
// closed.
type State struct {
	Label, Original int  // current label and its label when the files were opened (sample.NoLabel when none)
	Edited          bool // a sample of the files as opened whose label differs from its label then
	Added           bool // appended since the files were opened (saved or not)
	Deleted         bool // marked deleted; removed by the next save
	Unsaved         bool // not in the files as they are now (read or last saved), or with another label there
	Reviewed        bool // a person decided its label in a review (Decide), in this session or one whose save kept the marks (accepted.go)
	// Accepted: its label is an accepted suggestion (a pseudo-label), not one a person gave:
	// the last step that set it was made as HowSuggestedAccepted, in this session or one whose
	// save kept its marks (accepted.go).
	Accepted bool
}

// State returns sample i's state. It panics if i is not in 0…Len()-1.
func (m *model) State(i int) State {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.mustExist(i, "State")
	return m.stateLocked(i)
}

// StateAt is State for readers that may race with an edit: ok is false when sample i does not
// exist now.
func (m *model) StateAt(i int) (s State, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if i < 0 || i >= len(m.labels) {
		return State{}, false
	}
	return m.stateLocked(i), true
}

func (m *model) stateLocked(i int) State {
	s := State{Label: int(m.labels[i]), Original: sample.NoLabel, Deleted: m.deleted[i], Added: i >= len(m.opened), Reviewed: m.reviewed[i], Accepted: m.accepted[i]}
	s.Unsaved = i >= m.baseN || m.labels[i] != m.orig[i]
	if !s.Added {
		s.Original = int(m.opened[i])
		s.Edited = s.Label != s.Original
	}
	return s
}

// ClassCount is the number of samples of one class.
type ClassCount struct {
	Class int    // the label value (sample.NoLabel for unlabelled samples)
	Name  string // its name from the class-name file, or ""
	Count int    // samples with this label, deleted ones left out
}

// Counts returns the number of samples per class, deleted ones left out, for every class in
// Classes (zero counts included) plus sample.NoLabel when unlabelled samples exist, in class order. It
// costs O(classes), whatever the number of samples (see tally).
func (m *model) Counts() []ClassCount {
	m.mu.RLock()
	defer m.mu.RUnlock()
	counts := m.tally.liveCounts(m)
	classes := m.classesLocked()
	out := make([]ClassCount, 0, len(classes)+1)
	if n := counts[sample.NoLabel]; n > 0 {
		out = append(out, ClassCount{Class: sample.NoLabel, Count: n})
	}
	for _, c := range classes {
		out = append(out, ClassCount{Class: c, Name: m.names[c], Count: counts[int32(c)]})
	}
	return out
}

// Classes returns the sorted class values: every label present in the dataset (deleted samples
// included), every class present when the files were read (or given to New), and every class
// the class-name file names.
func (m *model) Classes() []int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.classesLocked()
}

func (m *model) classesLocked() []int {
	set := map[int]bool{}
	for _, c := range m.declared {
		set[c] = true
	}
	for c := range m.names {
		set[c] = true
	}
	for _, c := range m.tally.present(m) {
		set[c] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// ClassName returns the name of class c from the class-name file (EMNIST mapping, classes.txt)
// or the names given to New, or "" when it has none.
func (m *model) ClassName(c int) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.names[c]
}

// Counters counts the samples; see the fields. It costs the same whatever the number of samples
// (see tally).
func (m *model) Counters() Counters {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.tally.counters(m)
}

// Snapshot returns the live (not deleted) samples at this moment as a sample.Set, for work that
// runs off the UI thread (scans, exports, reports): the k-th is sample Index[k], with Labels[k]
// (sample.NoLabel when none) and Pixels(k), H×W bytes as stored (Transposed for EMNIST's
// storage), and the class names as they are now. Pixels reads buffers that never change, so it
// is safe from any goroutine while editing goes on.
func (m *model) Snapshot() sample.Set {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := sample.Set{H: m.h, W: m.w, Transposed: m.transposed, ClassName: m.ClassName}
	for i, del := range m.deleted {
		if !del {
			s.Index = append(s.Index, i)
			s.Labels = append(s.Labels, int(m.labels[i]))
		}
	}
	s.N = len(s.Index)
	base, added, baseN, n := m.baseView(), m.added, m.baseN, s.Dim()
	idx := s.Index
	s.Pixels = func(k int) []byte {
		i := idx[k]
		if i < baseN {
			return base(i)
		}
		j := i - baseN
		return added[j*n : (j+1)*n : (j+1)*n]
	}
	return s
}
