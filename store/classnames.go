package store

import (
	"errors"
	"io/fs"
	"maps"
	"os"

	"idxlabel/pairfile"
)

// SetClassNames replaces the class names (class → name; a class left out has none), checked and
// cleaned as WriteClassNames writes them. They are shown at once (ClassName, Snapshot) and
// written by the next save as every save writes them (keepClassNames: "<labels>.classes.txt"
// beside the label file, unless the files there already give these names); names all cleared
// remove that file. Dirty reports them unsaved until then. They are not journaled: a window
// that stops before saving keeps its label edits (the journal) but not the names. Errors: those
// of the check, naming the class; ErrReadOnly; ErrClosed.
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
	d.names = names
	d.namesEdited = true
	return nil
}

// settleEditedNames ends what SetClassNames began, once a save has put the pair in place and
// written the names (keepClassNames): the names are saved; when none is left, the class-name
// file a save writes ("<labels>.classes.txt") is removed, so the pair opened again shows
// numbers. A dataset without a label file keeps them unsaved (they wait for one).
func (d *Dataset) settleEditedNames() error {
	d.mu.RLock()
	edited, empty, labels := d.namesEdited, len(d.names) == 0, d.labelsPath
	d.mu.RUnlock()
	if !edited || labels == "" {
		return nil
	}
	if empty {
		if err := os.Remove(labels + pairfile.ClassNamesSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
