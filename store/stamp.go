package store

import (
	"errors"
	"fmt"
	"os"
)

// ErrChangedOnDisk: Save found that a file of the pair was changed, replaced or removed by
// another program since the dataset read it (or last saved it). Save refuses rather than
// overwrite those changes; SaveAs to other files, or opening the files again, are the ways on.
var ErrChangedOnDisk = errors.New("changed by another program since you opened it; Save As or reload")

// stamp is what a file looked like when the dataset read or wrote it: its identity (device and
// inode on Unix, file index on Windows), size in bytes and modification time. A program that
// rewrites the file in place changes the size or the time; one that saves by renaming a new file
// over it (as idxlabel itself does) changes the identity.
type stamp struct {
	path string
	info os.FileInfo // nil: the file did not exist
}

// takeStamps stats the pair's files (labelsPath may be ""). Open takes them before reading, so a
// change made while it reads shows as a change, never the other way round.
func takeStamps(imagesPath, labelsPath string) []stamp {
	var out []stamp
	for _, p := range []string{imagesPath, labelsPath} {
		if p == "" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			fi = nil
		} else {
			// On Windows os.Stat leaves the file index to be read at the first SameFile, from
			// the path: read it now, or a file renamed over this one would compare as the same.
			os.SameFile(fi, fi)
		}
		out = append(out, stamp{path: p, info: fi})
	}
	return out
}

// check compares the file with the stamp. Errors: ErrChangedOnDisk, wrapped with the file's name
// and what changed.
func (s stamp) check() error {
	fi, err := os.Stat(s.path)
	var what string
	switch {
	case s.info == nil && err != nil:
		return nil
	case s.info == nil:
		what = "created"
	case err != nil:
		what = "removed or unreadable"
	case !os.SameFile(s.info, fi):
		what = "replaced"
	case fi.Size() != s.info.Size():
		what = fmt.Sprintf("size %d → %d bytes", s.info.Size(), fi.Size())
	case !fi.ModTime().Equal(s.info.ModTime()):
		what = "modified " + fi.ModTime().Format("15:04:05")
	default:
		return nil
	}
	return fmt.Errorf("%s was %w (%s)", s.path, ErrChangedOnDisk, what)
}

// checkStamps checks every file the dataset read against its stamp (d.mu held). Errors: as
// stamp.check, for the first file that changed.
func (d *Dataset) checkStamps() error {
	for _, s := range d.stamps {
		if err := s.check(); err != nil {
			return err
		}
	}
	return nil
}
