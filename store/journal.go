package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"idxlabel/idx"
	"idxlabel/pairfile/journal"
)

// What the journal's records hold (package journal keeps the file: magic, framing, checksums,
// append and sync, reading back). All integers little-endian.
//
// The first record is the base (recBase): a fingerprint of the files the edits apply to, or the
// size and classes of a new dataset. Every later record is one edit, undo or redo, appended and
// synced before the edit is reported done.
//
// Version 2 records provenance, so that a replayed journal gives the same change log
// (changelog.go): after the type byte of every edit record (relabel, append, delete, restore,
// decide) how u8 (a How; checkHow says which fit the type) and when i64 (Unix time in
// milliseconds); after an undo's or redo's type byte its when i64; after the kind byte of every
// step of a history record (history.go) its how u8 and when i64. Version 1 (idxlabel before the
// change log) has none: it is still replayed, its edits logged with HowUnknown and no time, and
// rewritten as version 2 before journaling goes on (upgradeJournal).

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

// ErrJournalWrite: an edit's journal record could not be written and synced, so the edit was not
// made (a full disk, a removed folder). Edits work again once a record can be written. It is
// journal.ErrWrite.
var ErrJournalWrite = journal.ErrWrite

// readJournal reads the journal at path (journal.Read, at most idx.MaxData bytes) and checks
// that its first record is a base record. Errors: those of journal.Read, and a first record of
// another type.
func readJournal(path string) (*journal.Contents, error) {
	c, err := journal.Read(path, idx.MaxData())
	if err != nil {
		return nil, err
	}
	if c.Base[0] != recBase {
		return nil, fmt.Errorf("%s: the journal's first record is damaged", path)
	}
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

// editRecords returns how many of a journal's records are edits, undos and redos (the history
// record is none).
func editRecords(records [][]byte) int {
	n := len(records)
	if n > 0 && records[0][0] == recHistory {
		n--
	}
	return n
}

// netEmpty reports whether a journal's records leave the samples as the files hold them: the
// undo stack ends as it began (the history record's, or empty). Each edit pushes a new step
// and clears the redo stack, an undo moves the top step to the redo stack, a redo moves it
// back. A record that cannot be followed (an undo with nothing to undo, a damaged history
// record) makes it not empty, so the journal is offered and its replay reports the problem.
func netEmpty(records [][]byte) bool {
	var undo, redo []int
	next := 0
	for k, p := range records {
		switch p[0] {
		case recHistory:
			r := &dec{b: p[1:]}
			nu, nr := r.count(1), r.count(1)
			if k != 0 || r.err != nil || nu+nr > len(r.b) {
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
		case recUndo:
			if len(undo) == 0 {
				return false
			}
			redo, undo = append(redo, undo[len(undo)-1]), undo[:len(undo)-1]
		case recRedo:
			if len(redo) == 0 {
				return false
			}
			undo, redo = append(undo, redo[len(redo)-1]), redo[:len(redo)-1]
		default:
			undo, redo = append(undo, next), nil
			next++
		}
	}
	start := 0
	if len(records) > 0 && records[0][0] == recHistory {
		r := &dec{b: records[0][1:]}
		start = r.count(1)
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
