package formats

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// What the Parquet reader checks before the library decodes anything: the footer (checkFooter)
// and, for each column chunk read, its pages' headers and compressed data (checkChunk). The
// library then allocates only what these checks found present and within the limits.

// maxMetadataAlloc is the most the footer's decoding may allocate by skimThrift's estimate:
// 256 MiB (a 1,000,000-row file of 100-row groups needs about 40 MiB).
const maxMetadataAlloc = 256 << 20

// checkFooter reads the file's footer (its last 8 bytes: the footer's length and "PAR1") and
// skims it (skimThrift): it must fit in the file after the leading "PAR1", be at most MaxFooter
// bytes, hold only what it declares, and decode within maxMetadataAlloc. It returns where the
// footer starts (the end of the data). Errors: ErrMalformed or ErrTooLarge (wrapped, naming
// name).
func checkFooter(r io.ReaderAt, size int64, name string) (int64, error) {
	var tail [8]byte
	if size < 12 {
		return 0, fmt.Errorf("%s: %w: %d bytes, shorter than a Parquet file", name, ErrMalformed, size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if string(tail[4:]) != "PAR1" {
		if string(tail[4:]) == "PARE" {
			return 0, fmt.Errorf("%s: an encrypted Parquet file: not read", name)
		}
		return 0, fmt.Errorf("%s: %w: no PAR1 at its end (truncated?)", name, ErrMalformed)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return 0, fmt.Errorf("%s: %w: a footer of %d bytes in a file of %d", name, ErrMalformed, n, size)
	}
	if n > MaxFooter {
		return 0, fmt.Errorf("%s: a footer of %d bytes: %w (at most %d)", name, n, ErrTooLarge, MaxFooter)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	used, alloc, err := skimThrift(footer, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %w: the footer: %v", name, ErrMalformed, err)
	}
	if int64(used) != n {
		return 0, fmt.Errorf("%s: %w: the footer's metadata ends %d bytes before the footer", name, ErrMalformed, n-int64(used))
	}
	if alloc > maxMetadataAlloc {
		return 0, fmt.Errorf("%s: metadata that would take %d MiB to decode: %w (at most %d MiB)", name, alloc>>20, ErrTooLarge, maxMetadataAlloc>>20)
	}
	return size - 8 - n, nil
}

// pageHeader is what checkChunk reads of a page header.
type pageHeader struct {
	typ                      int64
	uncompressed, compressed int64
	values                   int64 // num_values (data pages v1 and v2, dictionary pages)
	encoding                 int64
	levels                   int64 // v2: repetition + definition levels' bytes (never compressed)
	compressedV2             bool  // v2: is_compressed (default true)
}

// readPageHeader reads and skims the page header at pos (at most end), trying 4 KiB, then up
// to 1 MiB (a header's statistics may hold long values).
func readPageHeader(r io.ReaderAt, pos, end int64) (pageHeader, int64, error) {
	h := pageHeader{encoding: -1, compressedV2: true}
	for _, want := range []int64{4 << 10, 1 << 20} {
		buf := make([]byte, min(want, end-pos))
		k, err := r.ReadAt(buf, pos)
		if err != nil && err != io.EOF {
			return h, 0, err
		}
		buf = buf[:k]
		h = pageHeader{encoding: -1, compressedV2: true}
		n, _, err := skimThrift(buf, func(path []int16, v int64) {
			switch {
			case len(path) == 1 && path[0] == 1:
				h.typ = v
			case len(path) == 1 && path[0] == 2:
				h.uncompressed = v
			case len(path) == 1 && path[0] == 3:
				h.compressed = v
			case len(path) == 2 && (path[0] == 5 || path[0] == 7 || path[0] == 8) && path[1] == 1:
				h.values = v
			case len(path) == 2 && (path[0] == 5 || path[0] == 7) && path[1] == 2, len(path) == 2 && path[0] == 8 && path[1] == 4:
				h.encoding = v
			case len(path) == 2 && path[0] == 8 && (path[1] == 5 || path[1] == 6):
				if v < 0 {
					h.levels = -1 << 40
				}
				h.levels += v
			case len(path) == 2 && path[0] == 8 && path[1] == 7:
				h.compressedV2 = v != 0
			}
		})
		if err == nil {
			return h, int64(n), nil
		}
		if int64(len(buf)) < want { // the chunk's bytes ended: nothing more to read
			return h, 0, err
		}
	}
	return h, 0, errors.New("a page header longer than 1 MiB")
}

// Parquet's page types and encodings (parquet.thrift).
const (
	pageData       = int64(format.DataPage)
	pageIndex      = int64(format.IndexPage)
	pageDictionary = int64(format.DictionaryPage)
	pageDataV2     = int64(format.DataPageV2)
)

// column is what checkChunk needs to know of the column a chunk belongs to.
type column struct {
	name      string
	encodings map[int64]bool // the encodings its data pages may use
	maxDef    int            // its greatest definition level (the optional fields on its path)
}

// The encodings read: for images, plain, dictionary and DELTA_LENGTH_BYTE_ARRAY (not
// DELTA_BYTE_ARRAY, whose values may each repeat the one before: a small page can declare
// terabytes); for labels, those of integers.
var (
	imageEncodings = map[int64]bool{int64(format.Plain): true, int64(format.PlainDictionary): true, int64(format.RLEDictionary): true,
		int64(format.DeltaLengthByteArray): true}
	labelEncodings = map[int64]bool{int64(format.Plain): true, int64(format.PlainDictionary): true, int64(format.RLEDictionary): true,
		int64(format.DeltaBinaryPacked): true, int64(format.ByteStreamSplit): true}
)

// checkChunk walks the pages of one column chunk (rows rows of a column that is not repeated)
// before the library reads it: each page header must be intact, its sizes within the chunk and
// MaxPage, its values within MaxPageValues and the rows, its encoding one the column allows; its
// data must decompress to exactly the size it declares (decompressed here a page at a time, into
// nothing kept), and the runs its definition levels and values declare (checkStreams) must not
// hold more values than the page: the library allocates what they declare before it decodes
// them. The values of its data pages must add up to the rows. dataEnd is where the footer
// starts. Errors: ErrMalformed or ErrTooLarge (wrapped, naming name, the column and the row
// group).
func checkChunk(r io.ReaderAt, name string, col column, group int, md *format.ColumnMetaData, rows, dataEnd int64) error {
	bad := func(sentinel error, f string, a ...any) error {
		return fmt.Errorf("%s: column %s, row group %d: %w: %s", name, col.name, group, sentinel, fmt.Sprintf(f, a...))
	}
	start := md.DataPageOffset
	if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > dataEnd || end < start {
		return bad(ErrMalformed, "its data (%d bytes at %d) lies outside the file's data (4 to %d)", md.TotalCompressedSize, start, dataEnd)
	}
	switch md.Codec {
	case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Lz4Raw:
	default:
		return bad(ErrMalformed, "compression %v is not read (uncompressed, Snappy, gzip, Brotli, Zstandard and LZ4 are)", md.Codec)
	}
	var values int64
	for pos := start; pos < end; {
		h, n, err := readPageHeader(r, pos, end)
		if err != nil {
			return bad(ErrMalformed, "a page header at byte %d: %v", pos, err)
		}
		pos += n
		switch {
		case h.compressed < 0 || h.uncompressed < 0 || h.values < 0 || h.compressed > end-pos:
			return bad(ErrMalformed, "a page at byte %d declares %d bytes (%d uncompressed), %d values; the chunk holds %d more bytes", pos, h.compressed, h.uncompressed, h.values, end-pos)
		case h.compressed > MaxPage || h.uncompressed > MaxPage:
			return bad(ErrTooLarge, "a page of %d bytes (%d uncompressed; at most %d)", h.compressed, h.uncompressed, MaxPage)
		case h.values > MaxPageValues:
			return bad(ErrTooLarge, "a page of %d values (at most %d)", h.values, MaxPageValues)
		}
		levels := int64(0)
		switch h.typ {
		case pageDictionary:
			if h.values > h.uncompressed {
				return bad(ErrMalformed, "a dictionary of %d values in %d bytes", h.values, h.uncompressed)
			}
		case pageData, pageDataV2:
			if !col.encodings[h.encoding] {
				return bad(ErrMalformed, "a page in encoding %v, which idxlabel does not read for this column", format.Encoding(h.encoding))
			}
			if values += h.values; values > rows {
				return bad(ErrMalformed, "pages of %d values or more for %d rows", values, rows)
			}
			if h.typ == pageDataV2 {
				levels = h.levels
				if levels < 0 || levels > h.compressed || levels > h.uncompressed {
					return bad(ErrMalformed, "a page's levels of %d bytes in a page of %d", levels, h.compressed)
				}
			}
		case pageIndex:
			pos += h.compressed
			continue
		default:
			return bad(ErrMalformed, "a page of unknown type %d", h.typ)
		}
		codec := md.Codec
		if h.typ == pageDataV2 && !h.compressedV2 {
			codec = format.Uncompressed
		}
		raw := make([]byte, h.compressed)
		if _, err := r.ReadAt(raw, pos); err != nil {
			return bad(ErrMalformed, "the page at byte %d: %v", pos, err)
		}
		data, err := decompress(raw[levels:], h.uncompressed-levels, codec)
		if err != nil {
			return bad(ErrMalformed, "the page at byte %d: %v", pos, err)
		}
		if h.typ != pageDictionary {
			if err := checkStreams(h, col.maxDef, raw[:levels], data); err != nil {
				return bad(ErrMalformed, "the page at byte %d: %v", pos, err)
			}
		}
		pos += h.compressed
	}
	if values != rows {
		return bad(ErrMalformed, "pages of %d values for %d rows", values, rows)
	}
	return nil
}

// decompress returns src decompressed by codec, which must give exactly want bytes: a
// decompressor that would give more is stopped at want + 1. Errors: the decompressor's, or the
// size found.
func decompress(src []byte, want int64, codec format.CompressionCodec) ([]byte, error) {
	var dec io.Reader
	switch codec {
	case format.Uncompressed:
		if int64(len(src)) != want {
			return nil, fmt.Errorf("%d bytes declared %d uncompressed", len(src), want)
		}
		return src, nil
	case format.Snappy:
		got, err := snappy.DecodedLen(src)
		if err != nil || int64(got) != want {
			return nil, fmt.Errorf("snappy data that is not %d bytes uncompressed", want)
		}
		out, err := snappy.Decode(make([]byte, want), src)
		if err != nil {
			return nil, fmt.Errorf("snappy: %v", err)
		}
		return out, nil
	case format.Lz4Raw:
		dst := make([]byte, want)
		got, err := lz4.UncompressBlock(src, dst)
		if err != nil || int64(got) != want {
			return nil, fmt.Errorf("LZ4 data that is not %d bytes uncompressed", want)
		}
		return dst, nil
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return nil, fmt.Errorf("gzip: %v", err)
		}
		dec = zr
	case format.Brotli:
		dec = brotli.NewReader(bytes.NewReader(src))
	case format.Zstd:
		if err := zstdDeclared(src, want); err != nil {
			return nil, err
		}
		zr, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(uint64(MaxPage)), zstd.WithDecoderMaxWindow(uint64(MaxPage)))
		if err != nil {
			return nil, fmt.Errorf("zstd: %v", err)
		}
		defer zr.Close()
		dec = zr
	default:
		return nil, fmt.Errorf("compression %v is not read", codec)
	}
	var out bytes.Buffer
	got, err := io.Copy(&out, io.LimitReader(dec, want+1))
	if err != nil {
		return nil, fmt.Errorf("%v: %v", codec, err)
	}
	if got != want {
		return nil, fmt.Errorf("%v data of %d bytes uncompressed, declared %d", codec, got, want)
	}
	return out.Bytes(), nil
}

// checkStreams checks the run-length streams of a data page (header h; v2levels: a version 2
// page's levels, stored before its compressed data; data: the rest, decompressed): its
// definition levels (for a column whose greatest level maxDef is above 0) and its values, when
// dictionary indices or a delta encoding, must declare at most the page's values (and the 7 a
// last bit-packed group may pad with).
func checkStreams(h pageHeader, maxDef int, v2levels, data []byte) error {
	width := bits.Len(uint(maxDef))
	if maxDef > 0 {
		var def []byte
		if h.typ == pageDataV2 {
			def = v2levels // no repetition levels: the columns read are not repeated
		} else {
			if len(data) < 4 {
				return errors.New("no definition levels")
			}
			n := int64(binary.LittleEndian.Uint32(data))
			if n > int64(len(data)-4) {
				return fmt.Errorf("definition levels of %d bytes in %d", n, len(data)-4)
			}
			def, data = data[4:4+n], data[4+n:]
		}
		if err := checkRuns(def, width, h.values); err != nil {
			return fmt.Errorf("definition levels: %v", err)
		}
	}
	switch format.Encoding(h.encoding) {
	case format.PlainDictionary, format.RLEDictionary:
		if len(data) == 0 {
			return nil // a page of nulls only
		}
		if data[0] > 32 {
			return fmt.Errorf("dictionary indices of %d bits", data[0])
		}
		if err := checkRuns(data[1:], int(data[0]), h.values); err != nil {
			return fmt.Errorf("dictionary indices: %v", err)
		}
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray:
		// The header: block size, mini-blocks per block, the values' count, the first value.
		s := &thriftSkim{b: data}
		s.uvarint()
		s.uvarint()
		count, err := s.uvarint()
		if err != nil || count > uint64(h.values) {
			return fmt.Errorf("a delta encoding declaring %d values in a page of %d", count, h.values)
		}
	}
	return nil
}

// checkRuns checks a run-length/bit-packed hybrid stream of values of width bits: its runs must
// declare at most values + 7 values, and the bit-packed ones be present.
func checkRuns(b []byte, width int, values int64) error {
	s := &thriftSkim{b: b}
	var total uint64
	for s.i < len(s.b) {
		h, err := s.uvarint()
		if err != nil {
			return err
		}
		count := h >> 1
		step := uint64((width + 7) / 8)
		if h&1 != 0 { // bit-packed: count groups of 8 values
			if count > uint64(values)/8+1 {
				return fmt.Errorf("a bit-packed run of %d groups in a page of %d values", count, values)
			}
			count, step = count*8, count*uint64(width)
		}
		if count > uint64(values)+7 || total+count > uint64(values)+7 {
			return fmt.Errorf("runs of %d values or more in a page of %d", total+count, values)
		}
		total += count
		if step > uint64(len(s.b)-s.i) {
			return errors.New("a run longer than its bytes")
		}
		s.i += int(step)
	}
	return nil
}

// zstdDeclared checks the content size the first Zstandard frame in src declares, which a
// decoder allocates before it decodes the frame, against want. The decoding that follows
// (checkCompressed) checks every frame: the decoder refuses a frame whose content differs from
// the size it declares.
func zstdDeclared(src []byte, want int64) error {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return fmt.Errorf("zstd: %v", err)
	}
	if h.HasFCS && h.FrameContentSize > uint64(want) {
		return fmt.Errorf("a zstd frame declaring %d bytes in a page of %d", h.FrameContentSize, want)
	}
	return nil
}
