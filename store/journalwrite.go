package store

import (
	"fmt"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// Where a session's journal goes and how its records are written (journal.go has the records,
// recovery.go reads a journal back when the pair is opened again).

// journalFile returns where this dataset's journal is written: the path given to New, or beside
// the label (image) file.
func (d *Dataset) journalFile() string {
	if d.journalPath != "" {
		return d.journalPath
	}
	return d.statePath(pairfile.JournalSuffix)
}

// JournalPath returns the file the dataset's edits are journaled to ("" before the first edit
// of a dataset without files).
func (d *Dataset) JournalPath() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.journal != nil {
		return d.journal.Path()
	}
	return d.journalFile()
}

// sessionJournal is the journal a session writes its edits to (journal.go has its records,
// package journal the file): the file open for appending, where it goes, and the history record
// a save left to be written first. Dataset embeds it; d.mu guards it.
type sessionJournal struct {
	journal     *journal.Journal
	journalPath string // where the journal goes; "" = beside the label (or image) file
	// carry is the history record (history.go) that the journal begun after a save must start
	// with, nil when the save left no history or it has been written.
	carry []byte
}

// append appends one record to the journal, creating it at primary() (Dataset.journalFile) for
// the files pair (Dataset.pair) with base() as its base record on the first edit, or in the per-user fallback when primary's folder
// is read-only, followed by the history a save carried (carry) when there is one. The caller
// holds d.mu and has checked that the dataset takes edits (Dataset.commit). Errors: no place for
// the journal, or its creation or write failed (ErrJournalWrite).
func (s *sessionJournal) append(primaryPath func() string, pair []string, base func() []byte, payload []byte) error {
	if s.journal == nil {
		primary := primaryPath()
		if primary == "" {
			return fmt.Errorf("this dataset has no place for its journal")
		}
		b := base()
		j, err := journal.Create(primary, pair, b)
		if err != nil && s.journalPath == "" {
			if fb := pairfile.Fallback(primary); fb != "" {
				if j2, err2 := journal.Create(fb, pair, b); err2 == nil {
					j, err = j2, nil
					s.journalPath = fb
				}
			}
		}
		if err != nil {
			return journal.WriteError(err, "cannot start the journal "+primary)
		}
		s.journal = j
	}
	if s.carry != nil {
		if err := s.journal.Append(s.carry); err != nil {
			return err
		}
		s.carry = nil
	}
	return s.journal.Append(payload)
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
