package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"time"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// SetClassNames replaces the class names (class → name; a class left out has none), checked and
// cleaned as WriteClassNames writes them. They are journaled like an edit (recNames), so a window
// that stops before saving gets them back with its other edits when the pair is reopened, but
// they are no step of the undo stack. They are shown at once (ClassName, Snapshot) and written by
// the next save as every save writes them (keepClassNames: "<labels>.classes.txt" beside the
// label file, unless the files there already give these names); names all cleared remove that
// file. Dirty reports them unsaved until then. Errors: those of the check, naming the class;
// ErrReadOnly; ErrClosed; ErrSaving; ErrRecoveryPending; the journal's write error
// (ErrJournalWrite: the names are then not set).
func (d *Dataset) SetClassNames(names map[int]string) error {
	names, _, err := pairfile.CleanClassNames("", names)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return ErrClosed
	case d.readOnly:
		return ErrReadOnly
	}
	if maps.Equal(d.names, names) {
		return nil
	}
	_, err = d.commit(namesRecord(names, time.Now().UnixMilli()), func() Change {
		d.names = names
		d.namesEdited = true
		return Change{}
	})
	return err
}

// recNames is the record of class names set (SetClassNames): recNames, when i64 (Unix
// milliseconds), then the names (enc.names: n u32, n × (class i32, length u32, UTF-8 name)). It
// is no step of the undo stack: replaying it sets the names (replayNames), and a journal holding
// one holds edits (journal.RecNames).
const recNames = journal.RecNames

// namesRecord is the record of names set at when.
func namesRecord(names map[int]string, when int64) []byte {
	return enc{recNames}.i64(when).names(names)
}

// replayNames sets the names a recNames record holds (d.mu held), untrusted: checked and cleaned
// as SetClassNames takes them. Errors: a record that does not decode, or names the check refuses;
// nothing is set then.
func (d *Dataset) replayNames(p []byte) error {
	r := &dec{b: p[1:]}
	r.i64()
	names := r.names()
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("extra bytes after the class names")
	}
	if r.err != nil {
		return fmt.Errorf("class names: %v", r.err)
	}
	names, _, err := pairfile.CleanClassNames("", names)
	if err != nil {
		return err
	}
	d.names, d.namesEdited = names, true
	return nil
}

// settleEditedNames ends what SetClassNames began, once a save has put the pair in place and
// written the names (keepClassNames): the names are saved; when none is left, the class-name
// file a save writes ("<labels>.classes.txt") is removed, so the pair opened again shows
// numbers. A dataset without a label file keeps them unsaved (they wait for one), and since the
// save started its journal over, journals them again at once, so that they outlive a crash (a
// note in LastSave's when it cannot). Errors: the class-name file cannot be removed.
func (d *Dataset) settleEditedNames() error {
	d.mu.RLock()
	edited, empty, labels := d.namesEdited, len(d.names) == 0, d.labelsPath
	d.mu.RUnlock()
	if !edited {
		return nil
	}
	if labels == "" {
		d.mu.Lock()
		defer d.mu.Unlock()
		if _, err := d.commit(namesRecord(d.names, time.Now().UnixMilli()), func() Change { return Change{} }); err != nil {
			d.lastSave.Notes = append(d.lastSave.Notes, fmt.Sprintf("The class names wait for a label file, and could not be journaled meanwhile (%v): save with labels to keep them.", err))
		}
		return nil
	}
	if empty {
		if err := os.Remove(pairfile.ClassNamesFile(labels)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	d.mu.Lock()
	d.namesEdited = false
	if empty {
		d.namesPath = ""
	}
	d.mu.Unlock()
	return nil
}

// ClassNamesFile returns the class-name file Open read, or "".
func (d *Dataset) ClassNamesFile() string { return d.namesPath }
