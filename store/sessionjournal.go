package store

import (
	"fmt"
	"time"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// The session's journal: the one it writes its edits to (sessionJournal), and one found when the
// pair was opened (Recovery). Dataset's methods in journalwrite.go say where the journal goes and
// what its base record is; recovery.go offers and replays a journal found.

// ErrJournalWrite: an edit's journal record could not be written and synced, so the edit was not
// made (a full disk, a removed folder). Edits work again once a record can be written. It is
// journal.ErrWrite.
var ErrJournalWrite = journal.ErrWrite

// ErrJournalDamaged: an edit's record could not be written and the journal could not be cut back
// to its last intact record either, so no edit is accepted until it can be (each edit tries
// again first): its error wraps ErrJournalWrite and this, and says to save. A save keeps the
// edits made so far and starts the journal over. It is journal.ErrDamaged.
var ErrJournalDamaged = journal.ErrDamaged

// sessionJournal is the journal a session writes its edits to (records.go has its records,
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
// is read-only, followed by the history a save carried (carry) when there is one. A journal it
// starts in another folder than the image file (pair[0]) is marked beside it
// (pairfile.MarkUnsaved) until a save, a discard or the next opening removes the mark. The caller
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
		if len(pair) > 0 {
			// An image file in another folder than the journal gets the marker that keeps a
			// writer from replacing it (pairfile.MarkUnsaved). A marker that cannot be written
			// is no reason to refuse the edit: no writer can replace a file in that folder then.
			pairfile.MarkUnsaved(pair[0], j.Path())
		}
	}
	if s.carry != nil {
		if err := s.journal.Append(s.carry); err != nil {
			return err
		}
		s.carry = nil
	}
	return s.journal.Append(payload)
}

// Recovery describes a journal of unsaved edits found when the pair was opened.
type Recovery struct {
	Path    string    // the journal file
	ModTime time.Time // when it was last written
	Edits   int       // intact edit records (edits, undos and redos; not the history a save carried)
	Damaged int64     // bytes at its end that failed their checksum and will be ignored
	Matches bool      // it was written against exactly these files (same fingerprint)
	Reason  string    // why it does not match, when !Matches
	Others  []string  // other journals of the pair, less complete; set aside when this one is replayed or discarded

	contents *journal.Contents
}

// better reports whether r is a more complete journal to offer than o: one that matches the
// files beats one that does not, then more edit records, then a readable one.
func (r *Recovery) better(o *Recovery) bool {
	if r.Matches != o.Matches {
		return r.Matches
	}
	if r.Edits != o.Edits {
		return r.Edits > o.Edits
	}
	return r.contents != nil && o.contents == nil
}
