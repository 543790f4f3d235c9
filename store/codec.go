package store

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// A record's payload is encoded (enc) and decoded (dec) here: every integer little-endian, every
// count checked against the bytes left before it is used.

// enc builds a record payload.
type enc []byte

func (e enc) u8(v byte) enc    { return append(e, v) }
func (e enc) u16(v uint16) enc { return binary.LittleEndian.AppendUint16(e, v) }
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

func (r *dec) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
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

// castagnoli is the CRC-32C table (hardware-accelerated by hash/crc32 on amd64 and arm64): the
// content hash of the stamps and the fingerprint of the files in a journal's base record.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)
