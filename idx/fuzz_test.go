package idx

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// FuzzDecode feeds arbitrary bytes to Decode (and, for gzip input, to the streaming path) and
// checks that it never panics, that every error is a *FormatError or a gzip/I/O error, and that
// whatever it accepts re-encodes to exactly the input. Seeds: every file in testdata/.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.idx*"))
	if len(seeds) == 0 {
		f.Fatal("no seeds in testdata/")
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if IsGzip(data) {
			zr, err := kgzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return
			}
			a, err := Decode(io.LimitReader(zr, 1<<20))
			checkDecoded(t, a, err, nil)
			return
		}
		a, err := Decode(bytes.NewReader(data))
		checkDecoded(t, a, err, data)
	})
}

func checkDecoded(t *testing.T, a *Array, err error, input []byte) {
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("error %v (%T) is not a *FormatError", err, err)
		}
		if fe.Err == nil || fe.Error() == "" {
			t.Fatalf("FormatError without a kind: %#v", fe)
		}
		return
	}
	if err := a.Check(); err != nil {
		t.Fatalf("Decode accepted an inconsistent array: %v", err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, a); err != nil {
		t.Fatalf("Encode of a decoded array: %v", err)
	}
	if input != nil && !bytes.Equal(buf.Bytes(), input) {
		t.Fatalf("re-encoding differs from the input")
	}
}
