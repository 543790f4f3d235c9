package idx

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	kgzip "github.com/klauspost/compress/gzip"
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

// open opens name and detects gzip by content.
func open(name string) (*source, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a folder, not an IDX file", name)
	}
	var magic [2]byte
	n, _ := f.ReadAt(magic[:], 0)
	return &source{file: f, gzip: IsGzip(magic[:n]), fileSize: fi.Size()}, nil
}

func (s *source) Close() error { return s.file.Close() }

// gzipReader starts decompressing r, mapping a bad or incomplete gzip header to a *FormatError.
func gzipReader(r io.Reader) (*kgzip.Reader, error) {
	zr, err := kgzip.NewReader(r)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return nil, &FormatError{Err: ErrTruncated, Detail: "the gzip header is incomplete", Cause: err}
	}
	if err != nil {
		return nil, &FormatError{Err: ErrCompressed, Detail: err.Error(), Cause: err}
	}
	return zr, nil
}

// ReadFile decodes the IDX file name, plain or gzip (detected by content: magic 0x1f 0x8b), and
// closes it before returning. A plain file's declared size is checked against the file size
// before any allocation. A gzip file's is checked against the most its compressed size can
// expand to (1032:1); when the gzip trailer's length agrees with the header the data is
// allocated once and decompressed in one call (libdeflate, see FastGunzip), otherwise it streams
// through klauspost/compress and the buffer grows only as bytes arrive. Errors: those of Decode
// with File set to name, or the *os.PathError of opening or reading it.
func ReadFile(name string) (*Array, error) {
	s, err := open(name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var a *Array
	if s.gzip {
		a, err = readGzip(s)
	} else {
		var h Header
		if h, err = DecodeHeader(s.file); err == nil {
			a, err = decodeData(s.file, h, remaining(s.file), 0)
		}
	}
	if err != nil {
		return nil, withFile(err, name)
	}
	return a, nil
}

// readGzip reads the whole compressed file (its size is on disk, so this allocation is bounded)
// and decodes it.
func readGzip(s *source) (*Array, error) {
	comp := make([]byte, s.fileSize)
	if _, err := io.ReadFull(s.file, comp); err != nil {
		return nil, err
	}
	zr, err := gzipReader(bytes.NewReader(comp))
	if err != nil {
		return nil, err
	}
	h, err := DecodeHeader(zr)
	if err != nil {
		return nil, err
	}
	size := h.DataSize()
	if most := s.fileSize * maxDeflateRatio; size > most {
		return nil, &FormatError{Err: ErrTruncated, Detail: fmt.Sprintf(
			"header %s declares %d bytes of data, more than a %d-byte gzip file can hold (at most %d)", h, size, s.fileSize, most)}
	}
	var trusted int64
	if len(comp) >= 18 && int64(binary.LittleEndian.Uint32(comp[len(comp)-4:])) == (int64(h.Size())+size)%(1<<32) {
		trusted = size
		out := make([]byte, int64(h.Size())+size)
		if gunzipWhole(comp, out) {
			return &Array{Header: h, Data: out[h.Size():]}, nil
		}
	}
	return decodeData(zr, h, -1, trusted)
}

// ReadHeaderFile decodes only the header of the IDX file name (plain or gzip), like
// image.DecodeConfig. Errors: those of DecodeHeader with File set to name, or an *os.PathError.
func ReadHeaderFile(name string) (Header, error) {
	s, err := open(name)
	if err != nil {
		return Header{}, err
	}
	defer s.Close()
	var r io.Reader = s.file
	if s.gzip {
		zr, err := gzipReader(bufio.NewReaderSize(s.file, 4096))
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
// Errors: the *os.PathError of opening or reading it.
func IsGzipFile(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var magic [2]byte
	n, err := f.Read(magic[:])
	if err != nil && err != io.EOF {
		return false, err
	}
	return IsGzip(magic[:n]), nil
}
