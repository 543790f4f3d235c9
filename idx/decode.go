package idx

import (
	"errors"
	"fmt"
	"io"
	"os"

	kflate "github.com/klauspost/compress/flate"
	kgzip "github.com/klauspost/compress/gzip"
)

// growStep is the first allocation for data whose size cannot be checked against the input
// before reading (a gzip stream): the buffer starts here and doubles as bytes arrive, so a header
// that lies about the size costs at most about twice the bytes actually present.
const growStep = 4 << 20

// Decode reads a whole IDX array (header and data) from r and checks that nothing follows the
// data. When r reports how many bytes remain (*os.File, *bytes.Reader, *bytes.Buffer,
// *strings.Reader), the declared size is checked against them before anything is allocated;
// otherwise the data buffer grows as bytes arrive and never trusts the header for a large
// allocation. Errors: those of DecodeHeader, and a *FormatError wrapping ErrTruncated (fewer data
// bytes than the header declares), ErrTrailing (more) or ErrCompressed (r is a gzip reader whose
// stream is corrupt).
func Decode(r io.Reader) (*Array, error) {
	h, err := DecodeHeader(r)
	if err != nil {
		return nil, err
	}
	return decodeData(r, h, remaining(r), 0)
}

// remaining returns how many bytes r still holds, or -1 when r cannot tell.
func remaining(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case *os.File:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// decodeData reads h's data from r. known is the exact number of bytes r holds (-1 when
// unknown); trusted, when positive, is a size the caller has good reason to believe (a gzip
// trailer that agrees with the header), so the whole buffer is allocated at once.
func decodeData(r io.Reader, h Header, known, trusted int64) (*Array, error) {
	size := h.DataSize()
	if known >= 0 {
		switch {
		case known < size:
			return nil, &FormatError{Err: ErrTruncated, Detail: fmt.Sprintf("header %s declares %d bytes of data, found %d", h, size, known)}
		case known > size:
			return nil, &FormatError{Err: ErrTrailing, Detail: fmt.Sprintf("header %s declares %d bytes of data, found %d (%d extra)", h, size, known, known-size)}
		}
		trusted = size
	}
	var buf []byte
	if trusted == size {
		buf = make([]byte, size)
	} else {
		buf = make([]byte, min(size, growStep))
	}
	n := 0
	for {
		m, err := io.ReadFull(r, buf[n:])
		n += m
		if err != nil {
			return nil, truncatedOr(err, fmt.Sprintf("header %s declares %d bytes of data, found %d", h, size, n))
		}
		if int64(n) == size {
			break
		}
		grown := make([]byte, min(size, int64(2*len(buf))))
		copy(grown, buf[:n])
		buf = grown
	}
	if known < 0 {
		if err := expectEOF(r, h, size); err != nil {
			return nil, err
		}
	}
	return &Array{Header: h, Data: buf}, nil
}

// expectEOF reads past the data to make sure nothing follows it; for a gzip reader this is also
// the read that verifies the stream's CRC-32 and length.
func expectEOF(r io.Reader, h Header, size int64) error {
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	if n == 0 {
		if err == io.EOF {
			return nil
		}
		return classifyReadError(err)
	}
	extra, err := io.CopyN(io.Discard, r, 1<<20)
	more := ""
	if err == nil {
		more = "at least "
	}
	return &FormatError{Err: ErrTrailing, Detail: fmt.Sprintf("header %s declares %d bytes of data; %s%d more bytes follow", h, size, more, extra+1)}
}

// classifyReadError wraps a corrupt-gzip error as a *FormatError with ErrCompressed, a gzip
// stream that ends early as ErrTruncated, and returns any other error (a *FormatError already
// among them) unchanged.
func classifyReadError(err error) error {
	var corrupt kflate.CorruptInputError
	var fe *FormatError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe): // already says what is wrong (gunzip's header and trailer checks)
		return err
	case errors.As(err, &corrupt), errors.Is(err, kgzip.ErrChecksum), errors.Is(err, kgzip.ErrHeader):
		return &FormatError{Err: ErrCompressed, Detail: err.Error(), Cause: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &FormatError{Err: ErrTruncated, Detail: "the gzip stream ends early", Cause: err}
	}
	return err
}
