package store

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
)

// SetClassNames replaces the class names (class → name; a class left out has none), checked as
// WriteClassNames checks them. They are shown at once (ClassName, Snapshot) and written by the
// next save, after the pair is in place, as the class-name file: the one the names were read
// from (ClassNamesFile), or "<labels>.classes.txt" beside the label file when there was none
// (a file with no names left is removed). Dirty reports them unsaved until then. They are not
// journaled: a window that stops before saving keeps its label edits (the journal) but not the
// names. Errors: those of the check, naming the class; ErrReadOnly; ErrClosed.
func (d *Dataset) SetClassNames(names map[int]string) error {
	if _, err := checkClassNames("", names); err != nil {
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
	if maps.Equal(d.names, names) || len(d.names) == 0 && len(names) == 0 {
		return nil
	}
	d.names = maps.Clone(names)
	d.namesEdited = true
	return nil
}

// namesFileFor returns where a save writes class names set by SetClassNames (d.mu held): the
// file they were read from when it is beside the label file (a Save As elsewhere leaves it
// behind), else "<labels>.classes.txt"; "" without a label file.
func (d *Dataset) namesFileFor() string {
	if d.labelsPath == "" {
		return ""
	}
	if d.namesPath != "" && filepath.Dir(d.namesPath) == filepath.Dir(d.labelsPath) {
		return d.namesPath
	}
	return d.labelsPath + ".classes.txt"
}

// writeEditedNames writes the class names SetClassNames set, once a save has put the pair in
// place (see SetClassNames); nothing when none were set, or when the dataset has no label file
// to put them beside (they wait for one).
func (d *Dataset) writeEditedNames() error {
	d.mu.RLock()
	edited, names, path := d.namesEdited, maps.Clone(d.names), d.namesFileFor()
	d.mu.RUnlock()
	if !edited || path == "" {
		return nil
	}
	var err error
	if len(names) > 0 {
		err = WriteClassNames(path, names)
	} else if err = os.Remove(path); errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.namesEdited, d.namesPath = false, path
	if len(names) == 0 {
		d.namesPath = ""
	}
	d.mu.Unlock()
	return nil
}
