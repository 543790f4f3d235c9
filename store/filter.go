package store

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
