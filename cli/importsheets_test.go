package cli

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gendigits "idxlabel/fixture/digits"
	"idxlabel/fixture/sheetgen"
	"idxlabel/idx"
	"idxlabel/sheets"
)

// writeSheets writes generated 150 dpi scans of generated digits (fixture/digits) (the default layout: 10×12, row k
// the digit k) into dir under the names given, and returns how many boxes of each are filled.
func writeSheets(t *testing.T, dir string, names ...string) []int {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	images, labels := gendigits.Load(t, 2000)
	var filled []int
	for k, name := range names {
		s, err := sheetgen.Make(sheetgen.MNISTDigits(images.Data, labels.Data), sheetgen.Options{Kind: sheetgen.Scan, Seed: uint64(100 + k), DPI: 150, TouchShare: -1})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, s.Image, &jpeg.Options{Quality: 80}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range s.Boxes {
			if b.Filled {
				n++
			}
		}
		filled = append(filled, n)
	}
	return filled
}

// writePNGHeader writes a PNG whose header claims w×h pixels, followed by no image data: what
// an attacker sends to make a reader allocate w×h.
func writePNGHeader(t *testing.T, path string, w, h uint32) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// import-sheets reads every sheet of a folder, tells what each held, takes nothing from pages
// it cannot read or without a grid, and writes the pair (labels N×2: class, writer) and a
// contact sheet; split --group-column 1 then keeps each writer on one side.
func TestImportSheets(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "scans")
	filled := writeSheets(t, in, "sheet-2.jpg", "sheet-10.jpg")
	blank := image.NewGray(image.Rect(0, 0, 800, 1100))
	for i := range blank.Pix {
		blank.Pix[i] = 235
	}
	f, _ := os.Create(filepath.Join(in, "sheet-11-blank.png"))
	png.Encode(f, blank)
	f.Close()
	os.WriteFile(filepath.Join(in, "sheet-12-empty.png"), nil, 0o644)
	writePNGHeader(t, filepath.Join(in, "sheet-13-huge.png"), 20000, 20000)
	os.WriteFile(filepath.Join(in, "notes.txt"), []byte("x"), 0o644)
	images, labels := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx2-int")
	code, stdout, stderr := runCLI("import-sheets", in, images, labels)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Log(stderr)
	for _, want := range []string{
		"notes.txt: not an image file (skipped)",
		"sheet-2.jpg: 120 boxes found: ", "; writer 0",
		"sheet-10.jpg: 120 boxes found: ", "; writer 1",
		"sheet-11-blank.png: grid not found: ", "sheet-12-empty.png: cannot decode",
		"sheet-13-huge.png: image too large: 20000×20000 pixels",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if strings.Count(stderr, "(no sample taken)") != 3 {
		t.Errorf("%d sheets said to give no sample, want 3", strings.Count(stderr, "(no sample taken)"))
	}
	if strings.Index(stderr, "sheet-2.jpg") > strings.Index(stderr, "sheet-10.jpg") {
		t.Errorf("sheet-10 read before sheet-2: natural order expected")
	}
	la, err := idx.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.ReadFile(images)
	if err != nil {
		t.Fatal(err)
	}
	n := im.Header.Dims[0]
	if la.Header.Type != idx.Int32 || len(la.Header.Dims) != 2 || la.Header.Dims[0] != n || la.Header.Dims[1] != 2 {
		t.Fatalf("labels %v, images %v", la.Header, im.Header)
	}
	if n < filled[0]+filled[1]-4 || n > filled[0]+filled[1] {
		t.Errorf("%d samples of %d filled boxes", n, filled[0]+filled[1])
	}
	perWriter := map[int64]int{}
	for i := range n {
		if c := la.Int(2 * i); c < 0 || c > 9 {
			t.Fatalf("sample %d has class %d", i, c)
		}
		perWriter[la.Int(2*i+1)]++
	}
	if len(perWriter) != 2 || perWriter[0] == 0 || perWriter[1] == 0 {
		t.Errorf("samples per writer %v, want writers 0 and 1", perWriter)
	}
	if !strings.Contains(stdout, "samples of 28×28 from 2 of 5 sheets") {
		t.Errorf("stdout %q", stdout)
	}
	// Each sample's sheet and box, in the pair's order, for the window's detail panel.
	src, err := os.ReadFile(labels + ".sources.txt")
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	if err != nil || len(lines) != n || !strings.HasPrefix(lines[0], "sheet-2.jpg row 0, column ") || !strings.HasPrefix(lines[n-1], "sheet-10.jpg row 9, column ") {
		t.Errorf("sources %v: %d lines for %d samples, first %q, last %q", err, len(lines), n, lines[0], lines[len(lines)-1])
	}
	cf, err := os.Open(images + ".sheets.png")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := png.Decode(cf)
	cf.Close()
	if err != nil || cs.Bounds().Dx() < 1000 {
		t.Fatalf("contact sheet %v %v", cs.Bounds(), err)
	}
	// An existing output is refused without --force, replaced with it.
	if code, _, stderr := runCLI("import-sheets", in, images, labels); code != 1 || !strings.Contains(stderr, "--force") {
		t.Fatalf("second run: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("import-sheets", "--force", filepath.Join(in, "sheet-2.jpg"), images, labels); code != 0 {
		t.Fatalf("--force: exit %d %q", code, stderr)
	}
	// A writer-disjoint split of the first pair's writers.
	out := filepath.Join(dir, "parts")
	os.MkdirAll(out, 0o755)
	code, _, stderr = runCLI("import-sheets", "--force", in, images, labels)
	if code != 0 {
		t.Fatal(stderr)
	}
	tr, trl, te, tel := filepath.Join(out, "tr-images"), filepath.Join(out, "tr-labels"), filepath.Join(out, "te-images"), filepath.Join(out, "te-labels")
	if code, _, stderr := runCLI("split", "--group-column", "1", "--test", "0.5", images, labels, tr, trl, te, tel); code != 0 {
		t.Fatalf("split: %d %s", code, stderr)
	}
	a, _ := idx.ReadFile(trl)
	b, _ := idx.ReadFile(tel)
	writers := func(x *idx.Array) map[int64]bool {
		m := map[int64]bool{}
		for i := range x.Header.Dims[0] {
			m[x.Int(2*i+1)] = true
		}
		return m
	}
	for w := range writers(a) {
		if writers(b)[w] {
			t.Errorf("writer %d on both sides of the split", w)
		}
	}
}

// --writer-from name takes the writer from the first number in each file name, so two pages of
// writer 7 share it; a name without a number is refused before anything is read.
func TestImportSheetsWriterFromName(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and reads three sheets")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "scans")
	writeSheets(t, in, "w7-page1.jpg", "w7-page2.jpg", "w12.jpg")
	images, labels := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if code, _, stderr := runCLI("import-sheets", "--writer-from", "name", in, images, labels); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	la, _ := idx.ReadFile(labels)
	seen := map[int64]int{}
	for i := range la.Header.Dims[0] {
		seen[la.Int(2*i+1)]++
	}
	if len(seen) != 2 || seen[7] < 150 || seen[12] < 75 {
		t.Errorf("writers %v, want 7 (two pages) and 12", seen)
	}
	os.Rename(filepath.Join(in, "w12.jpg"), filepath.Join(in, "anonymous.jpg"))
	code, _, stderr := runCLI("import-sheets", "--force", "--writer-from", "name", in, images, labels)
	if code != 1 || !strings.Contains(stderr, "anonymous.jpg: no number in the file name") {
		t.Fatalf("a name without a number: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("import-sheets", "--writer-from", "folder", in, images, labels); code != 2 || !strings.Contains(stderr, "expected index or name") {
		t.Fatalf("--writer-from folder: exit %d %q", code, stderr)
	}
}

// A layout is the layout file or --rows/--cols/--labels, never both; a bad or hostile layout
// file is refused naming it; a layout of another shape than the sheets' reads nothing and says
// what the sheets hold; nothing is written.
func TestImportSheetsLayouts(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "scans")
	writeSheets(t, in, "a.jpg")
	images, labels := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	lf := filepath.Join(dir, "layout.json")
	os.WriteFile(lf, []byte(`{"rows": 10, "cols": 12, "labels": "rows=0123456789"}`), 0o644)
	if code, _, stderr := runCLI("import-sheets", "--layout", lf, "--rows", "5", in, images, labels); code != 2 || !strings.Contains(stderr, "leave out --rows") {
		t.Fatalf("--layout and --rows: exit %d %q", code, stderr)
	}
	for body, want := range map[string]string{
		``: "not a layout",
		`{"rows": 1000000000, "cols": 1000000000}`:                                              "rows must be 1–64",
		`{"rows": 2, "cols": 2, "boxes": [{"row": 0, "col": 0, "label": 1}]}`:                   "row 0, col 1 has no label",
		`{"rows": 10, "cols": 12, "labels": "rows=0123456789", "extra": 1}`:                     "unknown field",
		`{"rows": 2, "cols": 2, "labels": "1234", "boxes": [{"row": 5, "col": 0, "label": 1}]}`: "outside the grid",
	} {
		os.WriteFile(lf, []byte(body), 0o644)
		code, _, stderr := runCLI("import-sheets", "--layout", lf, in, images, labels)
		if code != 1 || !strings.Contains(stderr, lf) || !strings.Contains(stderr, want) {
			t.Errorf("layout %q: exit %d %q, want %q", body, code, stderr, want)
		}
	}
	big := bytes.Repeat([]byte(" "), sheets.MaxLayoutBytes+1)
	os.WriteFile(lf, big, 0o644)
	if code, _, stderr := runCLI("import-sheets", "--layout", lf, in, images, labels); code != 1 || !strings.Contains(stderr, "at most 1048576") {
		t.Errorf("a 1 MiB layout: exit %d %q", code, stderr)
	}
	code, _, stderr := runCLI("import-sheets", "--rows", "10", "--cols", "11", "--labels", "rows=0123456789", in, images, labels)
	if code != 1 || !strings.Contains(stderr, "the grid found has 10 rows × 12 columns of boxes; the layout has 10 × 11") || !strings.Contains(stderr, "no sample read") {
		t.Fatalf("a 10×11 layout on 10×12 sheets: exit %d %q", code, stderr)
	}
	for _, p := range []string{images, labels, images + ".sheets.png"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written", p)
		}
	}
	if code, _, stderr := runCLI("import-sheets", "--rows", "9", in, images, labels); code != 2 || !strings.Contains(stderr, "needs its labels") {
		t.Errorf("--rows 9 without labels: exit %d %q", code, stderr)
	}
}

// --print-template writes the sheet for the layout as a PDF, under the output rule.
func TestImportSheetsPrintTemplate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sheet.pdf")
	code, stdout, stderr := runCLI("import-sheets", "--print-template", out, "--rows", "5", "--cols", "8", "--labels", "cols=01234567")
	if code != 0 || !strings.Contains(stdout, "5×8 boxes") {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	b, _ := os.ReadFile(out)
	if !bytes.HasPrefix(b, []byte("%PDF-1.4")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) || !bytes.Contains(b, []byte("--rows 5 --cols 8 --labels cols=01234567")) {
		t.Fatalf("not the template PDF: %q…", b[:min(len(b), 80)])
	}
	if code, _, stderr := runCLI("import-sheets", "--print-template", out); code != 1 || !strings.Contains(stderr, "--force") {
		t.Fatalf("existing template: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("import-sheets", "--print-template", out, "--force", "scans"); code != 2 || !strings.Contains(stderr, "reads no sheet") {
		t.Fatalf("template with sheets: exit %d %q", code, stderr)
	}
}
