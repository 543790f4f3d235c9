package store

import (
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
