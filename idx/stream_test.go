package idx

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/internal/atomicfile"
)

// streamAll opens name with OpenFile and reads every data byte, 7 at a time (an odd chunk size
// exercises the boundaries).
func streamAll(name string) (Header, []byte, error) { return streamChunks(name, 7) }

// streamChunks opens name with OpenFile and reads every data byte, chunk bytes at a time.
func streamChunks(name string, chunk int) (Header, []byte, error) {
	f, err := OpenFile(name)
	if err != nil {
		return Header{}, nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	_, err = io.CopyBuffer(&buf, f, make([]byte, chunk))
	return f.Header, buf.Bytes(), err
}

// TestStreamAgreesWithReadFile: for every malformed input (plain and gzip) streaming reports the
// same kind of error as ReadFile, and for valid files it yields the same bytes.
func TestStreamAgreesWithReadFile(t *testing.T) {
	valid := append(header([]byte{0, 0, 8, 2}, 2, 3), 1, 2, 3, 4, 5, 6)
	inputs := map[string][]byte{
		"valid":     valid,
		"truncated": valid[:len(valid)-1],
		"trailing":  append(bytes.Clone(valid), 9, 9),
		"huge":      append(header([]byte{0, 0, 8, 1}, 1<<32-1), 1, 2, 3),
		"magic":     header([]byte{1, 0, 8, 1}, 1),
		"rank0":     header([]byte{0, 0, 8, 0}),
	}
	dir := t.TempDir()
	for name, b := range inputs {
		for _, gz := range []bool{false, true} {
			p := filepath.Join(dir, name)
			data := b
			if gz {
				p += ".gz"
				data = gzipBytes(t, b)
			}
			os.WriteFile(p, data, 0o644)
			a, rerr := ReadFile(p)
			h, got, serr := streamAll(p)
			if rerr != nil {
				var fe *FormatError
				if !errors.As(rerr, &fe) || !errors.Is(serr, fe.Err) || !strings.HasPrefix(serr.Error(), p+": ") {
					t.Errorf("%s: ReadFile says %v, streaming says %v", p, rerr, serr)
				}
				continue
			}
			if serr != nil || h.String() != a.Header.String() || !bytes.Equal(got, a.Data) {
				t.Errorf("%s: streaming gave %s % x, %v; ReadFile %s % x", p, h, got, serr, a.Header, a.Data)
			}
		}
	}
}

// TestStreamCorruptGzipTrailer: a bad CRC-32 is only visible at the end of the stream; streaming
// must not report success.
func TestStreamCorruptGzipTrailer(t *testing.T) {
	a, _ := New(UByte, 1000, 10)
	for i := range a.Data {
		a.Data[i] = byte(i * 7)
	}
	var raw bytes.Buffer
	Encode(&raw, a)
	gz := gzipBytes(t, raw.Bytes())
	gz[len(gz)-6] ^= 0xff
	p := filepath.Join(t.TempDir(), "crc.gz")
	os.WriteFile(p, gz, 0o644)
	_, _, err := streamAll(p)
	checkFormatError(t, err, ErrCompressed, "", p)
}

// TestStreamMemoryIsBounded: 256 MiB of zeros behind a 250 KB gzip stream streams in a few MB.
func TestStreamMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	const n = 256 << 20
	p := writeGzipBomb(t, header([]byte{0, 0, 8, 3}, n/784, 28, 28), n/784*784)
	var err error
	var total int64
	alloc := allocated(func() {
		var f *FileReader
		if f, err = OpenFile(p); err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		for {
			k, rerr := f.Read(buf)
			total += int64(k)
			if rerr != nil {
				if rerr != io.EOF {
					err = rerr
				}
				break
			}
		}
	})
	if err != nil || total != n/784*784 {
		t.Fatalf("streamed %d bytes: %v", total, err)
	}
	if alloc > 8<<20 {
		t.Fatalf("streaming %d bytes allocated %d bytes", total, alloc)
	}
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	a, _ := New(UByte, 100, 28, 28)
	for _, name := range []string{"i", "i.gz"} {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, a); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFileLimit(p, 78399)
		checkFormatError(t, err, ErrTooLarge, "declares 78400 bytes (78.4 kB) of data, above the limit of 78399 bytes", p)
		if b, err := ReadFileLimit(p, 78400); err != nil || len(b.Data) != 78400 {
			t.Fatalf("%s at its exact size: %v", p, err)
		}
	}
}

func TestReadNonRegularFails(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []func(string) error{
		func(string) error { _, err := ReadFile(dir); return err },
		func(string) error { _, err := ReadHeaderFile(dir); return err },
		func(string) error { _, err := OpenFile(dir); return err },
		func(string) error { _, err := IsGzipFile(dir); return err },
	} {
		if err := f(dir); !errors.Is(err, atomicfile.ErrNotRegular) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("reading a folder: %v", err)
		}
	}
}

// TestGzipHeaderHasNoName: a .gz name that is not Latin-1 used to fail the write ("non-Latin-1
// header string"); the gzip header now carries no name at all.
func TestGzipHeaderHasNoName(t *testing.T) {
	a, _ := New(UByte, 3)
	p := filepath.Join(t.TempDir(), "données-日本語-labels.gz")
	if err := WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if len(b) < 10 || b[3]&0x08 != 0 {
		t.Fatalf("gzip FLG 0x%02x sets FNAME", b[3])
	}
	if got, err := ReadFile(p); err != nil || !bytes.Equal(got.Data, a.Data) {
		t.Fatalf("read back: %v", err)
	}
}

func TestWritePendingTempName(t *testing.T) {
	target := filepath.Join(t.TempDir(), "labels-idx1-ubyte")
	a, _ := New(UByte, 3)
	p, err := WritePending(target, a)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Abort()
	if !atomicfile.IsTemp(p.Temp, target) {
		t.Fatalf("temporary file %s is not named as idxlabel's", p.Temp)
	}
}

func TestWriteStream(t *testing.T) {
	dir := t.TempDir()
	a := randomArray(t, rand.New(rand.NewPCG(11, 12)), Int16, 5, 3, 2)
	src := filepath.Join(dir, "src.gz")
	WriteFile(src, a)
	f, err := OpenFile(src)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	err = WriteStream(out, f.Header, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(out)
	if err != nil || !bytes.Equal(b.Data, a.Data) || b.Header.String() != a.Header.String() {
		t.Fatalf("stream copy: %v", err)
	}
	// Too few and too many bytes: nothing is written.
	os.WriteFile(out, []byte("old"), 0o644)
	short := WriteStream(out, a.Header, bytes.NewReader(a.Data[1:]))
	long := WriteStream(out, a.Header, bytes.NewReader(append(bytes.Clone(a.Data), 0)))
	if !errors.Is(short, ErrTruncated) || !errors.Is(long, ErrTrailing) {
		t.Fatalf("short %v, long %v", short, long)
	}
	if old, _ := os.ReadFile(out); string(old) != "old" {
		t.Fatal("a failed stream replaced the target")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestMaxData(t *testing.T) {
	for in, want := range map[string]int64{"": DefaultMaxData, "junk": DefaultMaxData, "0": DefaultMaxData, "-5": DefaultMaxData,
		"1000": 1000, "512M": 512 << 20, "8g": 8 << 30, "8GB": 8 << 30, "2T": 2 << 40, "9999999T": DefaultMaxData,
		"1GiB": 1 << 30, "512mib": 512 << 20, "64 KiB": 64 << 10, "1.5G": DefaultMaxData, "5iB": DefaultMaxData} {
		t.Setenv(MaxDataEnv, in)
		if got := MaxData(); got != want {
			t.Errorf("%s=%q: %d, want %d", MaxDataEnv, in, got, want)
		}
		// A value that is set but ignored is reported, so a cap the person meant is never
		// silently replaced by the default (IDXLABEL_MAX_DATA=1GiB used to open 1.5 GB files).
		if err := CheckMaxDataEnv(); (err != nil) != (in != "" && want == DefaultMaxData) {
			t.Errorf("%s=%q: CheckMaxDataEnv says %v", MaxDataEnv, in, err)
		}
	}
	t.Setenv(MaxDataEnv, "1000")
	p := filepath.Join(t.TempDir(), "i")
	a, _ := New(UByte, 2, 28, 28)
	WriteFile(p, a)
	_, err := ReadFileLimit(p, MaxData())
	checkFormatError(t, err, ErrTooLarge, "declares 1568 bytes (1.6 kB) of data, above the limit of 1000 bytes (1.0 kB) for reading a file whole; IDXLABEL_MAX_DATA raises it", p)
}
