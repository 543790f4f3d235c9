package formats_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/export"
	"idxlabel/formats"
)

// FuzzRead: whatever the bytes, Read returns samples or an error, never a panic or a hang. The
// seeds are small files of each format as export writes them (go test -fuzz FuzzRead ./formats).
func FuzzRead(f *testing.F) {
	images, labels := generated(9, 12, 6, false)
	dir := f.TempDir()
	for _, fm := range []export.Format{export.Parquet, export.KaggleCSV, export.NPZ} {
		out := filepath.Join(dir, "seed."+string(fm))
		if err := export.Write(context.Background(), fromArrays(images, labels, map[int]string{1: "one"}), out, export.Options{Format: fm}); err != nil {
			f.Fatal(err)
		}
		if fm == export.Parquet {
			out = filepath.Join(out, export.ParquetFile("train"))
		}
		b, err := os.ReadFile(out)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(npy("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 2), }", make([]byte, 8)))
	// What the hostile tests found: one sample in Fortran order, zero-padded CSV pixels (the
	// Parquet seed's ClassLabel names exercise the names' reader).
	f.Add(npy("{'descr': '|u1', 'fortran_order': True, 'shape': (1, 2, 3), }", []byte{1, 4, 2, 5, 3, 6}))
	f.Add([]byte("label,pixel0,pixel1,pixel2,pixel3\n1,00255,0001,7,00001\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := formats.Read(context.Background(), path, formats.Options{Workers: 1})
		if err == nil && (s.Images.Check() != nil || s.Labels.Len() != s.N() || !bytes.Equal(s.Images.Data[:0], []byte{})) {
			t.Fatalf("samples that do not fit: %v", s.Images.Header)
		}
	})
}
