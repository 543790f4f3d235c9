package idx_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// benchFiles holds the files one benchmark run decodes: the real t10k images (.gz and raw) and a
// 60,000-image set built from them (.gz and raw), written once to a temporary folder.
type benchFiles struct {
	t10kGz, t10kRaw, big60kGz, big60kRaw string
	t10k, big60k                         *idx.Array
}

var files *benchFiles

func setup(b *testing.B) *benchFiles {
	if files != nil {
		return files
	}
	images, labels := mnisttest.Load(b)
	big, _ := mnisttest.Build(b, images, labels, 60000)
	dir, err := os.MkdirTemp("", "idxbench")
	if err != nil {
		b.Fatal(err)
	}
	f := &benchFiles{
		t10kGz:    mnisttest.Path(b, mnisttest.TestImages),
		t10kRaw:   filepath.Join(dir, "t10k-images-idx3-ubyte"),
		big60kGz:  filepath.Join(dir, "big-images-idx3-ubyte.gz"),
		big60kRaw: filepath.Join(dir, "big-images-idx3-ubyte"),
		t10k:      images,
		big60k:    big,
	}
	for name, a := range map[string]*idx.Array{f.t10kRaw: images, f.big60kGz: big, f.big60kRaw: big} {
		if err := idx.WriteFile(name, a); err != nil {
			b.Fatal(err)
		}
	}
	files = f
	return f
}

func benchRead(b *testing.B, name string) {
	fi, _ := os.Stat(name)
	a, err := idx.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(a.Data)))
	b.ReportMetric(float64(fi.Size()), "file-bytes")
	b.ResetTimer()
	for b.Loop() {
		if _, err := idx.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeT10kGzip(b *testing.B) { benchRead(b, setup(b).t10kGz) }
func BenchmarkDecodeT10kRaw(b *testing.B)  { benchRead(b, setup(b).t10kRaw) }
func BenchmarkDecode60kGzip(b *testing.B)  { benchRead(b, setup(b).big60kGz) }
func BenchmarkDecode60kRaw(b *testing.B)   { benchRead(b, setup(b).big60kRaw) }
func BenchmarkPlainReadT10k(b *testing.B)  { benchPlain(b, setup(b).t10kRaw) }
func BenchmarkPlainRead60k(b *testing.B)   { benchPlain(b, setup(b).big60kRaw) }
func BenchmarkStdlibGzipT10k(b *testing.B) { benchStdlibGzip(b, setup(b).t10kGz) }
func BenchmarkStdlibGzip60k(b *testing.B)  { benchStdlibGzip(b, setup(b).big60kGz) }
func BenchmarkEncodeT10kRaw(b *testing.B)  { benchEncode(b, setup(b).t10k, false, 0) }
func BenchmarkEncode60kRaw(b *testing.B)   { benchEncode(b, setup(b).big60k, false, 0) }
func BenchmarkEncode60kGzip(b *testing.B) {
	benchEncode(b, setup(b).big60k, true, kgzip.DefaultCompression)
}
func BenchmarkEncode60kGzipL1(b *testing.B) { benchEncode(b, setup(b).big60k, true, kgzip.BestSpeed) }
func BenchmarkEncode60kStdGzip(b *testing.B) {
	a := setup(b).big60k
	b.SetBytes(int64(len(a.Data)))
	for b.Loop() {
		zw := stdgzip.NewWriter(io.Discard)
		idx.Encode(zw, a)
		zw.Close()
	}
}

// benchPlain is the baseline for raw decoding: os.ReadFile of the same file.
func benchPlain(b *testing.B, name string) {
	fi, _ := os.Stat(name)
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, err := os.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStdlibGzip decodes through compress/gzip instead of klauspost/compress, for choosing
// the gzip implementation by measurement.
func benchStdlibGzip(b *testing.B, name string) {
	for b.Loop() {
		f, _ := os.Open(name)
		zr, err := stdgzip.NewReader(f)
		if err != nil {
			b.Fatal(err)
		}
		a, err := idx.Decode(zr)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
		b.SetBytes(int64(len(a.Data)))
	}
}

// benchEncode encodes a to memory (gzip at level when gz), the cost of a save without the disk.
func benchEncode(b *testing.B, a *idx.Array, gz bool, level int) {
	b.SetBytes(int64(len(a.Data)))
	var buf bytes.Buffer
	buf.Grow(len(a.Data) + 64)
	for b.Loop() {
		buf.Reset()
		if !gz {
			idx.Encode(&buf, a)
			continue
		}
		zw, _ := kgzip.NewWriterLevel(&buf, level)
		idx.Encode(zw, a)
		zw.Close()
	}
	if gz {
		b.ReportMetric(float64(buf.Len()), "out-bytes")
	}
}
