package store

// ChangeKind says what an edit changed.
type ChangeKind int

const (
	Relabelled     ChangeKind = iota // the labels of Indices changed
	Appended                         // Indices were appended at the end
	Truncated                        // Indices were removed from the end (an append undone)
	DeletedChanged                   // Indices were deleted or restored
	Reset                            // anything may have changed: samples renumbered (save), journal replayed
)

// Change is one notification: what changed, which samples, and the dataset's generation just
// after the change (see Dataset.Gen): a view that has applied this change reflects that
// generation.
type Change struct {
	Kind    ChangeKind
	Indices []int // the samples concerned; nil for Reset
	Gen     uint64
	// Renumber, for the Reset of a save, maps each sample's number before the save to its number
	// after it (-1: deleted, left out); nil for other changes.
	Renumber []int
}
