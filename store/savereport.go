package store

import (
	"slices"

	"idxlabel/pairfile"
)

// SaveReport is what a save did.
type SaveReport struct {
	// Files lists the files written, images first; none when there was nothing to write. A save
	// that changed only labels lists the label file alone: the image file was left as it was.
	Files []pairfile.SavedFile
	// Notes are sentences for the person about what the save found and did besides (a journal of
	// another session kept aside).
	Notes []string
}

// LastSave returns what the last successful save did (the zero SaveReport before any).
func (d *Dataset) LastSave() SaveReport {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return SaveReport{Files: slices.Clone(d.lastSave.Files), Notes: slices.Clone(d.lastSave.Notes)}
}
