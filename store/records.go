package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
)

// record encodings of the actions (see journal.go for the layout).

// prov appends an edit's provenance: how u8, when i64 (version 2).
func (e enc) prov(p provenance) enc { return e.u8(byte(p.how)).i64(p.when) }

func (a *relabel) record() []byte {
	e := enc{recRelabel}.prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.to[k])
	}
	return e
}

func (a *appendSamples) record() []byte {
	n := len(a.labels)
	e := make(enc, 0, 9+provenanceSize+4*n+len(a.pixels)).u8(recAppend).prov(a.provenance).u32(uint32(n)).u32(uint32(len(a.pixels) / max(n, 1)))
	for _, l := range a.labels {
		e = e.i32(l)
	}
	return e.bytes(a.pixels)
}

func (a *setDeleted) record() []byte {
	t := recDelete
	if !a.to {
		t = recRestore
	}
	e := enc{t}.prov(a.provenance).u32(uint32(len(a.idx)))
	for _, i := range a.idx {
		e = e.u32(uint32(i))
	}
	return e
}

func (a *decide) record() []byte {
	return enc{recDecide}.prov(a.provenance).u32(uint32(a.i)).i32(a.to)
}

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

// castagnoli is the CRC-32C table (hardware-accelerated by hash/crc32 on amd64 and arm64): the
// content hash of the stamps and the fingerprint of the files in a journal's base record.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
		u32(crc32.Checksum(m.imageData, castagnoli)).u32(crc32.Checksum(m.labelData, castagnoli))
	if kind == baseNew {
		e = e.u32(uint32(len(m.declared)))
		for _, c := range m.declared {
			e = e.i32(int32(c))
		}
		classes := slices.Sorted(func(yield func(int) bool) {
			for c := range m.names {
				if !yield(c) {
					return
				}
			}
		})
		e = e.u32(uint32(len(classes)))
		for _, c := range classes {
			e = e.i32(int32(c)).u32(uint32(len(m.names[c]))).bytes([]byte(m.names[c]))
		}
	}
	return e
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
	nb := &newBase{h: int(r.u32()), w: int(r.u32()), names: map[int]string{}}
	r.take(10)
	for range r.count(4) {
		nb.declared = append(nb.declared, int(r.i32()))
	}
	for range r.count(8) {
		c := r.i32()
		nb.names[int(c)] = string(r.take(int(r.u32())))
	}
	if r.err != nil {
		return nil, fmt.Errorf("damaged base record: %v", r.err)
	}
	return nb, nil
}

// errNoSample: a journaled step names no sample. An edit of no sample is never made (Relabel,
// Delete, Restore and Append of nothing do nothing), so such a record is damage; accepted, its
// name (UndoName) would have nothing to name.
var errNoSample = errors.New("a step on no sample")

// distinct returns an error when a journaled step names a sample twice. An edit names each
// sample once (SetLabels, Delete and Restore leave repeats out, a save's renumbering keeps
// numbers apart); a relabel naming one twice would be undone wrong (its revert restores the
// labels before it in order, the second of them being the first's result).
func distinct(idx []int32) error {
	s := slices.Clone(idx)
	slices.Sort(s)
	for k := 1; k < len(s); k++ {
		if s[k] == s[k-1] {
			return fmt.Errorf("a step naming sample %d twice", s[k])
		}
	}
	return nil
}

// decodeEdit decodes the body of an edit record of type t (after any provenance) into the
// action it journals, checking it against m (m.mu held): a relabel, deletion, restore or append
// names at least one sample (errNoSample), each at most once (distinct).
func (m *model) decodeEdit(t byte, r *dec) (action, error) {
	switch t {
	case recRelabel:
		n := r.count(8)
		if r.err == nil && n == 0 {
			return nil, errNoSample
		}
		a := &relabel{idx: make([]int32, n), to: make([]int32, n)}
		for k := range n {
			a.idx[k], a.to[k] = r.i32(), r.i32()
			if r.err == nil && (a.idx[k] < 0 || int(a.idx[k]) >= len(m.labels)) {
				return nil, fmt.Errorf("relabel of sample %d, beyond the %d samples", a.idx[k], len(m.labels))
			}
			if r.err == nil {
				if err := m.checkLabel(int(a.to[k])); err != nil {
					return nil, fmt.Errorf("relabel of sample %d: %w", a.idx[k], err)
				}
			}
		}
		if r.err == nil {
			r.err = distinct(a.idx)
		}
		return a, r.err
	case recAppend:
		n := r.count(4)
		if r.err == nil && n == 0 {
			return nil, errNoSample
		}
		pps := int(r.u32())
		if r.err == nil && pps != m.h*m.w {
			return nil, fmt.Errorf("appended samples of %d pixels in a dataset of %d×%d", pps, m.h, m.w)
		}
		a := &appendSamples{labels: make([]int32, n)}
		for k := range n {
			a.labels[k] = r.i32()
			if r.err == nil {
				if err := m.checkLabel(int(a.labels[k])); err != nil {
					return nil, fmt.Errorf("appended sample %d: %w", k, err)
				}
			}
		}
		a.pixels = slices.Clone(r.takeElems(n, pps))
		if r.err == nil && len(r.b) != 0 {
			r.err = errors.New("extra bytes after the appended pixels")
		}
		return a, r.err
	case recDelete, recRestore:
		n := r.count(4)
		if r.err == nil && n == 0 {
			return nil, errNoSample
		}
		a := &setDeleted{idx: make([]int32, n), to: t == recDelete}
		for k := range n {
			a.idx[k] = r.i32()
			if r.err == nil && (a.idx[k] < 0 || int(a.idx[k]) >= len(m.labels)) {
				return nil, fmt.Errorf("deletion of sample %d, beyond the %d samples", a.idx[k], len(m.labels))
			}
		}
		if r.err == nil {
			r.err = distinct(a.idx)
		}
		return a, r.err
	case recDecide:
		a := &decide{i: r.i32(), to: r.i32()}
		if r.err == nil && (a.i < 0 || int(a.i) >= len(m.labels)) {
			return nil, fmt.Errorf("decision on sample %d, beyond the %d samples", a.i, len(m.labels))
		}
		if r.err == nil {
			if err := m.checkLabel(int(a.to)); err != nil {
				return nil, fmt.Errorf("decision on sample %d: %w", a.i, err)
			}
		}
		return a, r.err
	}
	return nil, fmt.Errorf("unknown record type %d", t)
}
