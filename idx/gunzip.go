package idx

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	kflate "github.com/klauspost/compress/flate"
	kgzip "github.com/klauspost/compress/gzip"
)

// gzip header flags (RFC 1952, 2.3.1).
const (
	gzFHCRC    = 1 << 1
	gzFEXTRA   = 1 << 2
	gzFNAME    = 1 << 3
	gzFCOMMENT = 1 << 4
	gzReserved = 0xe0
)

// gunzip decompresses a gzip file member after member (RFC 1952): klauspost/compress's flate
// decodes each member's deflate data, and gunzip checks its CRC-32 and length (the trailer). It
// reads each member's header itself, so that a stored file name or comment of any length is
// skipped without being held (klauspost's gzip reader, like Go's compress/gzip, refuses names of
// 512 bytes or more, which gzip(1) and Python's gzip read). After a member it decides, as
// Python's gzip module does, what follows: nothing ends the stream; zero bytes (padding some
// tools add to fill a block) are skipped; another member is read on; any other byte is
// trailing junk, an error naming its offset (gzip(1) warns "trailing garbage ignored"; Python
// raises "Not a gzipped file"). Memory is the decoder's window and one 64 KiB buffer, whatever
// the names' lengths.
type gunzip struct {
	src  *countingReader // the file, under br
	br   *bufio.Reader
	fr   io.ReadCloser // the member's deflate data
	crc  uint32        // CRC-32 of the member's bytes so far
	size uint32        // the member's length so far, mod 2^32
	err  error         // sticky: io.EOF after the last member, or the error that stopped the stream
}

// newGunzip starts decompressing r, reading the first member's header. Errors: a *FormatError
// wrapping ErrTruncated (the header is incomplete) or ErrCompressed (not a valid gzip header).
func newGunzip(r io.Reader) (*gunzip, error) {
	g := &gunzip{src: &countingReader{r: r}}
	g.br = bufio.NewReaderSize(g.src, 64<<10)
	if err := g.start(); err != nil {
		return nil, err
	}
	return g, nil
}

// offset returns the file offset of the next byte br gives.
func (g *gunzip) offset() int64 { return g.src.n - int64(g.br.Buffered()) }

// start reads a member's header at the current position and starts decoding its data.
func (g *gunzip) start() error {
	if err := readGzipHeader(g.br); err != nil {
		return err
	}
	g.crc, g.size = 0, 0
	if g.fr == nil {
		g.fr = kflate.NewReader(g.br)
	} else if err := g.fr.(kflate.Resetter).Reset(g.br, nil); err != nil {
		return err
	}
	return nil
}

// Read returns decompressed bytes; see gunzip. Errors: a *FormatError wrapping ErrCompressed
// (corrupt deflate data, a CRC-32 or length that does not match the trailer), ErrTruncated (the
// stream ends inside a member) or ErrTrailing (junk after the last member).
func (g *gunzip) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.fr.Read(p)
		g.crc = crc32.Update(g.crc, crc32.IEEETable, p[:n])
		g.size += uint32(n)
		if err == io.EOF {
			err = g.endMember()
		}
		if err != nil {
			g.err = classifyReadError(err)
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, g.err
}

// endMember checks a member's trailer (CRC-32 and length, little-endian) and decides what
// follows (next).
func (g *gunzip) endMember() error {
	var trailer [8]byte
	if _, err := io.ReadFull(g.br, trailer[:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if binary.LittleEndian.Uint32(trailer[:4]) != g.crc || binary.LittleEndian.Uint32(trailer[4:]) != g.size {
		return &FormatError{Err: ErrCompressed, Detail: "gzip: the member's CRC-32 or length does not match its data", Cause: kgzip.ErrChecksum}
	}
	return g.next()
}

// next decides what follows a member that ended (see gunzip): io.EOF when nothing but zero
// bytes does, nil when another member starts (its header read), else an error.
func (g *gunzip) next() error {
	for {
		b, err := g.br.Peek(1)
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			return err
		}
		if b[0] != 0 {
			break
		}
		g.br.Discard(1)
	}
	if b, _ := g.br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		return g.start()
	}
	at := g.offset()
	junk, err := io.Copy(io.Discard, io.LimitReader(g.br, 1<<20))
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%d bytes that are not a gzip member follow", junk)
	switch {
	case junk == 1<<20:
		what = "at least " + what
	case junk == 1:
		what = "1 byte that is not a gzip member follows"
	}
	return &FormatError{Err: ErrTrailing, Detail: fmt.Sprintf("%s the gzip stream, from byte %d (gzip ignores them with a warning, Python's gzip refuses them); head -c %d keeps the stream", what, at, at)}
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readGzipHeader reads a gzip member's header from in (RFC 1952, 2.3): magic 0x1f 0x8b, method 8
// (deflate), flags, time, extra flags, OS, then the optional extra field, file name, comment and
// header CRC-16, which are read and checked but not kept (a name or comment may be of any
// length). Errors: a *FormatError wrapping
// ErrTruncated when the input ends inside the header, or ErrCompressed for a header that is not
// a gzip member's (wrong magic, method or reserved flags, a header CRC that does not match).
func readGzipHeader(in *bufio.Reader) error {
	crc := crc32.NewIEEE()
	read := func(p []byte) error {
		if _, err := io.ReadFull(in, p); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return &FormatError{Err: ErrTruncated, Detail: "the gzip header is incomplete", Cause: err}
			}
			return err
		}
		crc.Write(p)
		return nil
	}
	bad := func(what string) error {
		return &FormatError{Err: ErrCompressed, Detail: "gzip: invalid header: " + what, Cause: kgzip.ErrHeader}
	}
	head := make([]byte, 10)
	if err := read(head); err != nil {
		return err
	}
	switch {
	case head[0] != 0x1f || head[1] != 0x8b:
		return bad("not the gzip magic number 0x1f 0x8b")
	case head[2] != 8:
		return bad(fmt.Sprintf("compression method %d, not 8 (deflate)", head[2]))
	case head[3]&gzReserved != 0:
		return bad(fmt.Sprintf("reserved flags set (0x%02x)", head[3]))
	}
	flags := head[3]
	if flags&gzFEXTRA != 0 {
		var xlen [2]byte
		if err := read(xlen[:]); err != nil {
			return err
		}
		if err := skip(in, crc, int64(binary.LittleEndian.Uint16(xlen[:]))); err != nil {
			return err
		}
	}
	for _, f := range []byte{gzFNAME, gzFCOMMENT} {
		if flags&f == 0 {
			continue
		}
		for { // up to and including a zero byte, however long
			b, err := in.ReadByte()
			if err != nil {
				return truncatedHeader(err)
			}
			crc.Write([]byte{b})
			if b == 0 {
				break
			}
		}
	}
	if flags&gzFHCRC != 0 {
		want := uint16(crc.Sum32())
		var got [2]byte
		if err := read(got[:]); err != nil {
			return err
		}
		if binary.LittleEndian.Uint16(got[:]) != want {
			return bad("the header's CRC-16 does not match")
		}
	}
	return nil
}

// skip reads n bytes from in into crc.
func skip(in *bufio.Reader, crc io.Writer, n int64) error {
	if _, err := io.CopyN(crc, in, n); err != nil {
		return truncatedHeader(err)
	}
	return nil
}

// truncatedHeader maps the end of the input inside a gzip header to ErrTruncated.
func truncatedHeader(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &FormatError{Err: ErrTruncated, Detail: "the gzip header is incomplete", Cause: err}
	}
	return err
}
