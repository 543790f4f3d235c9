package idx

import (
	"fmt"
	"io"
)

// FileReader streams the data of one IDX file (plain or gzip, detected by content) without
// holding it: Header is decoded and checked when the file is opened, and Read returns the data
// bytes, C order, in the file's byte order, exactly Header.DataSize() of them. Memory stays
// bounded (a 64 KiB read buffer and the gzip decoder's window) whatever the header declares.
// After the last data byte, Read checks that nothing follows the data (and, for gzip, the
// stream's CRC-32 and length) before it returns io.EOF, so a reader that reaches io.EOF has
// verified the whole file.
type FileReader struct {
	Header          // the file's header, validated and checked against the file's size
	Name     string // the path as given to OpenFile
	Gzip     bool   // the file is gzip-compressed
	FileSize int64  // bytes on disk

	s    *source
	r    io.Reader // positioned at the next data byte
	left int64     // data bytes not yet returned
	err  error     // sticky: the error (or io.EOF) every later Read returns
}

// OpenFile opens the IDX file name for streaming (see FileReader). name must be a regular file:
// a FIFO, socket, device or folder is refused before anything is read, so it never blocks.
// Errors: those of DecodeHeader with File set to name; a *FormatError wrapping ErrTruncated or
// ErrTrailing when a plain file's size disagrees with its header, or ErrTruncated when a gzip
// file is too small to hold what its header declares (1032:1); an *fs.PathError wrapping
// atomicfile.ErrNotRegular; or the *os.PathError of opening it. The caller must Close it.
func OpenFile(name string) (*FileReader, error) {
	s, err := open(name)
	if err != nil {
		return nil, err
	}
	h, r, err := s.header(0)
	if err != nil {
		s.Close()
		return nil, withFile(err, name)
	}
	return &FileReader{Header: h, Name: name, Gzip: s.gzip, FileSize: s.fileSize, s: s, r: r, left: h.DataSize()}, nil
}

// Read reads up to len(p) data bytes. It returns io.EOF only after every data byte has been
// returned and the end of the file has been verified. Errors (all naming the file): a
// *FormatError wrapping ErrTruncated (the data ends early), ErrTrailing (bytes follow the data)
// or ErrCompressed (a corrupt gzip stream), or the read error of the file.
func (f *FileReader) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.left == 0 {
		if err := expectEOF(f.r, f.Header, f.Header.DataSize()); err != nil {
			f.err = withFile(err, f.Name)
			return 0, f.err
		}
		f.err = io.EOF
		return 0, io.EOF
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	switch {
	case err == io.EOF && f.left > 0:
		size := f.Header.DataSize()
		f.err = &FormatError{File: f.Name, Err: ErrTruncated, Detail: fmt.Sprintf("header %s declares %d bytes of data, found %d", f.Header, size, size-f.left)}
	case err != nil && err != io.EOF:
		f.err = withFile(classifyReadError(err), f.Name)
	}
	if f.err != nil {
		return n, f.err
	}
	return n, nil
}

// Close closes the file.
func (f *FileReader) Close() error { return f.s.Close() }
