package store

import (
	"errors"
	"os"
	"slices"

	"idxlabel/pairfile"
)

// Options adjust how Open reads a pair.
type Options struct {
	// Height and Width give the sample size in pixels for N×(H·W) image files whose H·W is not a
	// perfect square; 0 infers it.
	Height, Width int
	// Transposed overrides the EMNIST detection (TransposeAuto).
	Transposed Transpose
	// ReadOnly opens the pair for reading only (the command line's info, verify, suspects,
	// export): Open then writes, renames and deletes nothing, and edits and saves fail with
	// ErrReadOnly.
	ReadOnly bool
}

// ErrNoPath: Save was called on a dataset that has no files yet (a new dataset): use SaveAsContext.
var ErrNoPath = errors.New("the dataset has no files yet: choose where to save it")

// ErrSaving: an edit was attempted while a save is writing the files; it can be made again
// when the save is done.
var ErrSaving = errors.New("saving: edits wait until the save is done")

// ErrReadOnly: an edit or save was attempted on a dataset opened with Options.ReadOnly.
var ErrReadOnly = errors.New("the dataset is open read-only")

// ErrClosed: an edit or save was attempted after Close.
var ErrClosed = errors.New("the dataset was closed: open the files again to edit them")

// ErrRecoveryPending: an edit was attempted while a journal found at Open awaits a decision
// (ReplayJournal or DiscardJournal).
var ErrRecoveryPending = errors.New("a journal of unsaved edits was found: replay or discard it first")

// Dataset is a pair of IDX files opened for editing, or a new dataset: the session that keeps
// a person's edits. It embeds the model (model.go: the samples and what edits do to them, in
// memory, with undo), whose queries it offers as its own, and around it keeps the pair's files:
// every edit is journaled and synced before the model applies it (edit.go), a journal left by a
// crash is offered and replayed (recovery.go), a save writes the pair atomically (save.go), the
// pair is locked while open (lock.go), the files are checked for changes by others before a
// save (stamp.go), and the changes are logged (changelog.go). Its methods are safe for
// concurrent use: one lock (the model's mu) guards the model and the session alike, edits are
// serialized, and Save blocks edits while it runs.
type Dataset struct {
	model

	imagesPath, labelsPath string
	readOnly               bool
	namesPath              string // the class-name file the names were read from or last written to

	sessionJournal               // the journal of the edits (journalwrite.go)
	recovery       *Recovery     // a journal found at Open that awaits a decision (recovery.go)
	saving         bool          // a save is writing the files: edits fail with ErrSaving
	saveEnd        chan struct{} // closed when the save in progress ends (Close waits for it)
	notices        []string

	log sessionLog // the change log of the edits saved in this session (changelog.go)

	locks  pairfile.Locks   // the pair's locks while it is open for editing (lock.go); none without files
	stamps []pairfile.Stamp // the files as they were read or last saved (stamp.go)
	// lastSave is what the last successful save wrote (LastSave).
	lastSave SaveReport
	closed   bool // Close was called: edits and saves fail with ErrClosed
}

// statePath returns the path of a per-pair state file (journal, save manifest): beside the
// label file, or beside the image file when there is none; "" for a dataset without files.
func (d *Dataset) statePath(suffix string) string {
	if key := pairfile.Key(d.imagesPath, d.labelsPath); key != "" {
		return key + suffix
	}
	return ""
}

// ReadOnly reports whether the dataset was opened with Options.ReadOnly: its edits and saves fail
// with ErrReadOnly. It is set when the dataset is opened and never changes.
func (d *Dataset) ReadOnly() bool { return d.readOnly }

// Paths returns the image and label file the dataset was opened from or last saved to ("" when
// it has none).
func (d *Dataset) Paths() (images, labels string) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.imagesPath, d.labelsPath
}

// Notices returns messages from Open the user should see (a finished interrupted save, an
// unreadable class-name file), oldest first.
func (d *Dataset) Notices() []string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return slices.Clone(d.notices)
}

// closeWaits, when set, runs when Close begins to wait for a save in progress: the tests of
// this package set it to know that Close is waiting, instead of sleeping. Programs leave it nil.
var closeWaits func()

// Close ends the editing session: it closes the journal file and releases the pair's lock, so
// another window or process may open the pair for editing. The journal itself stays on disk
// while edits are unsaved, so they can be recovered; one whose edits cancel out (Dirty is
// false: the files hold all it does) is removed, with its mark. Close does not save. After Close the
// dataset can still be read, but edits and saves fail with ErrClosed. Closing twice is harmless.
// A save in progress is waited for first (its renames and its change of lock happen while the
// pair is still locked; the window never closes during one). Errors: closing the journal or
// unlocking failed.
func (d *Dataset) Close() error {
	d.mu.Lock()
	for d.saving {
		end := d.saveEnd
		d.mu.Unlock()
		if closeWaits != nil {
			closeWaits()
		}
		<-end
		d.mu.Lock()
	}
	defer d.mu.Unlock()
	d.closed = true
	var err error
	if d.journal != nil {
		path := d.journal.Path()
		err = d.journal.Close()
		d.journal = nil
		if err == nil && !d.differsFromFiles() && os.Remove(path) == nil {
			// Its edits cancel out: the files hold everything it does, and neither it nor the
			// mark beside the image file may offer unsaved work that is not there.
			pairfile.UnmarkUnsaved(d.imagesPath, path)
		}
	}
	if lerr := d.locks.Release(); err == nil {
		err = lerr
	}
	d.locks = nil
	return err
}
