package idx

import (
	"errors"
	"strings"
)

// Sentinel errors for malformed IDX input. Every error Decode, DecodeHeader and the file helpers
// return for bad input is a *FormatError wrapping exactly one of these, so callers test with
// errors.Is(err, idx.ErrTruncated) and the like.
var (
	// ErrMagic: the first two bytes of the magic number are not 0x00 0x00 (IDX spec).
	ErrMagic = errors.New("not an IDX file: wrong magic number")
	// ErrDType: the type byte (third byte of the magic number) is none of the six IDX types.
	ErrDType = errors.New("unknown IDX type byte")
	// ErrRank: the rank byte (fourth byte of the magic number) is 0.
	ErrRank = errors.New("IDX rank is 0")
	// ErrEmpty: a dimension after the first is 0, so every sample would hold no elements (the
	// first, the number of samples, may be 0: see Header.Validate); or a Header built in code
	// has a negative dimension.
	ErrEmpty = errors.New("IDX dimension is 0")
	// ErrTooLarge: the product of the dimensions times the element size overflows, or exceeds
	// what the input could possibly hold.
	ErrTooLarge = errors.New("IDX dimensions too large")
	// ErrTruncated: the input ends before the header or the data it declares.
	ErrTruncated = errors.New("truncated IDX data")
	// ErrTrailing: bytes follow the data the header declares.
	ErrTrailing = errors.New("trailing bytes after IDX data")
	// ErrCompressed: the gzip stream is corrupt (bad deflate data or checksum).
	ErrCompressed = errors.New("corrupt gzip stream")
	// ErrShape: an Array whose Data length does not match its header (Encode, New).
	ErrShape = errors.New("IDX array shape does not match its data")
)

// FormatError describes malformed IDX input: which file (when known), what kind of problem
// (one of the sentinel errors above, in Err) and what was expected and found (Detail).
type FormatError struct {
	File   string // path of the file, or "" when decoding a bare reader
	Err    error  // one of ErrMagic, ErrDType, ErrRank, ErrEmpty, ErrTooLarge, ErrTruncated, ErrTrailing, ErrCompressed, ErrShape
	Detail string // what was expected and what was found, e.g. "header declares 7840000 bytes of data, found 512"
	Cause  error  // the underlying error (a gzip or I/O error), or nil
}

// Error returns "FILE: kind: detail", leaving out the parts that are empty.
func (e *FormatError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns the sentinel and, when there is one, the underlying cause.
func (e *FormatError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// withFile sets the file name on a *FormatError (if err is one and has none) and returns err.
func withFile(err error, name string) error {
	var fe *FormatError
	if errors.As(err, &fe) && fe.File == "" {
		fe.File = name
	}
	return err
}
