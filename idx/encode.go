package idx

import "io"

// Encode writes a as an IDX stream: the magic number, one big-endian uint32 per dimension, then
// the data as stored (IDX spec). Errors: a *FormatError wrapping ErrShape (or a header
// validation error) when a is inconsistent, nothing written; otherwise w's error.
func Encode(w io.Writer, a *Array) error {
	if err := a.Check(); err != nil {
		return err
	}
	var buf [4 + 4*MaxRank]byte
	if _, err := w.Write(AppendHeader(buf[:0], a.Header)); err != nil {
		return err
	}
	_, err := w.Write(a.Data)
	return err
}
