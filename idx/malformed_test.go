package idx

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

func header(magic []byte, dims ...uint32) []byte {
	b := append([]byte(nil), magic...)
	for _, d := range dims {
		b = append(b, byte(d>>24), byte(d>>16), byte(d>>8), byte(d))
	}
	return b
}

func TestMalformedInput(t *testing.T) {
	valid := append(header([]byte{0, 0, 8, 2}, 2, 3), 1, 2, 3, 4, 5, 6)
	cases := []struct {
		name   string
		input  []byte
		want   error
		detail string
	}{
		{"empty input", nil, ErrTruncated, "found 0 bytes"},
		{"gzip bytes as IDX", []byte{0x1f, 0x8b, 8, 0}, ErrMagic, "found 0x1f 0x8b"},
		{"first magic byte not zero", header([]byte{1, 0, 8, 1}, 1), ErrMagic, "expected 0x00 0x00"},
		{"second magic byte not zero", header([]byte{0, 1, 8, 1}, 1), ErrMagic, "expected 0x00 0x00"},
		{"unknown type byte 0x0a", header([]byte{0, 0, 0x0a, 1}, 1), ErrDType, "found 0x0a"},
		{"unknown type byte 0x00", header([]byte{0, 0, 0, 1}, 1), ErrDType, "found 0x00"},
		{"rank 0", header([]byte{0, 0, 8, 0}), ErrRank, "is 0"},
		{"zero dimension", header([]byte{0, 0, 8, 3}, 10, 0, 28), ErrEmpty, "dimension 2 of 10×0×28 is 0"},
		{"product overflows", header([]byte{0, 0, 0x0e, 3}, 1<<32-1, 1<<32-1, 1<<32-1), ErrTooLarge, "overflow"},
		{"2^32×2^32 claim", header([]byte{0, 0, 8, 2}, 1<<32-1, 1<<32-1), ErrTooLarge, ""},
		{"header truncated in dims", header([]byte{0, 0, 8, 3}, 10, 28)[:11], ErrTruncated, "found 7 bytes"},
		{"data truncated", valid[:len(valid)-1], ErrTruncated, "declares 6 bytes of data, found 5"},
		{"trailing bytes", append(append([]byte(nil), valid...), 9, 9), ErrTrailing, "2 extra"},
		{"huge claim, tiny file", append(header([]byte{0, 0, 8, 1}, 1<<32-1), 1, 2, 3), ErrTruncated, "declares 4294967295 bytes of data, found 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(c.input))
			checkFormatError(t, err, c.want, c.detail, "")
			if IsGzip(c.input) {
				return // as a file, these bytes are taken for gzip (see TestCorruptGzip)
			}
			// The same bytes as a file: the error names the file.
			p := filepath.Join(t.TempDir(), "bad-idx3-ubyte")
			os.WriteFile(p, c.input, 0o644)
			_, err = ReadFile(p)
			checkFormatError(t, err, c.want, c.detail, p)
			// And gzipped, through the streaming path.
			gz := filepath.Join(t.TempDir(), "bad-idx3-ubyte.gz")
			os.WriteFile(gz, gzipBytes(t, c.input), 0o644)
			_, err = ReadFile(gz)
			if c.want == ErrTruncated && strings.Contains(c.detail, "declares 4294967295") {
				checkFormatError(t, err, ErrTruncated, "more than a", gz)
			} else if c.want == ErrTrailing {
				checkFormatError(t, err, ErrTrailing, "2 more bytes follow", gz)
			} else {
				checkFormatError(t, err, c.want, "", gz)
			}
		})
	}
}

func checkFormatError(t *testing.T, err, want error, detail, file string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want %v", err, want)
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%v is not a *FormatError", err)
	}
	if !strings.Contains(err.Error(), detail) {
		t.Fatalf("error %q does not say %q", err, detail)
	}
	if file != "" && !strings.HasPrefix(err.Error(), file+": ") {
		t.Fatalf("error %q does not start with the file name %s", err, file)
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := kgzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// zeros is a reader of n zero bytes that allocates nothing.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n)
	clear(p[:k])
	z.n -= k
	return int(k), nil
}

// writeGzipBomb writes a gzip file whose stream is hdr followed by n zero bytes.
func writeGzipBomb(t *testing.T, hdr []byte, n int64) string {
	p := filepath.Join(t.TempDir(), "bomb.gz")
	f, _ := os.Create(p)
	zw, _ := kgzip.NewWriterLevel(f, kgzip.BestCompression)
	zw.Write(hdr)
	io.Copy(zw, &zeros{n})
	zw.Close()
	f.Close()
	return p
}

// allocated runs f and returns the bytes it allocated on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestGzipBombHugeClaimFailsBeforeReading(t *testing.T) {
	// 64 MiB of zeros compress to ~64 KiB; the header claims 2^32-1 × 255 bytes.
	p := writeGzipBomb(t, header([]byte{0, 0, 8, 2}, 1<<32-1, 255), 64<<20)
	var err error
	alloc := allocated(func() { _, err = ReadFile(p) })
	checkFormatError(t, err, ErrTruncated, "more than a", p)
	if alloc > 4<<20 {
		t.Fatalf("refusing the bomb allocated %d bytes", alloc)
	}
}

func TestGzipBombMoreDataThanDeclaredStopsEarly(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	// The header declares 1 MiB; the stream holds 256 MiB of zeros after it (about 256 KiB on disk).
	p := writeGzipBomb(t, header([]byte{0, 0, 8, 1}, 1<<20), 256<<20)
	var err error
	alloc := allocated(func() { _, err = ReadFile(p) })
	checkFormatError(t, err, ErrTrailing, "at least", p)
	if alloc > 16<<20 {
		t.Fatalf("the bomb made ReadFile allocate %d bytes", alloc)
	}
}

func TestLyingHeaderOnUnknownLengthReaderGrowsOnlyAsBytesArrive(t *testing.T) {
	// The header claims 4 GiB - 1; only 10 MiB arrive, through a reader that cannot tell its length.
	r := io.MultiReader(bytes.NewReader(header([]byte{0, 0, 8, 1}, 1<<32-1)), &zeros{10 << 20})
	var err error
	alloc := allocated(func() { _, err = Decode(r) })
	checkFormatError(t, err, ErrTruncated, "found 10485760", "")
	if alloc > 64<<20 {
		t.Fatalf("a 10 MiB stream claiming 4 GiB allocated %d bytes", alloc)
	}
}

func TestCorruptGzip(t *testing.T) {
	a, _ := New(UByte, 1000, 10)
	for i := range a.Data {
		a.Data[i] = byte(i * 7)
	}
	var raw bytes.Buffer
	Encode(&raw, a)
	gz := gzipBytes(t, raw.Bytes())
	dir := t.TempDir()

	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-6] ^= 0xff // inside the CRC-32 of the trailer
	p := filepath.Join(dir, "crc.gz")
	os.WriteFile(p, badCRC, 0o644)
	_, err := ReadFile(p)
	checkFormatError(t, err, ErrCompressed, "", p)

	cut := filepath.Join(dir, "cut.gz")
	os.WriteFile(cut, gz[:len(gz)/2], 0o644)
	_, err = ReadFile(cut)
	checkFormatError(t, err, ErrTruncated, "", cut)

	garbled := bytes.Clone(gz)
	for i := 20; i < 40; i++ {
		garbled[i] = 0xff
	}
	g := filepath.Join(dir, "garbled.gz")
	os.WriteFile(g, garbled, 0o644)
	if _, err = ReadFile(g); !errors.Is(err, ErrCompressed) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrMagic) {
		t.Fatalf("garbled deflate data: %v", err)
	}

	hdrOnly := filepath.Join(dir, "hdr.gz")
	os.WriteFile(hdrOnly, gz[:5], 0o644)
	_, err = ReadFile(hdrOnly)
	checkFormatError(t, err, ErrTruncated, "gzip header", hdrOnly)
}

func TestEncodeRejectsInconsistentArray(t *testing.T) {
	a := &Array{Header: Header{Type: Int32, Dims: []int{3}}, Data: make([]byte, 11)}
	var buf bytes.Buffer
	if err := Encode(&buf, a); !errors.Is(err, ErrShape) || buf.Len() != 0 {
		t.Fatalf("Encode of 11 bytes as 3 int32: %v, wrote %d bytes", err, buf.Len())
	}
	p := filepath.Join(t.TempDir(), "x")
	if err := WriteFile(p, a); !errors.Is(err, ErrShape) {
		t.Fatalf("WriteFile: %v", err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("WriteFile created the target for an inconsistent array")
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("folder: %v", err)
	}
}
