package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"idxlabel/internal/atomicfile"
)

// ErrChangedOnDisk: Save found that a file of the pair was changed, replaced or removed by
// another program since the dataset read it (or last saved it). Save refuses rather than
// overwrite those changes; SaveAs to other files, or opening the files again, are the ways on.
var ErrChangedOnDisk = errors.New("changed by another program since you opened it; Save As or reload")

// stamp is what a file looked like when the dataset read or wrote it: its identity (device and
// inode on Unix, file index on Windows), size in bytes, modification time, and a CRC-32C of its
// bytes. A program that saves by renaming a new file over it (as idxlabel itself does) changes
// the identity; one that rewrites it in place changes the size or the time, or, if it puts the
// time back, the content.
type stamp struct {
	path string
	info os.FileInfo // nil: the file did not exist
	sum  uint32      // CRC-32C of the content; valid when hashed
	// hashed: sum was computed. It is false when the file could not be read whole (a change
	// of content then goes unnoticed unless the size, time or identity also changed).
	hashed bool
}

// takeStamp stats and hashes the file at p (hashes only a regular file). Open takes the stamps
// before reading, so a change made while it reads shows as a change, never the other way round.
func takeStamp(p string) stamp {
	fi, err := os.Stat(p)
	if err != nil {
		return stamp{path: p}
	}
	// On Windows os.Stat leaves the file index to be read at the first SameFile, from the path:
	// read it now, or a file renamed over this one would compare as the same.
	os.SameFile(fi, fi)
	s := stamp{path: p, info: fi}
	if fi.Mode().IsRegular() {
		s.sum, s.hashed = hashFile(p)
	}
	return s
}

// takeStamps stamps the pair's files (labelsPath may be "").
func takeStamps(imagesPath, labelsPath string) []stamp {
	var out []stamp
	for _, p := range []string{imagesPath, labelsPath} {
		if p != "" {
			out = append(out, takeStamp(p))
		}
	}
	return out
}

// hashFile returns the CRC-32C of the regular file at p, reading it through a 1 MiB buffer; ok is
// false when it cannot be opened as a regular file or read to its end.
func hashFile(p string) (sum uint32, ok bool) {
	f, _, err := atomicfile.OpenRegular(p) // never blocks on a FIFO
	if err != nil {
		return 0, false
	}
	defer f.Close()
	h := crc32.New(castagnoli) // about the cost of the read
	if _, err := io.CopyBuffer(h, f, make([]byte, 1<<20)); err != nil {
		return 0, false
	}
	return h.Sum32(), true
}

// check compares the file with the stamp: identity, size and time always, and the content too
// when content is true (a save checks the content of the files it is about to replace). Errors:
// ErrChangedOnDisk, wrapped with the file's name and what changed.
func (s stamp) check(content bool) error {
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
	case content && s.hashed:
		if sum, ok := hashFile(s.path); ok && sum == s.sum {
			return nil
		}
		what = "rewritten in place, its time put back"
	default:
		return nil
	}
	return fmt.Errorf("%s was %w (%s)", s.path, ErrChangedOnDisk, what)
}

// checkStamps checks every file the dataset read against its stamp (d.mu held), the content of
// those named in replace too. Errors: as stamp.check, for the first file that changed.
func (d *Dataset) checkStamps(replace ...string) error {
	for _, s := range d.stamps {
		content := false
		for _, r := range replace {
			content = content || samePath(r, s.path)
		}
		if err := s.check(content); err != nil {
			return err
		}
	}
	return nil
}

// restamp returns the stamps of the pair after a save that wrote the files in written: those
// are stamped afresh, the others keep the stamp they had (the save did not touch them, and
// hashing a large image file again would cost as much as reading it).
func (d *Dataset) restamp(imagesPath, labelsPath string, written []string) []stamp {
	var out []stamp
	for _, p := range []string{imagesPath, labelsPath} {
		if p == "" {
			continue
		}
		kept := -1
		for k, s := range d.stamps {
			if samePath(s.path, p) {
				kept = k
			}
		}
		fresh := kept < 0
		for _, w := range written {
			fresh = fresh || samePath(w, p)
		}
		if fresh {
			out = append(out, takeStamp(p))
		} else {
			out = append(out, d.stamps[kept])
		}
	}
	return out
}
