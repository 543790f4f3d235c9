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
