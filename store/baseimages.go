package store

import (
	"hash/crc32"
	"io"
	"slices"
	"sort"

	"idxlabel/idx"
	"idxlabel/internal/yield"
)

// baseImages is the base's image data held as rows of one or more buffers (segments) instead
// of one buffer of baseN rows: base sample k is row rows[k] of the segments, counted through
// them in order (segs[0]'s rows first). A save that leaves samples out or takes appended ones
// in writes its image file from these rows and then makes them the base by a new rows, with no
// copy of the data (planImages, rebase): a save's memory stays about the data's, where a copy
// of the kept samples would double it. The old buffer cannot be compacted in place instead:
// Pixels and Snapshot hand out views into it that must stay unchanged.
//
// Neither a baseImages nor its buffers are ever written once made; a save makes a new one.
// Memory: the segments (raw data, and display pixels where the dtype is not ubyte) and 4 bytes
// a sample for rows (uint32: at most 2³² rows over all segments); settle says which segments a
// save lets go or copies, so that at most 3× the data used stays.
type baseImages struct {
	header  idx.Header // the samples' header: Dims[0] = len(rows)
	segs    []imageSeg
	rows    []uint32 // base sample → row in the count over segs
	rawSize int      // bytes of one sample's raw data: H·W elements of the dtype
	pxSize  int      // bytes of one sample's display pixels: H·W
}

// imageSeg is one buffer of rows of a baseImages: raw data in the dtype's bytes, and display
// pixels (raw itself for ubyte).
type imageSeg struct {
	raw, px []byte
	first   int // the number of its first row in the count over all segments
	n       int // its rows
}

// maxSegs is the most segments a base keeps: a save that would leave more copies the rows of
// the two smallest into one (settle), so a row is found in a few steps whatever the number of
// saves, for a copy of at most 2/(maxSegs+1) of the data.
const maxSegs = 8

// Len returns the number of samples.
func (b *baseImages) Len() int { return len(b.rows) }

// find returns the index of the segment holding row g and g's number within it.
func (b *baseImages) find(g int) (int, int) {
	s := 0
	if len(b.segs) > 1 {
		s = sort.Search(len(b.segs), func(s int) bool { return b.segs[s].first > g }) - 1
	}
	return s, g - b.segs[s].first
}

// raw returns sample k's raw data (a view, capacity clipped).
func (b *baseImages) raw(k int) []byte {
	s, r := b.find(int(b.rows[k]))
	return b.segs[s].raw[r*b.rawSize : (r+1)*b.rawSize : (r+1)*b.rawSize]
}

// pixels returns sample k's display pixels (a view, capacity clipped).
func (b *baseImages) pixels(k int) []byte {
	s, r := b.find(int(b.rows[k]))
	return b.segs[s].px[r*b.pxSize : (r+1)*b.pxSize : (r+1)*b.pxSize]
}

// runs calls yield with the samples' raw data in order, as long pieces as the rows allow
// (samples stored one after another in one segment come as one piece), until yield returns false.
func (b *baseImages) runs(yield func([]byte) bool) {
	for k := 0; k < len(b.rows); {
		i, r := b.find(int(b.rows[k]))
		s := &b.segs[i]
		end := k + 1
		for end < len(b.rows) && int(b.rows[end]) == int(b.rows[end-1])+1 && int(b.rows[end])-s.first < s.n {
			end++
		}
		if !yield(s.raw[r*b.rawSize : (r+end-k)*b.rawSize]) {
			return
		}
		k = end
	}
}

// SourceHeader returns the samples' header: a baseImages is the idx.Source a save writes.
func (b *baseImages) SourceHeader() idx.Header { return b.header }

// WriteData writes the samples' raw data in order (see idx.Source).
func (b *baseImages) WriteData(w io.Writer) error {
	var err error
	b.runs(func(p []byte) bool {
		_, err = w.Write(p)
		return err == nil
	})
	return err
}

// crc returns the CRC-32C of the samples' raw data in order: the checksum of the image file's
// data that a journal's base record holds.
func (b *baseImages) crc() uint32 {
	var c uint32
	b.runs(func(p []byte) bool {
		c = crc32.Update(c, castagnoli, p)
		return true
	})
	return c
}

// array returns the samples as one array: the segment itself when the samples are its rows in
// order, otherwise a copy (yielding as it copies, see yielder).
func (b *baseImages) array() *idx.Array {
	a := &idx.Array{Header: b.header}
	if len(b.segs) == 1 && b.isSpan(b.segs[0].n) {
		a.Data = b.segs[0].raw
		return a
	}
	a.Data = make([]byte, 0, b.header.DataSize())
	var y yield.Yielder
	b.runs(func(p []byte) bool {
		a.Data = append(a.Data, p...)
		y.Add(len(p))
		return true
	})
	return a
}

// isSpan reports whether the samples are rows 0…n−1 in order.
func (b *baseImages) isSpan(n int) bool {
	if len(b.rows) != n {
		return false
	}
	for k, g := range b.rows {
		if int(g) != k {
			return false
		}
	}
	return true
}

// settle returns b as a base keeps it: segments no sample uses let go; the rows used of those
// mostly unused (fewer than a third of their rows: a save after deleting most samples) copied
// into one new segment, and those of the two smallest (by the rows used) too while there are
// more than maxSegs, their buffers let go. b is not changed. So what stays is at most 3× the
// rows used, and the copy made is at most a third of what b held (the buffers let go are freed
// once no Pixels view or Snapshot holds them).
func (b *baseImages) settle() *baseImages {
	used := make([]int, len(b.segs))
	for _, g := range b.rows {
		s, _ := b.find(int(g))
		used[s]++
	}
	out := &baseImages{header: b.header, rawSize: b.rawSize, pxSize: b.pxSize, rows: make([]uint32, len(b.rows))}
	keep := make([]bool, len(b.segs))
	var merged []int // segments whose used rows go to a new segment
	for s, seg := range b.segs {
		switch {
		case used[s] == 0: // let go
		case 3*used[s] < seg.n:
			merged = append(merged, s)
		default:
			keep[s] = true
		}
	}
	live := func() []int {
		var l []int
		for s, k := range keep {
			if k {
				l = append(l, s)
			}
		}
		return l
	}
	for l := live(); len(l)+min(len(merged), 1) > maxSegs; l = live() {
		slices.SortFunc(l, func(x, y int) int { return used[x] - used[y] })
		take := l[:2]
		if len(merged) > 0 {
			take = l[:1] // the new segment counts as one already
		}
		for _, s := range take {
			keep[s] = false
			merged = append(merged, s)
		}
	}
	// Kept segments keep their buffers, renumbered; the merged ones' used rows follow, copied.
	first := make([]int, len(b.segs))
	next := 0
	for s, seg := range b.segs {
		if keep[s] {
			first[s] = next
			out.segs = append(out.segs, imageSeg{raw: seg.raw, px: seg.px, first: next, n: seg.n})
			next += seg.n
		}
	}
	var copied imageSeg
	if len(merged) > 0 {
		n := 0
		for _, s := range merged {
			n += used[s]
		}
		copied = imageSeg{raw: make([]byte, 0, n*b.rawSize), first: next, n: n}
		if !sameBuffer(b.segs[merged[0]].raw, b.segs[merged[0]].px) {
			copied.px = make([]byte, 0, n*b.pxSize)
		}
	}
	var y yield.Yielder
	for k, g := range b.rows {
		s, r := b.find(int(g))
		seg := &b.segs[s]
		if keep[s] {
			out.rows[k] = uint32(first[s] + r)
			continue
		}
		y.Add(b.rawSize + b.pxSize)
		out.rows[k] = uint32(copied.first + len(copied.raw)/b.rawSize)
		copied.raw = append(copied.raw, seg.raw[r*b.rawSize:(r+1)*b.rawSize]...)
		if copied.px != nil {
			copied.px = append(copied.px, seg.px[r*b.pxSize:(r+1)*b.pxSize]...)
		}
	}
	if len(merged) > 0 {
		if copied.px == nil {
			copied.px = copied.raw
		}
		out.segs = append(out.segs, copied)
	}
	return out
}

// sameBuffer reports whether a and b are views of one buffer from its start (ubyte's raw data
// are its display pixels).
func sameBuffer(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
