package store

import (
	"fmt"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// Where a session's journal goes and how its records are written (records.go has the records,
// recovery.go reads a journal back when the pair is opened again).

// journalFile returns where this dataset's journal is written: the path given to New, or beside
// the label (image) file, or the file its symbolic link names (pairfile.JournalFile).
func (d *Dataset) journalFile() string {
	if d.journalPath != "" {
		return d.journalPath
	}
	return pairfile.JournalFile(d.imagesPath, d.labelsPath)
}

// journalMoved is the error of an edit that would start the journal of the pair whose label (or
// image) file is key beside a file whose lock the dataset does not hold (Dataset.commit): a
// file of the pair is a symbolic link changed, since the pair was opened, to name another file
// (pairfile.Locks.HoldsPair), beside which the journal would go (pairfile.JournalFile) while
// another window may have that file open. It wraps ErrJournalWrite; a save, which takes the new
// file's locks, or opening the pair again puts it right.
func journalMoved(key string) error {
	return fmt.Errorf("%w: cannot start the journal of %s: a file of the pair is a symbolic link that names another file than when the pair was opened; save the pair, or open it again", ErrJournalWrite, key)
}

// pair returns the dataset's files (d.mu held), as a journal's pair record names them: the
// image file and the label file, those it has.
func (d *Dataset) pair() []string {
	var out []string
	for _, p := range []string{d.imagesPath, d.labelsPath} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// baseRecord is the base record of this session's journal (d.mu held): the model's fingerprint,
// of the files it was read from, or of a new dataset when it has none (fingerprint).
func (d *Dataset) baseRecord() []byte { return d.fingerprint(d.imagesPath == "") }

// carryHistory carries the undo and redo stacks through a save whose renumbering is r (d.mu
// held, before rebase resets the samples): the model remaps them (remapHistory), and the history
// record the next journal starts with is prepared (carry). A history too large for one journal
// record (journal.MaxRecord: a redo stack holding a large import's pixels) is cut: first the redo
// stack, then all of it. What is cut can no longer be undone or redone, and the review marks of
// decisions on a cut undo stack are kept in memory but not restored after a crash (history.go).
func (d *Dataset) carryHistory(r renumbering) {
	d.remapHistory(r)
	d.carry = d.historyRecord()
	if len(d.carry) > journal.MaxRecord {
		d.forgetSteps(true)
		d.carry = d.historyRecord()
	}
	if len(d.carry) > journal.MaxRecord {
		d.forgetSteps(false)
		d.carry = d.historyRecord()
	}
}
