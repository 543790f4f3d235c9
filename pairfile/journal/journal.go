// Package journal is the log of unsaved edits that a dataset keeps beside its files: an
// append-only file of records, each synced to disk before the edit it holds is reported done,
// and read back after a crash up to the first damaged record. It knows the file format (the
// magic, the framing and checksums) and how to append, sync, cut back and read; what a record
// means (the edit it holds) is the dataset's (package store). Modelled on etcd's wal. It never
// imports Fyne.
//
// File format (all integers little-endian):
//
//	"IDXLJRN4"                          8-byte magic (version 4; "IDXLJRN3", "IDXLJRN2", "IDXLJRN1" earlier)
//	record*                             u32 payload length, u32 CRC-32C of the payload, payload
//
// From version 3 on the first record is the pair: the files the edits apply to (Contents.Pair), so
// that a writer about to replace one of them finds the journal whatever the files are named
// (package store's output rule). Its payload is a count u8 (0 for a dataset without files, at
// most 2), then for each file a length u16 and its name, UTF-8 with '/' separators: relative to
// the journal's folder when the file is in it or below it, absolute otherwise. Versions 1 and 2
// have no pair record. The next record is the base: what the edits apply to (the dataset's
// fingerprint). Every later record is appended in a single write and synced. A record whose
// length or checksum does not hold ends the good prefix: Read stops there, and Reopen cuts the
// file back to it before appending again. The version tells package store how to read the
// payloads after the base (version 2 added provenance; version 3's payloads are version 2's;
// version 4 lets an append carry the marks of its samples, which an earlier idxlabel could not
// read: its magic keeps such a journal from being half replayed by one).
package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
)

// The magic numbers of the four versions, the first 8 bytes of a journal. The version tells the
// reader whether a pair record comes first (version 3 and later) and how to read the payloads
// (package store: version 2 added provenance to the edit records, version 4 marks to appended
// samples); the framing is the same.
const (
	Magic   = "IDXLJRN4"
	MagicV3 = "IDXLJRN3"
	MagicV2 = "IDXLJRN2"
	MagicV1 = "IDXLJRN1"
)

// Version is the version Create and Write write.
const Version = 4

// Record types the journal itself knows: a record's type is the first byte of its payload. The
// others (the edits: relabel, append, delete, ...) are package store's, which the journal frames
// but does not read. It knows these five because whether a journal still holds edits to replay
// (Holds) depends on them.
const (
	RecBase    byte = 1  // the base record: what the edits apply to (package store's fingerprint)
	RecUndo    byte = 6  // an undo of the last step
	RecRedo    byte = 7  // a redo of the last step undone
	RecHistory byte = 32 // the undo and redo stacks a save carried, first after the base if at all: undo count u32, redo count u32, the steps
	RecNames   byte = 9  // class names set: no step of the undo stack, but a change the files do not hold
)

// MaxName bounds the length in bytes of one name in a pair record (a path): longer is damage.
const MaxName = 4096

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
	path    string
	f       File
	size    int64 // bytes of intact records: where the next record starts
	damaged error // why the file could not be cut back to size after a failed write; nil when whole
}

// ErrWrite: a record could not be written and synced, so the edit it holds was not made (a full
// disk, a removed folder). Appends work again once a record can be written.
var ErrWrite = errors.New("cannot record edits")

// ErrNotRegular: something other than a regular file (a symbolic link, a folder, a FIFO) sits
// where a journal goes; a journal is never written or read through it. It is
// atomicfile.ErrNotRegular.
var ErrNotRegular = atomicfile.ErrNotRegular

// ErrNotJournal: the file does not start with a journal's magic.
var ErrNotJournal = errors.New("not an idxlabel journal")

// openFile opens the journal at path with flag, never following a symbolic link
// (atomicfile.OpenNoFollow). Errors: ErrNotRegular (naming the path and what is there) or the
// open error.
func openFile(path string, flag int) (*os.File, error) {
	f, _, err := atomicfile.OpenNoFollow(path, flag, 0o644)
	var pe *fs.PathError
	if errors.Is(err, ErrNotRegular) && errors.As(err, &pe) {
		return nil, fmt.Errorf("journal %s: %w", path, pe.Err)
	}
	return f, err
}

// Create starts a journal at path for the files in pair (absolute paths; none for a dataset
// without files) holding the pair record and the base record: written to a temporary file,
// synced and renamed into place, so a failure leaves no empty or partial journal behind. A file
// already at path is never overwritten: one with records after its base (or anything that is
// not a journal) is moved aside to "<path>.<time>.kept" first ("<path>.<time>-<k>.kept" when that
// is taken: atomicfile.MoveAside, never over another file). Errors: ErrNotRegular when path
// is a symbolic link or other non-regular file, a name longer than MaxName, and any write error.
func Create(path string, pair []string, base []byte) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("journal %s: %w (%s); refusing to use it", path, ErrNotRegular, fi.Mode().Type())
		}
		if c, err := Read(path, 0); err != nil || len(c.Records) > 0 {
			if _, err := atomicfile.MoveAside(path, "kept"); err != nil {
				return nil, fmt.Errorf("journal %s holds edits and cannot be moved aside: %w", path, err)
			}
		}
	}
	size, err := Write(path, pair, base, nil)
	if err != nil {
		return nil, err
	}
	f, err := openFile(path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	return &Journal{path: path, f: f, size: size}, nil
}

// Write writes a whole journal of this version, the pair record (pair: absolute paths), the base
// and records, to path atomically (temporary file, fsync, rename): a new journal, or an old one
// rewritten in this version. Nothing but a regular file at path is replaced, and a symbolic
// link there is not followed (atomicfile.WriteFileNoFollow). It returns its length in bytes.
// Errors: a name longer than MaxName or more than two, ErrNotRegular, and those of writing.
func Write(path string, pair []string, base []byte, records [][]byte) (int64, error) {
	pr, err := pairRecord(filepath.Dir(path), pair)
	if err != nil {
		return 0, fmt.Errorf("journal %s: %w", path, err)
	}
	b := append([]byte(Magic), Frame(pr)...)
	b = append(b, Frame(base)...)
	for _, p := range records {
		b = append(b, Frame(p)...)
	}
	err = atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	return int64(len(b)), err
}

// pairRecord encodes the pair record of a journal in dir (see the package comment): each file
// relative to dir, with '/' separators, when it lies in dir or below, otherwise absolute.
func pairRecord(dir string, pair []string) ([]byte, error) {
	if len(pair) > 2 {
		return nil, fmt.Errorf("a pair of %d files", len(pair))
	}
	out := []byte{byte(len(pair))}
	for _, p := range pair {
		name := p
		if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
			name = rel
		}
		name = filepath.ToSlash(name)
		if len(name) > MaxName {
			return nil, fmt.Errorf("the name %s is over %d bytes", name, MaxName)
		}
		out = binary.LittleEndian.AppendUint16(out, uint16(len(name)))
		out = append(out, name...)
	}
	return out, nil
}

// parsePair decodes a pair record of a journal in dir into absolute, cleaned paths. Errors: a
// record that does not decode (a count above 2, a name over MaxName or holding a NUL byte,
// bytes left over).
func parsePair(dir string, p []byte) ([]string, error) {
	bad := errors.New("the journal's pair record is damaged")
	if len(p) < 1 || p[0] > 2 {
		return nil, bad
	}
	n, rest := int(p[0]), p[1:]
	var out []string
	for range n {
		if len(rest) < 2 {
			return nil, bad
		}
		l := int(binary.LittleEndian.Uint16(rest))
		if l == 0 || l > MaxName || len(rest) < 2+l {
			return nil, bad
		}
		name := filepath.FromSlash(string(rest[2 : 2+l]))
		if strings.IndexByte(name, 0) >= 0 {
			return nil, bad
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		out = append(out, filepath.Clean(name))
		rest = rest[2+l:]
	}
	if len(rest) != 0 {
		return nil, bad
	}
	return out, nil
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

// Size returns the length of its intact records in bytes: where the next record goes (Reopen's
// size to go on after them).
func (j *Journal) Size() int64 { return j.size }

// Frame returns a record as the file holds it: the payload's length (u32), its CRC-32C (u32),
// the payload.
func Frame(payload []byte) []byte {
	buf := make([]byte, 8, 8+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[4:], crc32.Checksum(payload, castagnoli))
	return append(buf, payload...)
}

// Append writes one record in a single write and syncs it to disk. If either fails, the file is
// cut back to its intact records (so a later record never follows a torn one) and the error wraps
// ErrWrite, saying "disk full" when the disk is full. If the cut-back fails too, the journal is
// damaged: its file may end in torn bytes, after which a replay would stop, so the error wraps
// ErrDamaged as well, and every later Append first cuts the file back again (and syncs it) and
// refuses its record with an error wrapping ErrWrite and ErrDamaged as long as that fails: no
// record is ever written after torn bytes. Once a cut-back succeeds the journal is whole again
// and records are written as before.
func (j *Journal) Append(payload []byte) error {
	if j.damaged != nil {
		if err := j.cutBack(); err != nil {
			return j.damagedError(err)
		}
		j.damaged = nil
	}
	rec := Frame(payload)
	_, err := j.f.Write(rec)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		if terr := j.cutBack(); terr != nil {
			j.damaged = terr
			return fmt.Errorf("%w; %w", WriteError(err, "journal "+j.path), j.damage(terr))
		}
		return WriteError(err, "journal "+j.path)
	}
	j.size += int64(len(rec))
	return nil
}

// cutBack cuts the file back to its intact records and syncs it.
func (j *Journal) cutBack() error {
	if err := j.f.Truncate(j.size); err != nil {
		return err
	}
	return j.f.Sync()
}

// Damaged reports why the journal is damaged (Append), nil when it is whole.
func (j *Journal) Damaged() error { return j.damaged }

// ErrDamaged: a record could not be written, and the journal could not be cut back to its intact
// records either (Append): until a cut-back succeeds, no record is written, so no edit can be
// made. Saving keeps the edits made so far (a save writes them to the files and starts the
// journal over).
var ErrDamaged = errors.New("the journal is damaged")

// damage says that the journal is damaged, cause the cut-back's failure, and what to do: it
// wraps ErrDamaged.
func (j *Journal) damage(cause error) error {
	return fmt.Errorf("%w (%s could not be cut back to its last intact record: %v); no edit is accepted until it can be, so that none is lost: save the dataset now to keep the edits made so far (Save As to another disk if this one fails)", ErrDamaged, j.path, cause)
}

// damagedError is the refusal of a record while the journal is damaged, cause the last cut-back's
// failure: it wraps ErrWrite and ErrDamaged.
func (j *Journal) damagedError(cause error) error {
	return fmt.Errorf("%w: %w", ErrWrite, j.damage(cause))
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
	Version int      // 1 to 4 (the magic)
	Pair    []string // the files the edits apply to (version 3 and later), absolute; nil before version 3 and for a dataset without files
	Base    []byte   // the base record's payload
	Records [][]byte // the later records' payloads, in order
	Ends    []int64  // Ends[k]: file offset just past Records[k]
	Good    int64    // length of the good prefix (magic, pair, base, intact records), in bytes
	Damaged int64    // bytes after the good prefix
	baseEnd int64    // file offset just past the base record
}

// Read reads the journal at path and splits it into records, stopping at the first record whose
// length or CRC-32C does not hold. A file larger than limit bytes (limit > 0) is refused before
// it is read. Errors: the file cannot be read or is too large, ErrNotRegular, ErrNotJournal (no
// magic), a damaged or empty pair or base record, or a base record not of type RecBase.
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
	if c.Version = version(b); c.Version == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNotJournal)
	}
	off := int64(len(Magic))
	if c.Version >= 3 {
		payload, n := nextRecord(b[off:])
		if payload == nil {
			return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
		}
		if c.Pair, err = parsePair(filepath.Dir(path), payload); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		off += n
	}
	for {
		payload, n := nextRecord(b[off:])
		if payload == nil {
			break
		}
		off += n
		if c.Base == nil {
			c.Base = payload
			c.Good, c.baseEnd = off, off
			continue
		}
		c.Records = append(c.Records, payload)
		c.Ends = append(c.Ends, off)
		c.Good = off
	}
	if c.Base == nil || c.Base[0] != RecBase {
		return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
	}
	c.Damaged = int64(len(b)) - c.Good
	return c, nil
}

// version returns the version the magic at the start of b says, 0 when it is none.
func version(b []byte) int {
	if len(b) < len(Magic) {
		return 0
	}
	switch string(b[:len(Magic)]) {
	case Magic:
		return 4
	case MagicV3:
		return 3
	case MagicV2:
		return 2
	case MagicV1:
		return 1
	}
	return 0
}

// nextRecord returns the payload of the record at the start of b and the bytes it takes with its
// frame; nil when b does not start with an intact, non-empty record (too short, a length over
// MaxRecord or past b's end, a CRC-32C that does not hold).
func nextRecord(b []byte) ([]byte, int64) {
	if len(b) < 8 {
		return nil, 0
	}
	n := int64(binary.LittleEndian.Uint32(b))
	if n == 0 || n > MaxRecord || n > int64(len(b))-8 {
		return nil, 0
	}
	payload := b[8 : 8+n]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(b[4:]) {
		return nil, 0
	}
	return payload, 8 + n
}

// ReadPair reads only the pair record of the journal at path: the files its edits apply to,
// absolute (see Contents.Pair), nil for a journal before version 3 or of a dataset without
// files. It reads at most the magic and one record of at most two names, however large the
// journal. Errors: ErrNotRegular, ErrNotJournal, a damaged pair record, and those of reading.
func ReadPair(path string) ([]string, error) {
	f, err := openFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, len(Magic)+8+1+2*(2+MaxName))
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b = b[:n]
	switch version(b) {
	case 0:
		return nil, fmt.Errorf("%s: %w", path, ErrNotJournal)
	case 1, 2:
		return nil, nil
	}
	payload, _ := nextRecord(b[len(Magic):])
	if payload == nil {
		return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
	}
	pair, err := parsePair(filepath.Dir(path), payload)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pair, nil
}

// BaseEnd returns the file offset just past the base record: the length of a journal cut back
// to its base.
func (c *Contents) BaseEnd() int64 { return c.baseEnd }

// Edits returns how many of the records are edits, undos and redos (a history record is none).
func (c *Contents) Edits() int {
	n := len(c.Records)
	if n > 0 && c.Records[0][0] == RecHistory {
		n--
	}
	return n
}

// NetEmpty reports whether the records leave the dataset as the files hold it: no class names
// set (RecNames), and the undo stack ending as it began (the history record's, or empty). Each
// edit pushes a new step and clears the redo stack, an undo moves the top step to the redo stack,
// a redo moves it back. A record that cannot be followed (an undo with nothing to undo, a damaged
// history record, a history record after edits) makes it not empty, so the journal is offered
// and its replay reports the problem.
func (c *Contents) NetEmpty() bool {
	var undo, redo []int
	next, start := 0, 0
	for k, p := range c.Records {
		switch p[0] {
		case RecHistory:
			nu, nr, ok := historyCounts(p)
			if k != 0 || !ok {
				return false
			}
			for range nu {
				undo = append(undo, next)
				next++
			}
			for range nr {
				redo = append(redo, next)
				next++
			}
			start = nu
		case RecNames:
			return false // names set: the files do not hold them, whatever the steps do
		case RecUndo:
			if len(undo) == 0 {
				return false
			}
			redo, undo = append(redo, undo[len(undo)-1]), undo[:len(undo)-1]
		case RecRedo:
			if len(redo) == 0 {
				return false
			}
			undo, redo = append(undo, redo[len(redo)-1]), redo[:len(redo)-1]
		default:
			undo, redo = append(undo, next), nil
			next++
		}
	}
	// The step tokens of the history's undo stack are 0…start-1, bottom to top.
	if len(undo) != start {
		return false
	}
	for k, t := range undo {
		if t != k {
			return false
		}
	}
	return true
}

// historyCounts reads the undo and redo counts of a history record; ok is false when the record
// is too short to hold them or holds fewer bytes after them than steps (each step takes at least
// one).
func historyCounts(p []byte) (undo, redo int, ok bool) {
	if len(p) < 9 {
		return 0, 0, false
	}
	nu, nr := uint64(binary.LittleEndian.Uint32(p[1:])), uint64(binary.LittleEndian.Uint32(p[5:]))
	if nu+nr > uint64(len(p)-9) {
		return 0, 0, false
	}
	return int(nu), int(nr), true
}

// Holds reports whether the journal at path (never followed through a link) holds edits a
// dataset would offer to replay, and how many edit records it has (Edits): a regular, non-empty
// file whose records do not cancel out (NetEmpty, and no damaged tail), or one that cannot be
// read (edits 0). It reads the whole journal, at most limit bytes (0: no limit; a larger one
// cannot be read, so it holds).
func Holds(path string, limit int64) (edits int, held bool) {
	if path == "" {
		return 0, false
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return 0, false
	}
	c, err := Read(path, limit)
	if err != nil {
		return 0, true
	}
	edits = c.Edits()
	if edits == 0 || c.NetEmpty() && c.Damaged == 0 {
		return 0, false
	}
	return edits, true
}
