package pairfile

import (
	"os"

	"idxlabel/internal/atomicfile"
)

// SavedFile is one file a save wrote, and what writing it did to what was there.
type SavedFile struct {
	Path string // the file as the dataset names it
	// Created: there was no file at Path before (the new label file of images opened alone).
	Created bool
	// Through is the file a symbolic link at Path names: the save replaced that file, in its own
	// folder, and the link still names it ("" when Path is not a link).
	Through string
	// Links is how many names the replaced file had: above 1, its other hard links keep the old
	// content (a save writes a new file and renames it into place). 1 where the system does not
	// say (Windows).
	Links int
}

// DescribeWrite says what writing path will do to what is there now: whether a file is there,
// the file a symbolic link there names, and how many names that file has.
func DescribeWrite(path string) SavedFile {
	f := SavedFile{Path: path, Links: 1}
	li, err := os.Lstat(path)
	if err != nil {
		f.Created = true
		return f
	}
	if li.Mode()&os.ModeSymlink != 0 {
		if r, err := atomicfile.Resolve(path); err == nil {
			f.Through = r
		}
	}
	if fi, err := os.Stat(path); err == nil {
		f.Links = atomicfile.Links(fi)
	}
	return f
}
