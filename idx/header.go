package idx

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxRank is the largest rank an IDX header can declare: the fourth magic byte is one byte.
const MaxRank = 255

// Header is an IDX header: the element type and the size of each dimension, outermost first
// (MNIST images: UByte, [N, 28, 28]; labels: UByte, [N]). The data that follows it is in C order,
// last dimension fastest (IDX spec).
type Header struct {
	Type DType // element type (third magic byte)
	Dims []int // size of each dimension, 1 to 255 of them: the first 0 to 2^32-1, the others 1 to 2^32-1
}

// Rank returns the number of dimensions (the fourth magic byte).
func (h Header) Rank() int { return len(h.Dims) }

// Magic returns the 32-bit magic number: 0x00, 0x00, the type byte, the rank byte
// (MNIST images 0x00000803 = 2051, labels 0x00000801 = 2049).
func (h Header) Magic() uint32 { return uint32(h.Type)<<8 | uint32(len(h.Dims)) }

// Size returns the length of the encoded header in bytes: 4 + 4·rank.
func (h Header) Size() int { return 4 + 4*len(h.Dims) }

// Elements returns the product of the dimensions (the element count). It is only meaningful
// for a header that Validate accepts.
func (h Header) Elements() int64 {
	n := int64(1)
	for _, d := range h.Dims {
		n *= int64(d)
	}
	return n
}

// DataSize returns the size of the data in bytes: Elements × element size. It is only
// meaningful for a header that Validate accepts.
func (h Header) DataSize() int64 { return h.Elements() * int64(h.Type.Size()) }

// String formats the header as "0x00000803 ubyte 10000×28×28" (its dimensions as Shape).
func (h Header) String() string {
	return fmt.Sprintf("0x%08x %s %s", h.Magic(), h.Type, h.Shape())
}

// maxShownDims is the most dimensions Shape writes out one by one.
const maxShownDims = 8

// Shape formats the dimensions as "10000×28×28". A header read from an untrusted file may
// declare up to 255 dimensions: past maxShownDims (8) only the first 7 and the last are
// written, with the count between, as "1×1×1×1×1×1×1×…×1 (255 dimensions)", so a message
// naming the shape stays a line.
func (h Header) Shape() string {
	dims := h.Dims
	n := len(dims)
	if n <= maxShownDims {
		parts := make([]string, n)
		for i, d := range dims {
			parts[i] = strconv.Itoa(d)
		}
		return strings.Join(parts, "×")
	}
	parts := make([]string, 0, maxShownDims+1)
	for _, d := range dims[:maxShownDims-1] {
		parts = append(parts, strconv.Itoa(d))
	}
	parts = append(parts, "…", strconv.Itoa(dims[n-1]))
	return fmt.Sprintf("%s (%d dimensions)", strings.Join(parts, "×"), n)
}

// Validate checks the header against the IDX spec and returns a *FormatError wrapping ErrDType
// (unknown type byte), ErrRank (rank 0 or above 255), ErrEmpty (a dimension after the first of
// 0, or any dimension below 0) or ErrTooLarge (a dimension above 2^32-1, or the data size
// overflows int64 or this platform's int). The first dimension, the number of samples, may be 0:
// an empty file (a header and no data) is valid, as the spec's unsigned sizes allow, and its
// size is checked as if it held one sample, so the size of a sample always fits. A 0 further in
// is refused: each sample would hold nothing, so a header of a few bytes could declare billions
// of samples that readers count, loop over or allocate per sample.
func (h Header) Validate() error {
	if !h.Type.Valid() {
		return &FormatError{Err: ErrDType, Detail: fmt.Sprintf("expected 0x08, 0x09, 0x0b, 0x0c, 0x0d or 0x0e, found 0x%02x", byte(h.Type))}
	}
	if len(h.Dims) == 0 || len(h.Dims) > MaxRank {
		return &FormatError{Err: ErrRank, Detail: fmt.Sprintf("expected 1 to %d dimensions, found %d", MaxRank, len(h.Dims))}
	}
	limit := uint64(math.MaxInt64)
	if math.MaxInt < math.MaxInt64 {
		limit = math.MaxInt
	}
	total := uint64(h.Type.Size())
	for i, d := range h.Dims {
		if d < 0 || d == 0 && i > 0 {
			return &FormatError{Err: ErrEmpty, Detail: fmt.Sprintf("dimension %d of %s is %d", i+1, h.Shape(), d)}
		}
		if uint64(d) > math.MaxUint32 {
			return &FormatError{Err: ErrTooLarge, Detail: fmt.Sprintf("dimension %d is %d, above 2^32-1", i+1, d)}
		}
		f := uint64(max(d, 1)) // an empty file is checked as if it held one sample
		if total > limit/f {
			return &FormatError{Err: ErrTooLarge, Detail: fmt.Sprintf("%s %s elements overflow a %d-bit size", h.Shape(), h.Type, strconv.IntSize)}
		}
		total *= f
	}
	return nil
}

// AppendHeader appends the encoded header (magic number, then one big-endian uint32 per
// dimension) to b and returns the result. It does not validate h.
func AppendHeader(b []byte, h Header) []byte {
	b = binary.BigEndian.AppendUint32(b, h.Magic())
	for _, d := range h.Dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	return b
}

// DecodeHeader reads an IDX header from r, consuming exactly its 4 + 4·rank bytes and nothing of
// the data, like image.DecodeConfig. Errors: a *FormatError wrapping ErrMagic (first two bytes
// not zero), ErrDType, ErrRank, ErrEmpty, ErrTooLarge (see Header.Validate) or ErrTruncated (the
// input ends inside the header); or the reader's own error.
func DecodeHeader(r io.Reader) (Header, error) {
	var magic [4]byte
	if n, err := io.ReadFull(r, magic[:]); err != nil {
		return Header{}, truncatedOr(err, fmt.Sprintf("expected a 4-byte magic number, found %d bytes", n))
	}
	if magic[0] != 0 || magic[1] != 0 {
		return Header{}, &FormatError{Err: ErrMagic, Detail: fmt.Sprintf("expected 0x00 0x00 0xTT 0xRR, found 0x%02x 0x%02x 0x%02x 0x%02x", magic[0], magic[1], magic[2], magic[3])}
	}
	h := Header{Type: DType(magic[2])}
	if !h.Type.Valid() {
		return Header{}, h.Validate()
	}
	rank := int(magic[3])
	if rank == 0 {
		return Header{}, &FormatError{Err: ErrRank, Detail: "the fourth magic byte (the number of dimensions) is 0"}
	}
	var buf [4 * MaxRank]byte
	dims := buf[:4*rank]
	if n, err := io.ReadFull(r, dims); err != nil {
		return Header{}, truncatedOr(err, fmt.Sprintf("expected %d dimension sizes (%d bytes), found %d bytes", rank, 4*rank, n))
	}
	h.Dims = make([]int, rank)
	for i := range h.Dims {
		h.Dims[i] = int(binary.BigEndian.Uint32(dims[4*i:]))
	}
	if err := h.Validate(); err != nil {
		return Header{}, err
	}
	return h, nil
}

// truncatedOr maps an early end of input to ErrTruncated with the given detail, and passes
// other reader errors (corrupt gzip, I/O failures) through classified.
func truncatedOr(err error, detail string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &FormatError{Err: ErrTruncated, Detail: detail}
	}
	return classifyReadError(err)
}
