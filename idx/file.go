package idx

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	"idxlabel/internal/atomicfile"
)

// maxDeflateRatio bounds what one compressed byte can expand to: deflate's longest match (258
// bytes) coded in 2 bits gives 1032:1 (RFC 1951). A gzip stream of S bytes therefore holds at most
// S·1032 bytes, which lets ReadFile refuse an impossible header before reading anything.
const maxDeflateRatio = 1032

// IsGzip reports whether b starts with the gzip magic bytes 0x1f 0x8b (RFC 1952).
func IsGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// source is an opened IDX file, with gzip detected by content (magic 0x1f 0x8b), not by name.
type source struct {
	file     *os.File
	gzip     bool
	fileSize int64 // bytes on disk
}

// open opens name, which must be a regular file (a FIFO, socket, device or folder is refused
// before anything is read, so it never blocks), and detects gzip by content.
func open(name string) (*source, error) {
	f, fi, err := atomicfile.OpenRegular(name)
	if err != nil {
		return nil, err
	}
	var magic [2]byte
	n, _ := f.ReadAt(magic[:], 0)
	return &source{file: f, gzip: IsGzip(magic[:n]), fileSize: fi.Size()}, nil
}

func (s *source) Close() error { return s.file.Close() }

// header decodes the file's IDX header (through gzip when the file is gzip) and checks the size
// it declares against what the file can hold: exactly the bytes after the header for a plain
// file, at most 1032 times the file size for gzip (maxDeflateRatio), and at most limit bytes
// when limit > 0. It returns the header and the reader positioned at the first data byte.
func (s *source) header(limit int64) (Header, io.Reader, error) {
	var r io.Reader = s.file
	if s.gzip {
		zr, err := newGunzip(s.file)
		if err != nil {
			return Header{}, nil, err
		}
		r = zr
	}
	h, err := DecodeHeader(r)
	if err != nil {
		return Header{}, nil, err
	}
	size := h.DataSize()
	if limit > 0 && size > limit {
		hint := ""
		if limit == MaxData() {
			hint = "; " + MaxDataEnv + " raises it"
		}
		return Header{}, nil, &FormatError{Err: ErrTooLarge, Detail: fmt.Sprintf(
			"header %s declares %d bytes (%s) of data, above the limit of %d bytes (%s) for reading a file whole%s", h, size, byteSize(size), limit, byteSize(limit), hint)}
	}
	if s.gzip {
		if most := s.fileSize * maxDeflateRatio; size > most {
			return Header{}, nil, &FormatError{Err: ErrTruncated, Detail: fmt.Sprintf(
				"header %s declares %d bytes of data, more than a %d-byte gzip file can hold (at most %d)", h, size, s.fileSize, most)}
		}
		return h, r, nil
	}
	known := s.fileSize - int64(h.Size())
	switch {
	case known < size:
		return Header{}, nil, &FormatError{Err: ErrTruncated, Detail: fmt.Sprintf("header %s declares %d bytes of data, found %d", h, size, known)}
	case known > size:
		return Header{}, nil, &FormatError{Err: ErrTrailing, Detail: fmt.Sprintf("header %s declares %d bytes of data, found %d (%d extra)", h, size, known, known-size)}
	}
	return h, r, nil
}

// byteSize formats n bytes for people: "1.5 GB" (powers of 1000), or "512 bytes".
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	f, suffix := float64(n), "kMGTPE"
	i := -1
	for f >= unit && i < len(suffix)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, suffix[i])
}

// ReadFile decodes the IDX file name, plain or gzip (detected by content: magic 0x1f 0x8b), and
// closes it before returning; it is ReadFileLimit without a limit. See ReadFileLimit.
func ReadFile(name string) (*Array, error) { return ReadFileLimit(name, 0) }

// ReadFileLimit decodes the IDX file name, plain or gzip (detected by content: magic 0x1f 0x8b),
// holding all of its data in memory, and closes it before returning. name must be a regular file.
// When limit > 0, a header declaring more than limit bytes of data is refused before anything is
// allocated (MaxData gives the limit for opening a dataset, and the message then names
// IDXLABEL_MAX_DATA). A plain file's declared size is
// checked against the file size before any allocation. A gzip file's is checked against the most
// its compressed size can expand to (1032:1); when the gzip trailer's length agrees with the
// header the data is allocated once and decompressed in one call (libdeflate, see FastGunzip),
// otherwise it streams (gunzip: klauspost/compress's flate) and the buffer grows only as bytes
// arrive.
// Errors: those of Decode with File set to name, a *FormatError wrapping ErrTooLarge naming the
// declared size and the limit, an *fs.PathError wrapping atomicfile.ErrNotRegular, or the
// *os.PathError of opening or reading it.
func ReadFileLimit(name string, limit int64) (*Array, error) {
	s, err := open(name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	a, err := s.read(limit)
	if err != nil {
		return nil, withFile(err, name)
	}
	return a, nil
}

func (s *source) read(limit int64) (*Array, error) {
	h, r, err := s.header(limit)
	if err != nil {
		return nil, err
	}
	if !s.gzip {
		return decodeData(r, h, h.DataSize(), 0)
	}
	return s.readGzip(h)
}

// readGzip decodes the data of a gzip file whose header h has been checked: in one call when
// the trailer's length agrees (the whole compressed file is read; its size is on disk, so this
// allocation is bounded), otherwise streaming.
func (s *source) readGzip(h Header) (*Array, error) {
	size := h.DataSize()
	var trail [4]byte
	if s.fileSize >= 18 {
		if _, err := s.file.ReadAt(trail[:], s.fileSize-4); err != nil {
			return nil, err
		}
	}
	if s.fileSize < 18 || int64(binary.LittleEndian.Uint32(trail[:])) != (int64(h.Size())+size)%(1<<32) {
		return s.streamGzip(h, 0)
	}
	if FastGunzip != "none" {
		comp := make([]byte, s.fileSize)
		if _, err := s.file.ReadAt(comp, 0); err != nil {
			return nil, err
		}
		out := make([]byte, int64(h.Size())+size)
		if gunzipWhole(comp, out) {
			return &Array{Header: h, Data: out[h.Size():]}, nil
		}
	}
	return s.streamGzip(h, size)
}

// streamGzip decodes the gzip file from its start through klauspost/compress; trusted is as for
// decodeData.
func (s *source) streamGzip(h Header, trusted int64) (*Array, error) {
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	zr, err := newGunzip(s.file)
	if err != nil {
		return nil, err
	}
	if _, err := DecodeHeader(zr); err != nil {
		return nil, err
	}
	return decodeData(zr, h, -1, trusted)
}

// ReadHeaderFile decodes only the header of the IDX file name (plain or gzip), like
// image.DecodeConfig. name must be a regular file. Errors: those of DecodeHeader with File set
// to name, an *fs.PathError wrapping atomicfile.ErrNotRegular, or an *os.PathError.
func ReadHeaderFile(name string) (Header, error) {
	s, err := open(name)
	if err != nil {
		return Header{}, err
	}
	defer s.Close()
	var r io.Reader = s.file
	if s.gzip {
		zr, err := newGunzip(s.file)
		if err != nil {
			return Header{}, withFile(err, name)
		}
		r = zr
	}
	h, err := DecodeHeader(r)
	return h, withFile(err, name)
}

// IsGzipName reports whether a file written under name should be gzip-compressed: its name
// ends in ".gz" (any case).
func IsGzipName(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".gz") }

// IsGzipFile reports whether the file name starts with the gzip magic bytes 0x1f 0x8b.
// name must be a regular file. Errors: an *fs.PathError wrapping atomicfile.ErrNotRegular, or
// the *os.PathError of opening or reading it.
func IsGzipFile(name string) (bool, error) {
	s, err := open(name)
	if err != nil {
		return false, err
	}
	defer s.Close()
	return s.gzip, nil
}
