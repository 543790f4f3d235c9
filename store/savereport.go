package store

import (
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
