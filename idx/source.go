package idx

import (
	"context"
	"io"
)

// Source is the content of an IDX file to write: its header, and its data, which WriteData
// writes to w in C order and in the file's byte order (big-endian for multi-byte types), exactly
// SourceHeader().DataSize() bytes, returning w's first error. WriteData may be called more than
// once (a write, then a check that reads the file back) and must write the same bytes each time.
// An *Array is a Source; a Source that holds its data in pieces (rows of several buffers) lets a
// file of any size be written and checked without assembling it in one buffer.
type Source interface {
	SourceHeader() Header
	WriteData(w io.Writer) error
}

// SourceHeader returns a's header: an *Array is a Source.
func (a *Array) SourceHeader() Header { return a.Header }

// WriteData writes a's data to w (see Source).
func (a *Array) WriteData(w io.Writer) error {
	_, err := w.Write(a.Data)
	return err
}

// WriteSourceContext is WritePendingContext for any Source: the header, then the data as
// src.WriteData gives it, into a new temporary file beside target (gzip when target ends in
// ".gz"), fsynced and returned uncommitted (see CreateFunc). ctx is checked before every MiB
// written: a cancelled write ends within a MiB of compression, removes the temporary file and
// returns ctx's error. Memory: the 1 MiB write buffer and the gzip writer's state, besides what
// src holds. Errors: ctx's, those of CreateFunc (a header that does not validate, a *FormatError
// wrapping ErrShape when src wrote another number of bytes than its header declares), or src's.
func WriteSourceContext(ctx context.Context, target string, src Source) (*Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return CreateFunc(target, src.SourceHeader(), func(w io.Writer) error {
		return src.WriteData(ctxWriter{ctx, w})
	})
}
