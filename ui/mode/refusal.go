package mode

import (
	"errors"

	"idxlabel/store"
)

// ReadOnlyNote is what the status bar says when an edit or a save is refused on a dataset open
// read-only.
const ReadOnlyNote = "Read-only (the pair is open for editing elsewhere): edits and saves are refused here"

// Refusal is what the status bar says of an edit the store refused with err: the journal
// could not be written (a full disk: the edit was not made, and edits work again once it can be)
// or is damaged (no edit is taken until it can be cut back: save now), a save writes the files,
// a journal found at Open awaits its answer, the dataset is read-only, or the edit itself was
// refused (a label the file's type cannot hold), with the store's reason.
func Refusal(err error) string {
	switch {
	case errors.Is(err, store.ErrJournalDamaged):
		return "Not done, and no edit is taken until the journal can be repaired: " + err.Error()
	case errors.Is(err, store.ErrJournalWrite):
		return "Not done (the edit could not be recorded; try again once there is room): " + err.Error()
	case errors.Is(err, store.ErrSaving):
		return "Not done: a save is writing the files; edits wait until it is done"
	case errors.Is(err, store.ErrRecoveryPending):
		return "Not done: unsaved edits were found beside the files; replay or discard them first"
	case errors.Is(err, store.ErrReadOnly):
		return ReadOnlyNote
	}
	return "Not done: " + err.Error()
}
