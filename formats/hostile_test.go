package formats_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"idxlabel/formats"
)

// readBounded reads path with formats.Read and returns its error and the bytes allocated
// meanwhile (runtime.MemStats.TotalAlloc: every allocation counts, freed or not).
func readBounded(t *testing.T, path string, opts formats.Options) (error, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := formats.Read(context.Background(), path, opts)
	runtime.ReadMemStats(&after)
	return err, after.TotalAlloc - before.TotalAlloc
}

// refused fails t unless reading content (written to a file named name) fails wrapping want,
// names the file, says each of says, and allocates under 64 MiB.
func refused(t *testing.T, name string, content []byte, want error, says ...string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	err, alloc := readBounded(t, path, formats.Options{})
	if err == nil {
		t.Fatalf("%s: read, want an error", name)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("%s: %v, want %v", name, err, want)
	}
	if !strings.Contains(err.Error(), path) {
		t.Fatalf("%s: %v does not name the file", name, err)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("%s: %v does not say %q", name, err, s)
		}
	}
	if alloc > 64<<20 {
		t.Fatalf("%s: %d MiB allocated to refuse it", name, alloc>>20)
	}
}

// npy returns a .npy file (version 1.0) with the given header dict and data.
func npy(dict string, data []byte) []byte {
	h := []byte(dict + "\n")
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(append(out, h...), data...)
}

// npz returns a zip of the named .npy files, deflated when deflate is true.
func npz(t *testing.T, deflate bool, arrays map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for name, content := range arrays {
		m := zip.Store
		if deflate {
			m = zip.Deflate
		}
		w, err := z.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: m})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(content)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// NumPy files that claim more than they hold, or more than idxlabel reads, are refused with
// bounded memory, naming the file.
func TestHostileNumPy(t *testing.T) {
	refused(t, "huge.npy", npy("{'descr': '|u1', 'fortran_order': False, 'shape': (1000000000000, 28, 28), }", make([]byte, 100)), formats.ErrTooLarge)
	refused(t, "short.npy", npy("{'descr': '|u1', 'fortran_order': False, 'shape': (100000, 28, 28), }", make([]byte, 100)), formats.ErrMalformed, "needs 78400000 bytes")
	refused(t, "float.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 2), }", make([]byte, 16)), formats.ErrMalformed, "uint8")
	refused(t, "object.npy", npy("{'descr': '|O', 'fortran_order': False, 'shape': (1, 2, 2), }", make([]byte, 16)), formats.ErrMalformed)
	refused(t, "labels.npy", npy("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", make([]byte, 24)), formats.ErrMalformed, "1-D")
	refused(t, "noclose.npy", npy("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 2, 2)", make([]byte, 4)), formats.ErrMalformed)
	// A single sample in Fortran order is stored column by column: read as it is, it would be
	// its transpose. A shape with one dimension above 1 is stored alike in either order.
	refused(t, "fortran.npy", npy("{'descr': '|u1', 'fortran_order': True, 'shape': (1, 2, 3), }", []byte{1, 4, 2, 5, 3, 6}), formats.ErrMalformed, "Fortran")
	refused(t, "fortran2.npy", npy("{'descr': '|u1', 'fortran_order': True, 'shape': (1, 6), }", make([]byte, 6)), formats.ErrMalformed)
	row := filepath.Join(t.TempDir(), "row.npy")
	os.WriteFile(row, npy("{'descr': '|u1', 'fortran_order': True, 'shape': (1, 1, 3), }", []byte{7, 8, 9}), 0o644)
	if s, err := formats.Read(context.Background(), row, formats.Options{}); err != nil || string(s.Images.Data) != "\x07\x08\x09" {
		t.Errorf("a 1×1×3 array in Fortran order (its C order too): %v", err)
	}
	long := append([]byte("\x93NUMPY\x02\x00"), 0, 0, 0, 0x7f)
	refused(t, "longheader.npy", long, formats.ErrTooLarge)

	x := npy("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 2), }", make([]byte, 8))
	y := npy("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", make([]byte, 24))
	refused(t, "count.npz", npz(t, false, map[string][]byte{"x": x, "y": y}), formats.ErrMalformed, "3 labels for 2 images")
	refused(t, "keys.npz", npz(t, false, map[string][]byte{"x_train": x, "y_train": y}), nil, "x_train", "--images-key")

	// A deflated entry holding far more than its array's shape: read up to the shape, refused.
	bomb := npy("{'descr': '|u1', 'fortran_order': False, 'shape': (10, 28, 28), }", make([]byte, 200<<20))
	refused(t, "bomb.npz", npz(t, true, map[string][]byte{"x": bomb}), formats.ErrMalformed, "more bytes than the array's shape")
	// An honest entry above the limit on data is refused from its header.
	t.Setenv("IDXLABEL_MAX_DATA", "1M")
	big := npy("{'descr': '|u1', 'fortran_order': False, 'shape': (10000, 28, 28), }", make([]byte, 7840000))
	refused(t, "big.npz", npz(t, true, map[string][]byte{"x": big}), formats.ErrTooLarge, "IDXLABEL_MAX_DATA")
}

// A zip whose directory lists more entries than an .npz holds is refused before archive/zip
// reads the directory.
func TestHostileZipDirectory(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("PK\x03\x04")
	b.Write(make([]byte, 100))
	eocd := make([]byte, 22)
	copy(eocd, "PK\x05\x06")
	binary.LittleEndian.PutUint16(eocd[8:], 0xfffe)
	binary.LittleEndian.PutUint16(eocd[10:], 0xfffe)
	binary.LittleEndian.PutUint32(eocd[12:], 100)
	b.Write(eocd)
	refused(t, "entries.npz", b.Bytes(), formats.ErrTooLarge, "65534 entries")
}

// Kaggle CSV that is not what the header says is refused naming the line.
func TestHostileKaggleCSV(t *testing.T) {
	head := "label,pixel0,pixel1,pixel2,pixel3\n"
	refused(t, "square.csv", []byte("label,pixel0,pixel1,pixel2\n1,0,0,0\n"), formats.ErrMalformed, "not a square")
	refused(t, "value.csv", []byte(head+"1,0,0,0,256\n"), formats.ErrMalformed, "line 2", "pixel 3")
	refused(t, "short.csv", []byte(head+"1,0,0,0,0\n2,0,0,0\n"), formats.ErrMalformed, "line 3", "3 pixels")
	refused(t, "label.csv", []byte(head+"x,0,0,0,0\n"), formats.ErrMalformed, "line 2", "label")
	refused(t, "huge.csv", []byte(head+"1,"+strings.Repeat("0", 50<<20)+"\n"), formats.ErrMalformed, "line 2", "longer than")
	refused(t, "header.csv", []byte("label,pixel0,pixel2,pixel1,pixel3\n"), formats.ErrMalformed, "pixel1")
	refused(t, "padded.csv", []byte(head+"1,0,0,0,00256\n"), formats.ErrMalformed, "line 2", "pixel 3")
	// Leading zeros are an integer's all the same: 00255 is 255, 00001 is 1 (not the first four
	// digits' 25 and 0).
	padded := filepath.Join(t.TempDir(), "padded.csv")
	os.WriteFile(padded, []byte(head+"1,00255,0001,7,00001\n"), 0o644)
	if s, err := formats.Read(context.Background(), padded, formats.Options{}); err != nil || string(s.Images.Data) != "\xff\x01\x07\x01" {
		t.Errorf("zero-padded pixels: %v, read %v", err, s)
	}
}

// footer returns a Parquet file holding only the footer given.
func footer(meta []byte) []byte {
	out := append([]byte("PAR1"), meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, "PAR1"...)
}

// Parquet metadata that declares more than it holds is refused before the library decodes it.
func TestHostileParquetFooter(t *testing.T) {
	// FileMetaData: field 1 (version, i32 1), field 2 (schema: a list of 2^31−1 structs).
	meta := []byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}
	refused(t, "list.parquet", footer(meta), formats.ErrMalformed, "footer")
	// A string of 2 GB in 10 bytes.
	refused(t, "string.parquet", footer([]byte{0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}), formats.ErrMalformed)
	// A footer longer than the file.
	bad := footer([]byte{0x00})
	binary.LittleEndian.PutUint32(bad[len(bad)-8:], 1<<31)
	refused(t, "length.parquet", bad, formats.ErrMalformed, "footer of 2147483648 bytes")
	refused(t, "nested.parquet", footer(append(bytes.Repeat([]byte{0x1c}, 100), 0)), formats.ErrMalformed, "nested")
}

// hfRow is a row as Hugging Face writes it, for writing test files.
type hfImage struct {
	Bytes []byte  `parquet:"bytes,optional,plain"`
	Path  *string `parquet:"path,optional"`
}

type hfRow struct {
	Image *hfImage `parquet:"image,optional"`
	Label *int64   `parquet:"label,optional"`
}

// writeParquet writes rows to path, uncompressed so tests can patch their bytes.
func writeParquet[T any](t *testing.T, path string, rows []T, opts ...parquet.WriterOption) {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b, append([]parquet.WriterOption{parquet.Compression(&parquet.Uncompressed)}, opts...)...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pngOf encodes a w×h grey image whose pixel (x, y) is v(x, y).
func pngOf(w, h int, v func(x, y int) byte) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Pix[y*w+x] = v(x, y)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// A row whose image does not decode, is null, or declares a huge size is refused naming the
// file and the row.
func TestParquetBadRows(t *testing.T) {
	dir := t.TempDir()
	good := pngOf(4, 4, func(x, y int) byte { return byte(x * y * 10) })
	huge := pngOf(4, 4, func(x, y int) byte { return 1 })
	binary.BigEndian.PutUint32(huge[16:], 60000) // IHDR width and height
	binary.BigEndian.PutUint32(huge[20:], 60000)
	label := int64(3)
	for name, bad := range map[string]*hfImage{
		"garbage": {Bytes: []byte("not an image at all")},
		"null":    nil,
		"huge":    {Bytes: huge},
	} {
		rows := make([]hfRow, 10)
		for k := range rows {
			rows[k] = hfRow{Image: &hfImage{Bytes: good}, Label: &label}
		}
		rows[7].Image = bad
		path := filepath.Join(dir, name+".parquet")
		writeParquet(t, path, rows)
		err, alloc := readBounded(t, path, formats.Options{})
		if err == nil || !strings.Contains(err.Error(), path+": row 7") {
			t.Fatalf("%s: %v, want an error naming %s: row 7", name, err, path)
		}
		if alloc > 64<<20 {
			t.Fatalf("%s: %d MiB allocated", name, alloc>>20)
		}
	}
}

// A page whose definition levels declare more values than the page holds is refused before the
// library decodes them (it allocates what the runs declare).
func TestParquetLevelRuns(t *testing.T) {
	good := pngOf(3, 3, func(x, y int) byte { return byte(x + y) })
	label := int64(1)
	rows := make([]hfRow, 10)
	for k := range rows {
		rows[k] = hfRow{Image: &hfImage{Bytes: good}, Label: &label}
	}
	path := filepath.Join(t.TempDir(), "runs.parquet")
	writeParquet(t, path, rows, parquet.DataPageVersion(1))
	b, _ := os.ReadFile(path)
	// The label column's definition levels: a 4-byte length 4, then a run of 8 ones (header
	// 8<<1 = 0x10, value 1) and one of 2. Make the first a run of 63.
	at := bytes.LastIndex(b, []byte{0x04, 0x00, 0x00, 0x00, 0x10, 0x01, 0x04, 0x01})
	if at < 0 {
		t.Fatal("no definition levels found to patch")
	}
	b[at+4] = 0x7e
	refused(t, "runs.parquet", b, formats.ErrMalformed, "definition levels", "runs of 63")
}

// Columns are found by type, named by option, and refused with a list when ambiguous.
func TestParquetColumns(t *testing.T) {
	dir := t.TempDir()
	type flat struct {
		ID     int32  `parquet:"id"`
		Img    []byte `parquet:"img,plain"`
		Target int32  `parquet:"target"`
	}
	type two struct {
		A     []byte `parquet:"a,plain"`
		B     []byte `parquet:"b,plain"`
		Label int64  `parquet:"label"`
	}
	px := func(k int) []byte { return pngOf(5, 5, func(x, y int) byte { return byte(k*10 + x) }) }
	var fl []flat
	var tw []two
	for k := range 20 {
		fl = append(fl, flat{ID: int32(1000 + k), Img: px(k), Target: int32(k % 4)})
		tw = append(tw, two{A: px(k), B: px(k + 1), Label: int64(k % 2)})
	}
	writeParquet(t, filepath.Join(dir, "flat.parquet"), fl)
	writeParquet(t, filepath.Join(dir, "two.parquet"), tw)
	// Two integer columns: neither is "label", so the choice is asked for.
	_, err := formats.Read(context.Background(), filepath.Join(dir, "flat.parquet"), formats.Options{})
	if err == nil || !strings.Contains(err.Error(), "--label-column") || !strings.Contains(err.Error(), "id, target") {
		t.Fatalf("flat: %v", err)
	}
	s, err := formats.Read(context.Background(), filepath.Join(dir, "flat.parquet"), formats.Options{LabelColumn: "target"})
	if err != nil {
		t.Fatal(err)
	}
	if s.N() != 20 || s.Labels.Int(7) != 3 || s.Images.Dims[1] != 5 || s.Images.Data[7*25+3] != 73 {
		t.Fatalf("flat: %d samples, label 7 = %d, dims %v", s.N(), s.Labels.Int(7), s.Images.Dims)
	}
	_, err = formats.Read(context.Background(), filepath.Join(dir, "two.parquet"), formats.Options{})
	if err == nil || !strings.Contains(err.Error(), "--image-column") {
		t.Fatalf("two: %v", err)
	}
	s, err = formats.Read(context.Background(), filepath.Join(dir, "two.parquet"), formats.Options{ImageColumn: "b"})
	if err != nil || s.Images.Data[0] != 10 || s.Labels.Int(1) != 1 {
		t.Fatalf("two, column b: %v", err)
	}
	_, err = formats.Read(context.Background(), filepath.Join(dir, "two.parquet"), formats.Options{ImageColumn: "label"})
	if err == nil || !strings.Contains(err.Error(), `column "label" is not images`) {
		t.Fatalf("two, column label: %v", err)
	}
}

// Images of another size than the samples' go through MNIST's preprocessing: a large digit
// becomes a 28×28 sample, said in a note.
func TestParquetPreprocessesOtherSizes(t *testing.T) {
	label := int64(1)
	// A 100×100 dark bar on white: a "1" photographed.
	bar := pngOf(100, 100, func(x, y int) byte {
		if x > 45 && x < 55 && y > 10 && y < 90 {
			return 0
		}
		return 255
	})
	rows := []hfRow{{Image: &hfImage{Bytes: bar}, Label: &label}}
	path := filepath.Join(t.TempDir(), "photo.parquet")
	writeParquet(t, path, rows)
	s, err := formats.Read(context.Background(), path, formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.Images.Dims) != "[1 28 28]" || s.Images.Data[14*28+14] < 200 || s.Images.Data[0] != 0 {
		t.Fatalf("dims %v, centre %d, corner %d", s.Images.Dims, s.Images.Data[14*28+14], s.Images.Data[0])
	}
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "MNIST's preprocessing") {
		t.Fatalf("notes %q", s.Notes)
	}
}

// A ClassLabel listing millions of names (the metadata may hold 64 MiB) keeps the names of the
// first 100,000 classes (export's bound on a ClassLabel), within the 1 MiB a class-name file
// may hold, and says the rest were left out; the names are read one at a time, never all held
// as strings in a map (2,000,000 names allocated about 400 MiB and wrote a class-name file
// idxlabel then refuses to read).
func TestParquetManyClassNames(t *testing.T) {
	good := pngOf(3, 3, func(x, y int) byte { return byte(x + y) })
	label := int64(1)
	rows := []hfRow{{Image: &hfImage{Bytes: good}, Label: &label}}
	var meta strings.Builder
	meta.WriteString(`{"info":{"features":{"image":{"_type":"Image"},"label":{"names":[`)
	const listed = 2_000_000
	for k := range listed {
		if k > 0 {
			meta.WriteByte(',')
		}
		fmt.Fprintf(&meta, `"c%d"`, k)
	}
	meta.WriteString(`],"_type":"ClassLabel"}}}}`)
	path := filepath.Join(t.TempDir(), "names.parquet")
	writeParquet(t, path, rows, parquet.KeyValueMetadata(formats.HFMetadataKey, meta.String()))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := formats.Read(context.Background(), path, formats.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	bytes := 0
	for _, n := range s.Names {
		bytes += len(n)
	}
	if len(s.Names) != 100_000 || s.Names[99_999] != "c99999" || bytes > 1<<20 {
		t.Errorf("%d names kept (%d bytes), the last %q; want the first 100,000 classes'", len(s.Names), bytes, s.Names[len(s.Names)-1])
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "1900000 class names past the first 100000 classes") {
		t.Errorf("notes %q do not say the names left out", s.Notes)
	}
	// The footer holding the metadata (22 MB) is read by the footer's check and by the
	// library, and the JSON copied a few times on its way to the names: about 160 MiB; holding
	// every name as a string in a map allocated 538 MiB.
	alloc := after.TotalAlloc - before.TotalAlloc
	if alloc > 320<<20 {
		t.Errorf("%d MiB allocated to read %d class names", alloc>>20, listed)
	}
	t.Logf("%d MiB allocated to read a file of %d class names", alloc>>20, listed)
}
