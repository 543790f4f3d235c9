package formats

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"

	"idxlabel/fixture/mnisttest"
)

// Compressed data is decompressed to at most one byte more than its page declares, whatever it
// holds; a zstd frame that declares more than the page is refused from its header; LZ4 that
// does not give the size declared is refused (the library would double its buffer forever).
func TestDecompressStopsAtTheDeclaredSize(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(make([]byte, 100<<20))
	w.Close()
	var err error
	if a := mnisttest.Allocated(func() { _, err = decompress(gz.Bytes(), 1000, format.Gzip) }); err == nil || a > 8<<20 {
		t.Fatalf("gzip bomb: %v, %d bytes allocated", err, a)
	}
	enc, _ := zstd.NewWriter(nil)
	frame := enc.EncodeAll(make([]byte, 5000), nil)
	if _, err := decompress(frame, 100, format.Zstd); err == nil || !strings.Contains(err.Error(), "declaring 5000 bytes") {
		t.Fatalf("zstd: %v", err)
	}
	if got, err := decompress(frame, 5000, format.Zstd); err != nil || len(got) != 5000 {
		t.Fatalf("zstd, honest: %v", err)
	}
	if _, err := decompress([]byte{0xf0, 1, 2, 3}, 1000, format.Lz4Raw); err == nil {
		t.Fatal("lz4: garbage decompressed")
	}
	if _, err := decompress([]byte{1, 2, 3}, 4, format.Uncompressed); err == nil {
		t.Fatal("uncompressed: 3 bytes taken for 4")
	}
}

// Runs that declare more values than the page are refused, however few bytes declare them.
func TestCheckRuns(t *testing.T) {
	cases := []struct {
		b      []byte
		width  int
		values int64
		ok     bool
	}{
		{[]byte{0x14, 0x01}, 1, 10, true},                          // a run of 10 ones
		{[]byte{0x10, 0x01, 0x04, 0x01}, 1, 10, true},              // 8 and 2
		{[]byte{0x03, 0xff}, 1, 5, true},                           // one bit-packed group of 8 for 5 values, padded
		{[]byte{0xfe, 0xff, 0xff, 0xff, 0x0f, 0x01}, 1, 10, false}, // a run of 2^31−1
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 0, 10, false},       // 2^30 bit-packed groups of width 0
		{[]byte{0x05, 0xff}, 1, 16, false},                         // 2 groups, 1 byte of 2
	}
	for k, c := range cases {
		err := checkRuns(c.b, c.width, c.values)
		if (err == nil) != c.ok {
			t.Fatalf("case %d: %v", k, err)
		}
	}
}

// skimThrift refuses what declares more than it holds, and reports the fields asked for.
func TestSkimThrift(t *testing.T) {
	// field 1 i32 = 7, field 2 struct { field 1 i64 = −3 }, stop.
	b := []byte{0x15, 0x0e, 0x1c, 0x16, 0x05, 0x00, 0x00}
	var got []int64
	n, _, err := skimThrift(b, func(path []int16, v int64) { got = append(got, int64(len(path))*100+v) })
	if err != nil || n != len(b) || len(got) != 2 || got[0] != 107 || got[1] != 197 {
		t.Fatalf("n %d, %v, fields %v", n, err, got)
	}
	for name, bad := range map[string][]byte{
		"list":   {0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00},
		"string": {0x18, 0x80, 0x80, 0x01, 0x00},
		"map":    {0x1b, 0xff, 0xff, 0x03, 0x55, 0x00},
		"early":  {0x15},
		"type":   {0x1e, 0x00},
		"varint": {0x15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	} {
		if _, _, err := skimThrift(bad, nil); !errors.Is(err, errThrift) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// Lists of structs are estimated at structCost each.
	_, alloc, err := skimThrift([]byte{0x19, 0x3c, 0x00, 0x00, 0x00, 0x00}, nil)
	if err != nil || alloc != 3*structCost {
		t.Fatalf("alloc %d, %v", alloc, err)
	}
}
