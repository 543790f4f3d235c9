package store

// The undo history outlives a save, as in any editor. A save drops the deleted samples and
// renumbers the rest (renumber), so every step on the undo and redo stacks is carried through
// that renumbering (remap), by these rules:
//
//   - A step keeps only the samples that the save kept. Relabels, review decisions, deletions
//     later restored and restores stay undoable on those samples, under their new numbers.
//   - A step that concerned only samples the save removed leaves the history: the save made
//     that deletion permanent (the samples are no longer in the files), and undoing it would
//     have to invent them back. The steps below it stay.
//   - An append the save wrote becomes part of the files: undoing it marks its samples deleted
//     (they go at the next save), redoing it restores them (savedAppend).
//   - A step on the redo stack that appends samples still appends them at the end when redone;
//     the samples it would append, and the steps above it that use them, are numbered after the
//     samples the save kept.
//
// A step keeps its provenance (how and when it was made, and its id in the change log's events:
// changelog.go) through the remap.
//
// Applying a step restricted to the kept samples does to them exactly what the whole step did,
// so undoing and redoing after a save gives every kept sample the label and deletion mark it
// had at that point of the history.

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

// remapStack carries a stack through a save, bottom to top, leaving out the steps that concern
// no kept sample. applied: the undo stack (whose steps the saved files hold).
func remapStack(s []action, r renumbering, applied bool) []action {
	var out []action
	for _, a := range s {
		if b := a.remap(r, applied); b != nil {
			out = append(out, b)
		}
	}
	return out
}

func (a *relabel) remap(r renumbering, _ bool) action {
	b := &relabel{provenance: a.provenance}
	for k, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx, b.to, b.old = append(b.idx, j), append(b.to, a.to[k]), append(b.old, a.old[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

func (a *setDeleted) remap(r renumbering, _ bool) action {
	b := &setDeleted{provenance: a.provenance, to: a.to}
	for _, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx = append(b.idx, j)
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

func (a *decide) remap(r renumbering, _ bool) action {
	j, ok := r.at(a.i)
	if !ok {
		return nil
	}
	b := *a
	b.i = j
	return &b
}

// remap of an append: on the undo stack its samples are in the saved files now (a savedAppend
// of those kept); on the redo stack it appends at the end when redone, as before.
func (a *appendSamples) remap(r renumbering, applied bool) action {
	if !applied {
		return a
	}
	b := &savedAppend{provenance: a.provenance}
	for k := range a.labels {
		if j, ok := r.at(int32(a.first + k)); ok {
			b.idx, b.labels = append(b.idx, j), append(b.labels, a.labels[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

// savedAppend is an append that a save wrote into the files: its samples are samples of the
// files now, so undoing it marks them deleted (the next save removes them) and redoing it
// restores them. labels are the labels they were added with (for its name).
type savedAppend struct {
	provenance
	idx    []int32
	labels []int32
}

func (a *savedAppend) apply(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = false
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *savedAppend) revert(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = true
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *savedAppend) String() string { return appendName(a.labels) }

func (a *savedAppend) remap(r renumbering, _ bool) action {
	b := &savedAppend{provenance: a.provenance}
	for k, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx, b.labels = append(b.idx, j), append(b.labels, a.labels[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

// remapHistory carries the undo and redo stacks through a save whose renumbering is r (m.mu
// held, before the samples are reset to the saved ones): the steps are remapped and the saved
// state becomes the clean one.
func (m *model) remapHistory(r renumbering) {
	m.undo, m.redo = remapStack(m.undo, r, true), remapStack(m.redo, r, false)
	m.clean = len(m.undo)
}

// forgetSteps empties the redo stack, and the undo stack too unless redoOnly (m.mu held): what
// is forgotten can no longer be undone or redone. The samples stay as they are; with the undo
// stack gone they are the clean state.
func (m *model) forgetSteps(redoOnly bool) {
	m.redo = nil
	if !redoOnly {
		m.undo, m.clean = nil, 0
	}
}
