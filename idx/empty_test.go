package idx

import (
	"bytes"
	"errors"
	"io"
	"math"
	"path/filepath"
	"testing"
)

// An empty IDX file (N = 0: a header and no data) is valid: it encodes to its header alone and
// reads back through every reader (Decode, ReadFile plain and gzip, the stream, the header
// alone), in every dtype and with the shapes MNIST, QMNIST and flattened files have.
func TestEmptyFileRoundTrips(t *testing.T) {
	dir := t.TempDir()
	for _, dt := range DTypes {
		for _, dims := range [][]int{{0}, {0, 8}, {0, 28, 28}, {0, 1, 28, 28}, {0, 784}} {
			a, err := New(dt, dims...)
			if err != nil {
				t.Fatalf("New(%s, %v): %v", dt, dims, err)
			}
			var buf bytes.Buffer
			if err := Encode(&buf, a); err != nil {
				t.Fatalf("Encode %s %v: %v", dt, dims, err)
			}
			if buf.Len() != a.Size() {
				t.Fatalf("%s %v: encoded %d bytes, want the %d-byte header alone", dt, dims, buf.Len(), a.Size())
			}
			b, err := Decode(&buf)
			if err != nil || !equalDims(b.Dims, dims) || len(b.Data) != 0 {
				t.Fatalf("Decode %s %v: %v %v", dt, dims, b, err)
			}
			for _, name := range []string{"e", "e.gz"} {
				p := filepath.Join(dir, name)
				if err := WriteFile(p, a); err != nil {
					t.Fatalf("WriteFile %s %s %v: %v", name, dt, dims, err)
				}
				got, err := ReadFile(p)
				if err != nil || got.Type != dt || !equalDims(got.Dims, dims) || len(got.Data) != 0 {
					t.Fatalf("ReadFile %s %s %v: %v %v", name, dt, dims, got, err)
				}
				h, err := ReadHeaderFile(p)
				if err != nil || !equalDims(h.Dims, dims) {
					t.Fatalf("ReadHeaderFile %s: %v %v", name, h, err)
				}
				f, err := OpenFile(p)
				if err != nil {
					t.Fatalf("OpenFile %s: %v", name, err)
				}
				rest, err := io.ReadAll(f)
				f.Close()
				if err != nil || len(rest) != 0 {
					t.Fatalf("stream of %s: %d bytes, %v", name, len(rest), err)
				}
			}
		}
	}
}

// What stays refused: a 0 after the first dimension (samples of nothing: a few header bytes could
// declare 2^32−1 of them), an empty file with a byte after its header, and an empty file whose
// samples would each overflow a size.
func TestEmptyFileLimits(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"samples of nothing", header([]byte{0, 0, 8, 2}, math.MaxUint32, 0), ErrEmpty},
		{"0×0", header([]byte{0, 0, 8, 2}, 0, 0), ErrEmpty},
		{"a byte after an empty file", append(header([]byte{0, 0, 8, 1}, 0), 7), ErrTrailing},
		{"an empty file of samples too large to hold", header([]byte{0, 0, 0x0e, 4}, 0, math.MaxUint32, math.MaxUint32, math.MaxUint32), ErrTooLarge},
	}
	for _, c := range cases {
		if _, err := Decode(bytes.NewReader(c.in)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := New(UByte, 3, 0); !errors.Is(err, ErrEmpty) {
		t.Errorf("New(3, 0): %v", err)
	}
	if _, err := New(UByte, -1, 2); !errors.Is(err, ErrEmpty) {
		t.Errorf("New(-1, 2): %v", err)
	}
}
