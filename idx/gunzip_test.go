package idx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	kflate "github.com/klauspost/compress/flate"
)

// gzMember builds one gzip member of data by hand (RFC 1952), with the optional fields a
// writer may set: an extra field, a file name and a comment (each of any length, nil for none)
// and a header CRC-16.
func gzMember(t *testing.T, data, extra, name, comment []byte, hcrc bool) []byte {
	t.Helper()
	var flags byte
	head := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	if extra != nil {
		flags |= gzFEXTRA
		head = binary.LittleEndian.AppendUint16(head, uint16(len(extra)))
		head = append(head, extra...)
	}
	if name != nil {
		flags |= gzFNAME
		head = append(append(head, name...), 0)
	}
	if comment != nil {
		flags |= gzFCOMMENT
		head = append(append(head, comment...), 0)
	}
	if hcrc {
		flags |= gzFHCRC
	}
	head[3] = flags
	if hcrc {
		head = binary.LittleEndian.AppendUint16(head, uint16(crc32.ChecksumIEEE(head)))
	}
	var body bytes.Buffer
	fw, _ := kflate.NewWriter(&body, kflate.BestSpeed)
	fw.Write(data)
	fw.Close()
	out := append(head, body.Bytes()...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(data))
	return binary.LittleEndian.AppendUint32(out, uint32(len(data)))
}

// readAllWays reads the gzip file p whole (ReadFile: libdeflate's path where the build has it,
// then the streaming one), streamed (OpenFile) and its header alone (ReadHeaderFile); it
// returns the data, or the first error and which way gave it.
func readAllWays(p string) ([]byte, string, error) {
	a, err := ReadFile(p)
	if err != nil {
		return nil, "ReadFile", err
	}
	f, err := OpenFile(p)
	if err != nil {
		return nil, "OpenFile", err
	}
	defer f.Close()
	streamed, err := io.ReadAll(f)
	if err != nil {
		return nil, "FileReader.Read", err
	}
	if !bytes.Equal(streamed, a.Data) {
		return nil, "FileReader.Read", errors.New("streamed data differ from ReadFile's")
	}
	if _, err := ReadHeaderFile(p); err != nil {
		return nil, "ReadHeaderFile", err
	}
	return a.Data, "", nil
}

// A member's stored file name or comment may be of any length (gzip(1) and Python's gzip read
// names of 512 bytes and more, which klauspost's and Go's gzip readers refuse); the extra field
// and the header CRC-16 are read too. A wrong header CRC, method or reserved flag is corrupt.
func TestGzipHeaderFields(t *testing.T) {
	a, _ := New(UByte, 300, 7)
	for i := range a.Data {
		a.Data[i] = byte(i * 13)
	}
	var raw bytes.Buffer
	Encode(&raw, a)
	dir := t.TempDir()
	long := func(n int) []byte { return bytes.Repeat([]byte("n"), n) }
	for _, c := range []struct {
		name                 string
		extra, fname, commnt []byte
		hcrc                 bool
	}{
		{"name 511", nil, long(511), nil, false},
		{"name 512", nil, long(512), nil, false},
		{"name 600, comment 70000, header CRC", nil, long(600), long(70000), true},
		{"extra field, name 1 MiB", []byte("AB\x02\x00hi"), long(1 << 20), nil, true},
		{"empty name and comment", nil, []byte{}, []byte{}, false},
	} {
		p := filepath.Join(dir, "f.gz")
		os.WriteFile(p, gzMember(t, raw.Bytes(), c.extra, c.fname, c.commnt, c.hcrc), 0o644)
		data, way, err := readAllWays(p)
		if err != nil || !bytes.Equal(data, a.Data) {
			t.Errorf("%s: %s: %v", c.name, way, err)
		}
	}
	good := gzMember(t, raw.Bytes(), nil, long(600), nil, true)
	for _, c := range []struct {
		name string
		at   int
		b    byte
		want string
	}{
		{"header CRC", 10 + 601, 0, "CRC-16"},
		{"method", 2, 7, "compression method 7"},
		{"reserved flag", 3, gzFNAME | gzFHCRC | 0x20, "reserved flags"},
	} {
		bad := bytes.Clone(good)
		bad[c.at] ^= 0xff
		if c.at < 4 {
			bad[c.at] = c.b
		}
		p := filepath.Join(dir, "bad.gz")
		os.WriteFile(p, bad, 0o644)
		_, err := ReadFile(p)
		checkFormatError(t, err, ErrCompressed, c.want, p)
	}
	p := filepath.Join(dir, "cut.gz")
	os.WriteFile(p, good[:300], 0o644) // inside the name
	_, err := ReadFile(p)
	checkFormatError(t, err, ErrTruncated, "gzip header is incomplete", p)
}

// What follows the last member, as Python's gzip decides: zero bytes (padding) are skipped, a
// further member is read on (after padding too), anything else is trailing junk: ErrTrailing
// naming how many bytes and where they start, not "the gzip stream ends early".
func TestGzipAfterTheStream(t *testing.T) {
	a, _ := New(UByte, 100, 5)
	for i := range a.Data {
		a.Data[i] = byte(i * 3)
	}
	var raw bytes.Buffer
	Encode(&raw, a)
	r := raw.Bytes()
	m := gzMember(t, r, nil, nil, nil, false)
	first, second := gzMember(t, r[:100], nil, []byte("a"), nil, false), gzMember(t, r[100:], nil, nil, nil, true)
	zeros := make([]byte, 1000)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		file []byte
		want string // "" for the data; else the error's detail
	}{
		{"one member", m, ""},
		{"zero padding", append(bytes.Clone(m), zeros...), ""},
		{"two members", append(bytes.Clone(first), second...), ""},
		{"two members, padding between", append(append(bytes.Clone(first), zeros...), second...), ""},
		{"junk", append(bytes.Clone(m), "JUNKJUNK"...), "8 bytes that are not a gzip member follow the gzip stream, from byte " + itoa(len(m))},
		{"one byte of junk", append(bytes.Clone(m), 'J'), "1 byte that is not a gzip member follows the gzip stream, from byte " + itoa(len(m))},
		{"padding then junk", append(append(bytes.Clone(m), zeros...), 'J', 'K'), "from byte " + itoa(len(m)+1000)},
		{"a magic number and nothing more", append(bytes.Clone(m), 0x1f, 0x8b), "gzip header is incomplete"},
	} {
		p := filepath.Join(dir, "f.gz")
		os.WriteFile(p, c.file, 0o644)
		data, way, err := readAllWays(p)
		switch {
		case c.want == "" && (err != nil || !bytes.Equal(data, a.Data)):
			t.Errorf("%s: %s: %v", c.name, way, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "ends early")):
			t.Errorf("%s: %s: %v, want %q", c.name, way, err, c.want)
		case strings.HasPrefix(c.name, "junk") && !errors.Is(err, ErrTrailing):
			t.Errorf("%s: %v is not ErrTrailing", c.name, err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
