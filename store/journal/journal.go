// Package journal is the log of unsaved edits that a dataset keeps beside its files: an
// append-only file of records, each synced to disk before the edit it holds is reported done,
// and read back after a crash up to the first damaged record. It knows the file format (the
// magic, the framing and checksums) and how to append, sync, cut back and read; what a record
// means (the edit it holds) is the dataset's (package store). Modelled on etcd's wal. It never
// imports Fyne.
//
// File format (all integers little-endian):
//
//	"IDXLJRN2"                          8-byte magic (version 2; "IDXLJRN1" is version 1)
//	record*                             u32 payload length, u32 CRC-32C of the payload, payload
//
// The first record is the base: what the edits apply to. Every later record is appended in a
// single write and synced. A record whose length or checksum does not hold ends the good prefix:
// Read stops there, and Reopen cuts the file back to it before appending again.
package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"idxlabel/internal/atomicfile"
)

// The magic numbers of the two versions, the first 8 bytes of a journal. The version tells the
// reader how to read the payloads (package store: version 2 added provenance to the edit
// records); the framing is the same.
const (
	Magic   = "IDXLJRN2"
	MagicV1 = "IDXLJRN1"
)

// Version is the version Create and Write write.
const Version = 2

// MaxRecord bounds one record's payload (bytes); a longer length field is damage.
const MaxRecord = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// File is what a journal writes through: an *os.File, or a fault-injecting stand-in in tests
// (a full disk, a failing sync).
type File interface {
	Write(p []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Journal is an open journal file being appended to. It is not safe for concurrent use (the
// dataset holds its lock around every call).
type Journal struct {
	path string
	f    File
	size int64 // bytes of intact records: where the next record starts
}

// ErrWrite: a record could not be written and synced, so the edit it holds was not made (a full
// disk, a removed folder). Appends work again once a record can be written.
var ErrWrite = errors.New("cannot record edits")

// ErrNotRegular: something other than a regular file (a symbolic link, a folder, a FIFO) sits
// where a journal goes; a journal is never written or read through it.
var ErrNotRegular = errors.New("not a regular file")

// ErrNotJournal: the file does not start with a journal's magic.
var ErrNotJournal = errors.New("not an idxlabel journal")

// openFile opens the journal at path with flag, never following a symbolic link (NoFollow
// where the system has it, and a check of the file before and after opening). Errors:
// ErrNotRegular (naming the path) or the open error.
func openFile(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("journal %s: %w (%s); refusing to use it", path, ErrNotRegular, fi.Mode().Type())
	}
	f, err := os.OpenFile(path, flag|atomicfile.NoFollow, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w; refusing to use it", path, ErrNotRegular)
	}
	return f, nil
}

// Create starts a journal at path holding only the base record: written to a temporary file,
// synced and renamed into place, so a failure leaves no empty or partial journal behind. A file
// already at path is never overwritten: one with records after its base (or anything that is
// not a journal) is moved aside to "<path>.<time>.kept" first. Errors: ErrNotRegular when path
// is a symbolic link or other non-regular file, and any write error.
func Create(path string, base []byte) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("journal %s: %w (%s); refusing to use it", path, ErrNotRegular, fi.Mode().Type())
		}
		if c, err := Read(path, 0); err != nil || len(c.Records) > 0 {
			if err := os.Rename(path, path+"."+time.Now().Format("20060102-150405")+".kept"); err != nil {
				return nil, fmt.Errorf("journal %s holds edits and cannot be moved aside: %w", path, err)
			}
		}
	}
	size, err := Write(path, base, nil)
	if err != nil {
		return nil, err
	}
	f, err := openFile(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	return &Journal{path: path, f: f, size: size}, nil
}

// Write writes a whole journal, the base and records, to path atomically (temporary file,
// fsync, rename): a new journal, or an old one rewritten in this version. It returns its length
// in bytes. Errors: those of writing.
func Write(path string, base []byte, records [][]byte) (int64, error) {
	b := append([]byte(Magic), Frame(base)...)
	for _, p := range records {
		b = append(b, Frame(p)...)
	}
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	return int64(len(b)), err
}

// Reopen opens an existing journal for appending after its good prefix of size bytes (Contents
// Good), cutting off any damaged tail (the caller keeps a copy of a tail that held records).
// Errors: ErrNotRegular, and those of opening and truncating.
func Reopen(path string, size int64) (*Journal, error) {
	f, err := openFile(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	return &Journal{path: path, f: f, size: size}, nil
}

// Path returns the journal file's path.
func (j *Journal) Path() string { return j.path }

// Frame returns a record as the file holds it: the payload's length (u32), its CRC-32C (u32),
// the payload.
func Frame(payload []byte) []byte {
	buf := make([]byte, 8, 8+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[4:], crc32.Checksum(payload, castagnoli))
	return append(buf, payload...)
}

// Append writes one record in a single write and syncs it to disk. If either fails, the file is
// cut back to its intact records (so a later record never follows a torn one) and the error
// wraps ErrWrite, saying "disk full" when the disk is full.
func (j *Journal) Append(payload []byte) error {
	rec := Frame(payload)
	_, err := j.f.Write(rec)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		j.f.Truncate(j.size)
		return WriteError(err, "journal "+j.path)
	}
	j.size += int64(len(rec))
	return nil
}

// WriteError is the error of an edit refused because its journal could not be written (where:
// which journal, and how): it wraps ErrWrite and says "disk full" when the disk is full.
func WriteError(err error, where string) error {
	cause := err.Error()
	if atomicfile.DiskFull(err) {
		cause = "disk full"
	}
	return fmt.Errorf("%w: %s (%s); the edit was not made", ErrWrite, cause, where)
}

// Close closes the file. Errors: those of closing it.
func (j *Journal) Close() error { return j.f.Close() }

// WrapFile replaces the file j writes through by wrap(the file): the seam through which tests
// inject faults (a full disk, a failing sync).
func (j *Journal) WrapFile(wrap func(File) File) { j.f = wrap(j.f) }

// Contents is what Read found.
type Contents struct {
	Version int      // 1 or 2 (the magic)
	Base    []byte   // the base record's payload
	Records [][]byte // the later records' payloads, in order
	Ends    []int64  // Ends[k]: file offset just past Records[k]
	Good    int64    // length of the good prefix (magic, base, intact records), in bytes
	Damaged int64    // bytes after the good prefix
}

// Read reads the journal at path and splits it into records, stopping at the first record whose
// length or CRC-32C does not hold. A file larger than limit bytes (limit > 0) is refused before
// it is read. Errors: the file cannot be read or is too large, ErrNotRegular, ErrNotJournal (no
// magic), or a damaged or empty base record.
func Read(path string, limit int64) (*Contents, error) {
	f, err := openFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if limit > 0 && fi.Size() > limit {
		return nil, fmt.Errorf("%s: the journal is %d bytes, above the limit of %d bytes", path, fi.Size(), limit)
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Contents{}
	switch {
	case len(b) < len(Magic):
		return nil, fmt.Errorf("%s: %w", path, ErrNotJournal)
	case string(b[:len(Magic)]) == Magic:
		c.Version = 2
	case string(b[:len(MagicV1)]) == MagicV1:
		c.Version = 1
	default:
		return nil, fmt.Errorf("%s: %w", path, ErrNotJournal)
	}
	off := int64(len(Magic))
	for {
		rest := b[off:]
		if len(rest) < 8 {
			break
		}
		n := int64(binary.LittleEndian.Uint32(rest))
		if n > MaxRecord || n > int64(len(rest))-8 {
			break
		}
		payload := rest[8 : 8+n]
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) || n == 0 {
			break
		}
		off += 8 + n
		if c.Base == nil {
			c.Base = payload
			c.Good = off
			continue
		}
		c.Records = append(c.Records, payload)
		c.Ends = append(c.Ends, off)
		c.Good = off
	}
	if c.Base == nil {
		return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
	}
	c.Damaged = int64(len(b)) - c.Good
	return c, nil
}

// BaseEnd returns the file offset just past the base record: the length of a journal cut back
// to its base.
func (c *Contents) BaseEnd() int64 { return int64(len(Magic)) + 8 + int64(len(c.Base)) }
