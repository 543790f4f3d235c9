package store

import (
	"idxlabel/sample"
	"maps"
	"slices"
)

// Subset is the part of the dataset a view shows.
type Subset int

const (
	All     Subset = iota // every sample, deleted ones included
	Live                  // samples not deleted
	Edited                // samples whose label differs from their label when the files were opened (State.Edited)
	Added                 // samples appended since the files were opened (State.Added)
	Deleted               // samples marked deleted
)

// Filter selects samples for a view: a subset, optionally narrowed to one class. The zero
// Filter selects every sample.
type Filter struct {
	Subset Subset
	Class  *int // only samples whose current label is this class (nil: any)
}

// Select returns, in sample order, the indices of the samples f selects. It runs in O(Len()) and
// allocates only the result.
func (m *model) Select(f Filter) []int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]int, 0, len(m.labels))
	for i, l := range m.labels {
		if f.Class != nil && int(l) != *f.Class {
			continue
		}
		switch f.Subset {
		case Live:
			if m.deleted[i] {
				continue
			}
		case Edited:
			if i >= len(m.opened) || l == m.opened[i] {
				continue
			}
		case Added:
			if i < len(m.opened) {
				continue
			}
		case Deleted:
			if !m.deleted[i] {
				continue
			}
		}
		out = append(out, i)
	}
	return out
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

// Counters summarises the dataset for a status bar and the question about unsaved edits.
type Counters struct {
	Samples       int // every sample, deleted ones included
	Edited, Added int // since the files were opened (State.Edited, State.Added), saves or not
	Deleted       int // marked deleted (the next save removes them)
	// What the next save would change besides the deletions: samples of the files whose label
	// differs from the files' (Relabelled), and samples not in the files yet (Appended).
	Relabelled, Appended int
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
	base, added, baseN, n := m.pixels, m.added, m.baseN, s.Dim()
	idx := s.Index
	s.Pixels = func(k int) []byte {
		i := idx[k]
		if i < baseN {
			return base[i*n : (i+1)*n : (i+1)*n]
		}
		j := i - baseN
		return added[j*n : (j+1)*n : (j+1)*n]
	}
	return s
}
