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
// whatever it accepts re-encodes to exactly the input. The same bytes are then written to a file
// and read with ReadFile (its file-size checks, and for gzip its trailer check and whole-buffer
// path: libdeflate when built with -tags libdeflate) and with OpenFile (streaming): both must
// agree with each other and, for plain input, with Decode. Seeds: every file in testdata/.
func FuzzDecode(f *testing.F) {
	dir := f.TempDir()
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
			checkFile(t, dir, data, nil, nil)
			return
		}
		a, err := Decode(bytes.NewReader(data))
		checkDecoded(t, a, err, data)
		checkFile(t, dir, data, a, err)
	})
}

// checkFile writes data to a file in dir and checks that ReadFile and OpenFile agree with each
// other and, for plain data, with Decode's result (want, wantErr).
func checkFile(t *testing.T, dir string, data []byte, want *Array, wantErr error) {
	p := filepath.Join(dir, "input")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := ReadFile(p)
	if !IsGzip(data) {
		checkDecoded(t, a, err, data)
		if (err == nil) != (wantErr == nil) || err != nil && !sameKind(err, wantErr) {
			t.Fatalf("ReadFile says %v, Decode says %v", err, wantErr)
		}
	} else {
		checkDecoded(t, a, err, nil)
	}
	h, got, serr := streamChunks(p, 4096)
	if (err == nil) != (serr == nil) {
		t.Fatalf("ReadFile says %v, streaming says %v", err, serr)
	}
	if err != nil {
		var fe *FormatError
		if errors.As(err, &fe) && fe.File != p {
			t.Fatalf("ReadFile's error does not name the file: %v", err)
		}
		if !errors.As(serr, &fe) || fe.File != p {
			t.Fatalf("streaming error %v (%T) is not a *FormatError naming the file", serr, serr)
		}
		return
	}
	if h.String() != a.Header.String() || !bytes.Equal(got, a.Data) {
		t.Fatalf("ReadFile gives %s, streaming %s, or the data differ", a.Header, h)
	}
}

// sameKind reports whether two *FormatErrors wrap the same sentinel.
func sameKind(a, b error) bool {
	var fa, fb *FormatError
	return errors.As(a, &fa) && errors.As(b, &fb) && fa.Err == fb.Err
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
