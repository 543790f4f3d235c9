package pairfile

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"idxlabel/internal/atomicfile"
)

// ErrChangedOnDisk: a save found (Stamp.Check) that a file of the pair was changed, replaced or
// removed by another program since the dataset read it (or last saved it). A save refuses rather
// than overwrite those changes; saving to other files, or opening the files again, are the ways on.
var ErrChangedOnDisk = errors.New("changed by another program since you opened it; Save As or reload")

// castagnoli is the CRC-32C table (hardware-accelerated by hash/crc32 on amd64 and arm64): the
// content hash of the stamps.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Stamp is what a file looked like when the dataset read or wrote it: its identity (device and
// inode on Unix, file index on Windows), size in bytes, modification time, and a CRC-32C of its
// bytes. A program that saves by renaming a new file over it (as idxlabel itself does) changes
// the identity; one that rewrites it in place changes the size or the time, or, if it puts the
// time back, the content.
type Stamp struct {
	path string
	info os.FileInfo // nil: the file did not exist
	sum  uint32      // CRC-32C of the content; valid when hashed
	// hashed: sum was computed. It is false when the file could not be read whole (a change
	// of content then goes unnoticed unless the size, time or identity also changed).
	hashed bool
}

// TakeStamp stats and hashes the file at p (hashes only a regular file, reading it whole through
// a 1 MiB buffer). A dataset takes the stamps before reading, so a change made while it reads
// shows as a change, never the other way round.
func TakeStamp(p string) Stamp {
	fi, err := os.Stat(p)
	if err != nil {
		return Stamp{path: p}
	}
	// On Windows os.Stat leaves the file index to be read at the first SameFile, from the path:
	// read it now, or a file renamed over this one would compare as the same.
	os.SameFile(fi, fi)
	s := Stamp{path: p, info: fi}
	if fi.Mode().IsRegular() {
		s.sum, s.hashed = hashFile(p)
	}
	return s
}

// TakeStamps stamps the pair's files (labelsPath may be "").
func TakeStamps(imagesPath, labelsPath string) []Stamp {
	var out []Stamp
	for _, p := range []string{imagesPath, labelsPath} {
		if p != "" {
			out = append(out, TakeStamp(p))
		}
	}
	return out
}

// Path returns the file the stamp is of.
func (s Stamp) Path() string { return s.path }

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

// Check compares the file with the stamp: identity, size and time always, and the content too
// when content is true (a save checks the content of the files it is about to replace: it reads
// them whole). Errors: ErrChangedOnDisk, wrapped with the file's name and what changed.
func (s Stamp) Check(content bool) error {
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
