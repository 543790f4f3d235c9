package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// Journal file format (all integers little-endian):
//
//	"IDXLJRN2"                          8-byte magic
//	record*                             u32 payload length, u32 CRC-32C of the payload, payload
//
// The first record is the base (recBase): a fingerprint of the files the edits apply to, or the
// size and classes of a new dataset. Every later record is one edit, undo or redo, appended and
// synced before the edit is reported done. A record whose length or checksum does not hold ends
// the good prefix; replay stops there and the file is truncated to it before appending again.
//
// Version 2 ("IDXLJRN2") records provenance, so that a replayed journal gives the same change
// log (changelog.go): after the type byte of every edit record (relabel, append, delete,
// restore, decide) how u8 (a How; checkHow says which fit the type) and when i64 (Unix time in
// milliseconds); after an undo's or redo's type byte its when i64; after the kind byte of every
// step of a history record (history.go) its how u8 and when i64. Version 1 ("IDXLJRN1", idxlabel
// before the change log) has none: it is still replayed, its edits logged with HowUnknown and no
// time, and rewritten as version 2 before journaling goes on (upgradeJournal).
const (
	journalMagic   = "IDXLJRN2"
	journalMagicV1 = "IDXLJRN1"
)

// Record types, the payload's first byte. The layouts are version 1's; version 2 inserts how
// u8, when i64 after the type byte of the edit records, and when i64 after an undo's or redo's.
const (
	recBase    byte = 1 // kind u8 (0 files, 1 new), n u32, h u32, w u32, image dtype u8, label dtype u8, images CRC u32, labels CRC u32 [, new: classes, names]
	recRelabel byte = 2 // n u32, n × (index u32, label i32)
	recAppend  byte = 3 // n u32, pixels per sample u32, n × label i32, n × pixels (stored order)
	recDelete  byte = 4 // n u32, n × index u32
	recRestore byte = 5 // n u32, n × index u32
	recUndo    byte = 6
	recRedo    byte = 7
	recDecide  byte = 8 // index u32, label i32
)

// provenanceSize is the bytes of provenance in a version 2 edit record.
const provenanceSize = 9

// maxRecord bounds one record's payload (bytes); a longer length field is damage.
const maxRecord = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// journalFile is what a journal writes through: an *os.File, or a fault-injecting stand-in in
// tests (a full disk, a failing sync).
type journalFile interface {
	Write(p []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

// journal is an open journal file being appended to.
type journal struct {
	path string
	f    journalFile
	size int64 // bytes of intact records: where the next record starts
}

// ErrJournalWrite: an edit's journal record could not be written and synced, so the edit was not
// made (a full disk, a removed folder). Edits work again once a record can be written.
var ErrJournalWrite = errors.New("cannot record edits")

// errNotRegularJournal: something other than a regular file (a symbolic link, a folder, a FIFO)
// sits where a journal goes; idxlabel never writes through it.
var errNotRegularJournal = errors.New("not a regular file")

// openJournalFile opens the journal at path with flag, never following a symbolic link (the
// O_NOFOLLOW flag where the system has it, and a check of the file before and after opening).
// Errors: errNotRegularJournal (naming the path) or the open error.
func openJournalFile(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("journal %s: %w (%s); refusing to use it", path, errNotRegularJournal, fi.Mode().Type())
	}
	f, err := os.OpenFile(path, flag|oNoFollow, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w; refusing to use it", path, errNotRegularJournal)
	}
	return f, nil
}

// createJournal starts a journal at path holding only the base record: written to a temporary
// file, synced and renamed into place, so a failure leaves no empty or partial journal behind.
// A file already at path is never overwritten: a journal with edit records (or anything that is
// not an empty journal) is moved aside to "<path>.<time>.kept" first. Errors: errNotRegularJournal
// when path is a symbolic link or other non-regular file, and any write error.
func createJournal(path string, base []byte) (*journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("journal %s: %w (%s); refusing to use it", path, errNotRegularJournal, fi.Mode().Type())
		}
		if c, err := readJournal(path); err != nil || len(c.records) > 0 {
			if err := os.Rename(path, path+"."+time.Now().Format("20060102-150405")+".kept"); err != nil {
				return nil, fmt.Errorf("journal %s holds edits and cannot be moved aside: %w", path, err)
			}
		}
	}
	head := append([]byte(journalMagic), frame(base)...)
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(head)
		return err
	})
	if err != nil {
		return nil, err
	}
	f, err := openJournalFile(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	return &journal{path: path, f: f, size: int64(len(head))}, nil
}

// reopenJournal opens an existing journal for appending after its good prefix of size bytes,
// cutting off any damaged tail (the caller keeps a copy of a tail that held records).
func reopenJournal(path string, size int64) (*journal, error) {
	f, err := openJournalFile(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	return &journal{path: path, f: f, size: size}, nil
}

// frame returns a record: length, CRC-32C, payload.
func frame(payload []byte) []byte {
	buf := make([]byte, 8, 8+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[4:], crc32.Checksum(payload, castagnoli))
	return append(buf, payload...)
}

// append writes one record in a single write and syncs it to disk. If either fails, the file is
// cut back to its intact records (so a later record never follows a torn one) and the error
// wraps ErrJournalWrite, saying "disk full" for ENOSPC.
func (j *journal) append(payload []byte) error {
	rec := frame(payload)
	_, err := j.f.Write(rec)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		j.f.Truncate(j.size)
		return journalWriteError(err, "journal "+j.path)
	}
	j.size += int64(len(rec))
	return nil
}

// journalWriteError is the error of an edit refused because its journal could not be written
// (where: which journal, and how): it wraps ErrJournalWrite and says "disk full" for ENOSPC.
func journalWriteError(err error, where string) error {
	cause := err.Error()
	if diskFull(err) {
		cause = "disk full"
	}
	return fmt.Errorf("%w: %s (%s); the edit was not made", ErrJournalWrite, cause, where)
}

func (j *journal) close() error { return j.f.Close() }

// journalContents is what readJournal found.
type journalContents struct {
	version int      // 1 or 2 (the magic)
	base    []byte   // the base record's payload
	records [][]byte // the edit records' payloads, in order
	ends    []int64  // ends[k]: file offset just past records[k] (ends of the good prefix)
	good    int64    // length of the good prefix (magic, base, intact records)
	damaged int64    // bytes after the good prefix
}

// errNotJournal: the file does not start with a journal magic.
var errNotJournal = errors.New("not an idxlabel journal")

// readJournal reads a journal and splits it into records, stopping at the first record whose
// length or CRC-32C does not hold. Errors: the file cannot be read, it lacks the magic, or its
// base record is damaged.
func readJournal(path string) (*journalContents, error) {
	f, err := openJournalFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if limit := idx.MaxData(); fi.Size() > limit {
		return nil, fmt.Errorf("%s: the journal is %d bytes, above the limit of %d bytes", path, fi.Size(), limit)
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &journalContents{}
	switch {
	case len(b) < len(journalMagic):
		return nil, fmt.Errorf("%s: %w", path, errNotJournal)
	case string(b[:len(journalMagic)]) == journalMagic:
		c.version = 2
	case string(b[:len(journalMagicV1)]) == journalMagicV1:
		c.version = 1
	default:
		return nil, fmt.Errorf("%s: %w", path, errNotJournal)
	}
	off := int64(len(journalMagic))
	for {
		rest := b[off:]
		if len(rest) < 8 {
			break
		}
		n := int64(binary.LittleEndian.Uint32(rest))
		if n > maxRecord || n > int64(len(rest))-8 {
			break
		}
		payload := rest[8 : 8+n]
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) || n == 0 {
			break
		}
		off += 8 + n
		if c.base == nil {
			c.base = payload
			c.good = off
			continue
		}
		c.records = append(c.records, payload)
		c.ends = append(c.ends, off)
		c.good = off
	}
	if c.base == nil || c.base[0] != recBase {
		return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
	}
	c.damaged = int64(len(b)) - c.good
	return c, nil
}

// enc builds a record payload.
type enc []byte

func (e enc) u8(v byte) enc    { return append(e, v) }
func (e enc) u32(v uint32) enc { return binary.LittleEndian.AppendUint32(e, v) }
func (e enc) i32(v int32) enc  { return e.u32(uint32(v)) }
func (e enc) i64(v int64) enc  { return binary.LittleEndian.AppendUint64(e, uint64(v)) }
func (e enc) bytes(b []byte) enc {
	return append(e, b...)
}

// dec reads a record payload; any read past the end sets err and returns zeros. The first error
// is kept: once err is set, every later read returns zeros and leaves it as it is.
type dec struct {
	b   []byte
	err error
}

func (r *dec) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = errors.New("record too short")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *dec) u8() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *dec) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *dec) i32() int32 { return int32(r.u32()) }

func (r *dec) i64() int64 {
	if b := r.take(8); b != nil {
		return int64(binary.LittleEndian.Uint64(b))
	}
	return 0
}

// count reads a u32 element count and checks that size bytes per element remain; 0 when they
// do not (err set). The check is made in 64 bits, before the count becomes an int, so a count
// of 2³²-1 is never a negative int on a 32-bit system.
func (r *dec) count(size int) int {
	n := uint64(r.u32())
	if r.err != nil {
		return 0
	}
	if !r.fits(n, size) {
		r.err = errors.New("record count exceeds its length")
		return 0
	}
	return int(n)
}

// fits reports whether n elements of size bytes remain, computed in 64 bits (n < 2³², size
// < 2³¹: the product cannot overflow).
func (r *dec) fits(n uint64, size int) bool {
	return size >= 0 && n*uint64(size) <= uint64(len(r.b))
}

// takeElems takes n elements of size bytes, checking the length in 64 bits (fits) before
// multiplying in int, so n×size never overflows on a 32-bit system.
func (r *dec) takeElems(n, size int) []byte {
	if r.err == nil && (n < 0 || !r.fits(uint64(n), size)) {
		r.err = errors.New("record too short")
	}
	if r.err != nil {
		return nil
	}
	return r.take(n * size)
}
