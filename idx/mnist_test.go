package idx_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

func TestRealMNISTFiles(t *testing.T) {
	cases := []struct {
		name   string
		header string
		first  []int64
		sha256 string
	}{
		{mnisttest.TestImages, "0x00000803 ubyte 10000×28×28", nil, "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"},
		{mnisttest.TestLabels, "0x00000801 ubyte 10000", []int64{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}, "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"},
		{mnisttest.TrainLabels, "0x00000801 ubyte 60000", []int64{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}, "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5"},
	}
	for _, c := range cases {
		p := mnisttest.Path(t, c.name)
		a, err := idx.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if a.Header.String() != c.header {
			t.Fatalf("%s: header %s, want %s", c.name, a.Header, c.header)
		}
		for i, want := range c.first {
			if a.Int(i) != want {
				t.Fatalf("%s: label %d = %d, want %d", c.name, i, a.Int(i), want)
			}
		}
		var buf bytes.Buffer
		idx.Encode(&buf, a)
		sum := sha256.Sum256(buf.Bytes())
		if hex.EncodeToString(sum[:]) != c.sha256 {
			t.Fatalf("%s: re-encoded SHA-256 %x differs from the README's", c.name, sum)
		}
		h, err := idx.ReadHeaderFile(p)
		if err != nil || h.String() != c.header {
			t.Fatalf("%s: DecodeHeader gives %s, %v", c.name, h, err)
		}
	}
}

// TestRealMNISTPlain decodes the decompressed t10k images through a plain file and a bare
// reader, both paths the file helpers do not cover.
func TestRealMNISTPlain(t *testing.T) {
	f, err := os.Open(mnisttest.Path(t, mnisttest.TestImages))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, _ := gzip.NewReader(f)
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	p := t.TempDir() + "/t10k-images-idx3-ubyte"
	os.WriteFile(p, raw, 0o644)
	a, err := idx.ReadFile(p)
	if err != nil || a.Dims[0] != 10000 || !bytes.Equal(a.Data, raw[16:]) {
		t.Fatalf("plain t10k: %v", err)
	}
	b, err := idx.Decode(io.MultiReader(bytes.NewReader(raw)))
	if err != nil || !bytes.Equal(b.Data, raw[16:]) {
		t.Fatalf("t10k through a reader of unknown length: %v", err)
	}
}
