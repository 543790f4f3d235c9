package pairfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"idxlabel/internal/atomicfile"
)

// A pair's journal of unsaved edits sits beside its label file and names both files, so the rule
// for outputs finds it from the label file's folder. When the image file is in another folder,
// a writer of the image file looks in that folder, where no journal is, and a pointer from there
// to the journal would be a path leaving its folder. So while a journal is open the window also
// keeps an unsaved-edits marker beside the image file ("<images>.idxlabel-unsaved": one line a
// pair, the base name of the journal's file, never a path), and the rule for outputs refuses to
// replace an image file that has one, even with force (RefuseUnsaved), naming the marker and
// saying how to recover: open the pair, which replays or discards the edits and removes it.

// UnsavedSuffix is appended to an image file's path to name its unsaved-edits marker.
const UnsavedSuffix = ".idxlabel-unsaved"

// maxUnsaved is the most bytes a marker is read to (a few hundred pairs' names): a larger one is
// replaced, not read whole.
const maxUnsaved = 64 << 10

// MarkUnsaved records, beside images, that the journal at journal holds unsaved edits of a pair
// of images: when the journal is in another folder than images (in the same folder the rule
// finds the journal itself), it adds the journal's base name to images' marker (written
// atomically, never through a symbolic link). images "" or in the journal's folder: nothing.
// Errors: those of writing; a caller whose marker cannot be written goes on (a writer could not
// replace the image file in that folder either).
func MarkUnsaved(images, journal string) error {
	if images == "" || journal == "" || filepath.Dir(Abs(images)) == filepath.Dir(Abs(journal)) {
		return nil
	}
	path := images + UnsavedSuffix
	names := readUnsaved(path)
	name := filepath.Base(journal)
	if slices.Contains(names, name) {
		return nil
	}
	return writeUnsaved(path, append(names, name))
}

// UnmarkUnsaved removes the journal at journal from images' marker (MarkUnsaved): the marker
// goes when no other pair's journal is named in it. A marker that cannot be read (damaged,
// oversized) is removed. No marker is no error.
func UnmarkUnsaved(images, journal string) error {
	if images == "" || journal == "" {
		return nil
	}
	path := images + UnsavedSuffix
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	names := slices.DeleteFunc(readUnsaved(path), func(n string) bool { return n == filepath.Base(journal) })
	if len(names) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeUnsaved(path, names)
}

// UnsavedMarker returns the unsaved-edits marker of the file at p (p itself, or the file its
// symbolic link names), "" when it has none: anything at "<p>.idxlabel-unsaved", whatever it
// holds (it is never obeyed, only heeded).
func UnsavedMarker(p string) string {
	files := []string{p}
	if r, err := atomicfile.Resolve(p); err == nil && !SamePath(r, p) {
		files = append(files, r)
	}
	for _, f := range files {
		if _, err := os.Lstat(f + UnsavedSuffix); err == nil {
			return f + UnsavedSuffix
		}
	}
	return ""
}

// readUnsaved returns the names a marker holds: its non-empty lines that are base names (no
// separator, not "." or ".."); nil when it cannot be read (missing, a link, too large).
func readUnsaved(path string) []string {
	b, err := atomicfile.ReadFileNoFollow(path, maxUnsaved)
	if err != nil {
		return nil
	}
	var names []string
	for l := range bytes.SplitSeq(b, []byte("\n")) {
		n := string(l)
		if n != "" && n != "." && n != ".." && filepath.Base(n) == n && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// writeUnsaved writes names, one a line, to the marker at path (atomically, no link followed).
func writeUnsaved(path string, names []string) error {
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		var b bytes.Buffer
		for _, n := range names {
			b.WriteString(n)
			b.WriteByte('\n')
		}
		_, err := w.Write(b.Bytes())
		return err
	})
}
