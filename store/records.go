package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"slices"

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
// rewritten in the current version before journaling goes on (upgradeJournal). Version 4 lets an
// append record, and an append step of a history record, end with its samples' marks
// (appendmarks.go); a journal of versions 2 and 3, which holds none, is replayed as it is and
// rewritten as version 4 before journaling goes on, so that an earlier idxlabel never half
// replays a journal holding them.

// Record types, the payload's first byte: the base, undo and redo (and the history record,
// history.go) are the ones package journal knows too; each kind of edit has its own (relabel.go,
// append.go, delete.go, decide.go), laid out there as version 1 wrote it: version 2 inserts how
// u8, when i64 after the type byte of the edit records, and when i64 after an undo's or redo's.
const (
	recBase = journal.RecBase // kind u8 (0 files, 1 new), n u32, h u32, w u32, image dtype u8, label dtype u8, images CRC u32, labels CRC u32 [, new: classes, names]
	recUndo = journal.RecUndo
	recRedo = journal.RecRedo
)

// stepRecord is the record of an undo (recUndo) or redo (recRedo) made at when (Unix
// milliseconds; version 2).
func stepRecord(rec byte, when int64) []byte { return enc{rec}.i64(when) }

// upgradeRecord returns an edit, undo or redo record of version 1 as version 2: an edit gets
// provenance HowUnknown, time 0 (unknown), an undo or redo time 0. (A history record is
// re-encoded from the stacks it restored instead: upgradeJournal.)
func upgradeRecord(p []byte) []byte {
	if p[0] == recUndo || p[0] == recRedo {
		return slices.Concat(p, make([]byte, 8))
	}
	return slices.Concat(p[:1], make([]byte, provenanceSize), p[1:])
}

// baseKind distinguishes a journal of edits to files from one of a new dataset.
const (
	baseFiles byte = 0
	baseNew   byte = 1
)

// fingerprint returns the base record of a journal of edits to this model (m.mu held): for files
// (isNew false), the sample count, size, dtypes and CRC-32C of the image and label data as read;
// for a new dataset, its size, classes and names too. O(N): it reads all the data.
func (m *model) fingerprint(isNew bool) []byte {
	kind := baseFiles
	if isNew {
		kind = baseNew
	}
	e := enc{recBase}.u8(kind).u32(uint32(m.baseN)).u32(uint32(m.h)).u32(uint32(m.w)).
		u8(byte(m.imageHeader.Type)).u8(byte(m.labelHeader.Type)).
		u32(m.imageCRC()).u32(crc32.Checksum(m.labelData, castagnoli))
	if kind == baseNew {
		e = e.u32(uint32(len(m.declared)))
		for _, c := range m.declared {
			e = e.i32(int32(c))
		}
		e = e.names(m.names)
	}
	return e
}

// names appends class names, in class order: n u32, n × (class i32, length u32, UTF-8 name).
func (e enc) names(names map[int]string) enc {
	classes := slices.Sorted(maps.Keys(names))
	e = e.u32(uint32(len(classes)))
	for _, c := range classes {
		e = e.i32(int32(c)).u32(uint32(len(names[c]))).bytes([]byte(names[c]))
	}
	return e
}

// names reads class names as enc.names writes them, unchecked.
func (r *dec) names() map[int]string {
	out := map[int]string{}
	for range r.count(8) {
		c := r.i32()
		out[int(c)] = string(r.take(int(r.u32())))
	}
	return out
}

// newBase is what a new dataset's base record holds.
type newBase struct {
	h, w     int
	declared []int
	names    map[int]string
}

// parseNewBase reads a new dataset's base record. Errors: a files base, or a damaged record.
func parseNewBase(p []byte) (*newBase, error) {
	r := &dec{b: p[1:]}
	if r.u8() != baseNew {
		return nil, errors.New("the journal holds edits to files, not a new dataset")
	}
	if n := r.u32(); n != 0 {
		return nil, fmt.Errorf("the journal's dataset started with %d samples held only in memory (a demo); they cannot be restored", n)
	}
	nb := &newBase{h: int(r.u32()), w: int(r.u32())}
	r.take(10)
	for range r.count(4) {
		nb.declared = append(nb.declared, int(r.i32()))
	}
	nb.names = r.names()
	if r.err != nil {
		return nil, fmt.Errorf("damaged base record: %v", r.err)
	}
	return nb, nil
}

// decodeEdit decodes the body of an edit record of type t (after any provenance) into the
// action it journals, checked against m by its kind (m.mu held): a relabel, deletion, restore or
// append names at least one sample (errNoSample), each at most once (distinct). Errors: an
// unknown type, and the kind's.
func decodeEdit(m *model, t byte, r *dec) (action, error) {
	k, ok := editKinds[t]
	if !ok || k.decode == nil {
		return nil, fmt.Errorf("unknown record type %d", t)
	}
	return k.decode(m, t, r)
}
