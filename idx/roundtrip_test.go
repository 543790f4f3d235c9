package idx

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func randomArray(t testing.TB, rng *rand.Rand, dt DType, dims ...int) *Array {
	a, err := New(dt, dims...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Data {
		a.Data[i] = byte(rng.Uint32())
	}
	return a
}

func TestRoundTripEveryDTypeAndRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := [][]int{{7}, {3, 5}, {4, 3, 2}, {2, 2, 3, 2}, {1, 1, 1, 1, 1, 3}}
	for _, dt := range DTypes {
		for _, dims := range shapes {
			a := randomArray(t, rng, dt, dims...)
			var buf bytes.Buffer
			if err := Encode(&buf, a); err != nil {
				t.Fatal(err)
			}
			if got, want := buf.Len(), a.Size()+len(a.Data); got != want {
				t.Fatalf("%s %v: encoded %d bytes, want %d", dt, dims, got, want)
			}
			encoded := bytes.Clone(buf.Bytes())
			b, err := Decode(&buf)
			if err != nil {
				t.Fatalf("%s %v: %v", dt, dims, err)
			}
			if b.Type != dt || !equalDims(b.Dims, dims) || !bytes.Equal(b.Data, a.Data) {
				t.Fatalf("%s %v: decoded %s differs", dt, dims, b.Header)
			}
			var again bytes.Buffer
			Encode(&again, b)
			if !bytes.Equal(again.Bytes(), encoded) {
				t.Fatalf("%s %v: re-encoding is not byte-exact", dt, dims)
			}
		}
	}
}

func TestRoundTripRank255(t *testing.T) {
	dims := make([]int, MaxRank)
	for i := range dims {
		dims[i] = 1
	}
	dims[MaxRank-1] = 3
	a := randomArray(t, rand.New(rand.NewPCG(3, 4)), Int16, dims...)
	var buf bytes.Buffer
	if err := Encode(&buf, a); err != nil {
		t.Fatal(err)
	}
	b, err := Decode(&buf)
	if err != nil || b.Rank() != MaxRank || !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("rank 255 round trip: %v", err)
	}
}

func TestRoundTripFilesPlainAndGzip(t *testing.T) {
	dir := t.TempDir()
	a := randomArray(t, rand.New(rand.NewPCG(5, 6)), Float64, 10, 3, 4)
	for _, name := range []string{"a.idx", "a.idx.gz", "A.IDX.GZ"} {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, a); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(p)
		if IsGzip(raw) != IsGzipName(name) {
			t.Fatalf("%s: gzip=%v, want %v", name, IsGzip(raw), IsGzipName(name))
		}
		b, err := ReadFile(p)
		if err != nil || !bytes.Equal(a.Data, b.Data) || !equalDims(a.Dims, b.Dims) {
			t.Fatalf("%s: round trip failed: %v", name, err)
		}
		h, err := ReadHeaderFile(p)
		if err != nil || h.String() != a.Header.String() {
			t.Fatalf("%s: header %v, %v", name, h, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 && len(entries) != 3 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	for _, e := range entries {
		if e.Name()[0] == '.' {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestGzipDetectedByContentNotName(t *testing.T) {
	dir := t.TempDir()
	a := randomArray(t, rand.New(rand.NewPCG(7, 8)), UByte, 5, 2, 2)
	gz := filepath.Join(dir, "x.gz")
	WriteFile(gz, a)
	renamed := filepath.Join(dir, "x-no-suffix")
	os.Rename(gz, renamed)
	if b, err := ReadFile(renamed); err != nil || !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("gzip content without .gz name: %v", err)
	}
	plain := filepath.Join(dir, "plain")
	WriteFile(plain, a)
	misnamed := filepath.Join(dir, "plain.gz")
	os.Rename(plain, misnamed)
	if b, err := ReadFile(misnamed); err != nil || !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("plain content with .gz name: %v", err)
	}
}

func TestWriteFileKeepsPermissions(t *testing.T) {
	p := filepath.Join(t.TempDir(), "labels.idx")
	a := randomArray(t, rand.New(rand.NewPCG(9, 9)), UByte, 4)
	WriteFile(p, a)
	os.Chmod(p, 0o600)
	if err := WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after rewrite %v, want 0600", fi.Mode().Perm())
	}
}

func TestTypedAccess(t *testing.T) {
	cases := []struct {
		dt   DType
		data []byte
		ints []int64
		flts []float64
	}{
		{UByte, []byte{0, 255}, []int64{0, 255}, []float64{0, 255}},
		{SByte, []byte{0x80, 0x7f}, []int64{-128, 127}, []float64{-128, 127}},
		{Int16, []byte{0xff, 0xfe, 0x01, 0x00}, []int64{-2, 256}, []float64{-2, 256}},
		{Int32, []byte{0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff}, []int64{7, -1}, []float64{7, -1}},
		{Float32, []byte{0x3f, 0xc0, 0, 0, 0xc0, 0x20, 0, 0}, []int64{1, -2}, []float64{1.5, -2.5}},
		{Float64, []byte{0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x40, 0x59, 0, 0, 0, 0, 0, 0}, []int64{1, 100}, []float64{1.5, 100}},
	}
	for _, c := range cases {
		a := &Array{Header: Header{Type: c.dt, Dims: []int{2}}, Data: c.data}
		if err := a.Check(); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if a.Int(i) != c.ints[i] || a.Float(i) != c.flts[i] {
				t.Errorf("%s[%d] = %d / %g, want %d / %g", c.dt, i, a.Int(i), a.Float(i), c.ints[i], c.flts[i])
			}
		}
		b, _ := New(c.dt, 2)
		for i := range 2 {
			if c.dt == Float32 || c.dt == Float64 {
				b.SetFloat(i, c.flts[i])
			} else {
				b.SetInt(i, c.ints[i])
			}
		}
		if !bytes.Equal(b.Data, c.data) {
			t.Errorf("%s: Set gives % x, want % x", c.dt, b.Data, c.data)
		}
	}
}

func TestHeaderBasics(t *testing.T) {
	h := Header{Type: UByte, Dims: []int{10000, 28, 28}}
	if h.Magic() != 2051 || h.Size() != 16 || h.DataSize() != 7840000 || h.String() != "0x00000803 ubyte 10000×28×28" {
		t.Fatalf("header basics wrong: %d %d %d %q", h.Magic(), h.Size(), h.DataSize(), h)
	}
	if (Header{Type: UByte, Dims: []int{60000}}).Magic() != 2049 {
		t.Fatal("label magic is not 2049")
	}
	for _, dt := range DTypes {
		if dt.String() == "" || dt.Size() == 0 || !dt.Valid() {
			t.Fatalf("dtype %d incomplete", dt)
		}
	}
	if DType(0x0A).Valid() || DType(0x0A).String() != "unknown(0x0a)" {
		t.Fatal("0x0a must be invalid")
	}
}

func equalDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
