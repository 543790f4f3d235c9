package idx

import (
	"bufio"
	"context"
	"fmt"
	"io"

	kgzip "github.com/klauspost/compress/gzip"

	"idxlabel/internal/atomicfile"
)

// GzipLevel is the compression level WriteFile and WritePending use for ".gz" targets.
var GzipLevel = kgzip.DefaultCompression

// Pending is an IDX file written in full to a temporary name beside its target and synced, not
// yet in place (see atomicfile.Pending: Commit renames it over the target, Abort removes it).
type Pending = atomicfile.Pending

// WritePending encodes a into a new temporary file beside target (gzip when target ends in
// ".gz", plain otherwise), fsyncs and closes it, and returns it uncommitted (atomicfile.Create:
// the temporary file is ".<name>.idxlabel-tmp-<random>", takes the target's permissions, and a
// target that exists must be a regular file or a symbolic link to one, which is written
// through). On any error the temporary file is removed and the target is untouched. Errors:
// those of Encode (nothing created), atomicfile.Create, or the gzip writer.
func WritePending(target string, a *Array) (*Pending, error) {
	return WritePendingContext(context.Background(), target, a)
}

// WritePendingContext is WritePending, stopped when ctx is cancelled: the data is encoded a MiB
// at a time and ctx checked before each, so a cancelled write ends within a MiB of compression;
// the temporary file is then removed and ctx's error returned.
func WritePendingContext(ctx context.Context, target string, a *Array) (*Pending, error) {
	if err := a.Check(); err != nil {
		return nil, withFile(err, target)
	}
	return atomicfile.Create(target, func(w io.Writer) error {
		return encodeTo(w, target, func(w io.Writer) error { return Encode(ctxWriter{ctx, w}, a) })
	})
}

// ctxWriter writes to w a MiB at a time, checking ctx before each.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		if err := c.ctx.Err(); err != nil {
			return done, err
		}
		n, err := c.w.Write(p[done:min(len(p), done+1<<20)])
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// encodeTo runs encode on w, through a gzip writer when target's name ends in ".gz". The gzip
// header carries no file name (RFC 1952's FNAME is optional and must be Latin-1; a name that
// is not would fail the write) and no modification time, so equal data gives equal files.
func encodeTo(w io.Writer, target string, encode func(w io.Writer) error) error {
	if !IsGzipName(target) {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := encode(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	zw, err := kgzip.NewWriterLevel(bw, GzipLevel)
	if err != nil {
		return err
	}
	if err := encode(zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFile writes a to name atomically: the whole file goes to a temporary name in the same
// folder, is fsynced, then renamed over name, so name is never half-written. name ending in
// ".gz" (any case) is written gzip-compressed. Errors: those of WritePending and Commit; on any
// error name is untouched and no temporary file is left.
func WriteFile(name string, a *Array) error {
	p, err := WritePending(name, a)
	if err != nil {
		return err
	}
	if err := p.Commit(); err != nil {
		p.Abort()
		return err
	}
	return nil
}

// WriteStream writes an IDX file of header h to name atomically (as WriteFile), taking its
// h.DataSize() data bytes from data as they come, so no more than a buffer is held: the way to
// convert a file of any size (data is typically a *FileReader). data is read to its end, so a
// FileReader verifies its input in full before name is replaced. Errors: h's validation error,
// a *FormatError wrapping ErrTruncated or ErrTrailing (naming name) when data holds fewer or more
// bytes than h declares, data's own error, or those of CreateFunc and Commit; on any error name
// is untouched and no temporary file is left.
func WriteStream(name string, h Header, data io.Reader) error {
	p, err := CreateFunc(name, h, func(w io.Writer) error {
		n, err := io.Copy(w, io.LimitReader(data, h.DataSize()))
		if err != nil {
			return err
		}
		if n < h.DataSize() {
			return &FormatError{File: name, Err: ErrTruncated, Detail: fmt.Sprintf("header %s declares %d bytes of data, the input gave %d", h, h.DataSize(), n)}
		}
		var one [1]byte
		for {
			m, err := data.Read(one[:])
			if m > 0 {
				return &FormatError{File: name, Err: ErrTrailing, Detail: fmt.Sprintf("the input gives more than the %d bytes of data header %s declares", h.DataSize(), h)}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
	if err != nil {
		return err
	}
	if err := p.Commit(); err != nil {
		p.Abort()
		return err
	}
	return nil
}

// CreateFunc writes an IDX file of header h to a new temporary file beside target (gzip when
// target ends in ".gz", plain otherwise) and returns it uncommitted, as WritePending does:
// the header, then the data bytes that data writes to w as it makes them (C order, the file's
// byte order), so a file of any size is written holding no more than data holds. data must
// write exactly h.DataSize() bytes. Errors: h's validation error, a *FormatError wrapping
// ErrShape (naming target) when data wrote another number of bytes, data's own error, or those
// of atomicfile.Create; on any error the temporary file is removed and target is untouched.
func CreateFunc(target string, h Header, data func(w io.Writer) error) (*Pending, error) {
	if err := h.Validate(); err != nil {
		return nil, withFile(err, target)
	}
	return atomicfile.Create(target, func(w io.Writer) error {
		return encodeTo(w, target, func(w io.Writer) error {
			if _, err := w.Write(AppendHeader(nil, h)); err != nil {
				return err
			}
			cw := &countWriter{w: w}
			if err := data(cw); err != nil {
				return err
			}
			if cw.n != h.DataSize() {
				return &FormatError{File: target, Err: ErrShape, Detail: fmt.Sprintf("header %s declares %d bytes of data, %d were written", h, h.DataSize(), cw.n)}
			}
			return nil
		})
	})
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
