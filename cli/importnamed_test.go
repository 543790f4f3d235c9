package cli

import (
	"fmt"
	"image"
	"image/gif"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// TestImportNamedFolders: folders named cat/, dog/, A/ become classes 0, 1, 2 in sorted name
// order (A, cat, dog: torchvision's numbering), the names go to the class-name file beside the
// labels (the one the app reads), and the skipped count is the number of files listed.
func TestImportNamedFolders(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "pets")
	writeDigitPNG(t, filepath.Join(tree, "dog", "d.png"), 60, 80, 0.2)
	writeDigitPNG(t, filepath.Join(tree, "cat", "c.png"), 60, 80, -0.2)
	writeDigitPNG(t, filepath.Join(tree, "cat", "more", "c2.png"), 70, 80, 0)
	writeDigitPNG(t, filepath.Join(tree, "A", "a.png"), 50, 90, 0)
	os.WriteFile(filepath.Join(tree, "dog", "old.bmp"), []byte("BM"), 0o644)
	os.WriteFile(filepath.Join(tree, "cat", "anim.gif"), []byte("GIF89a"), 0o644)
	ip, lp := filepath.Join(dir, "pets-images-idx3-ubyte"), filepath.Join(dir, "pets-labels-idx1-ubyte")
	code, stdout, stderr := runCLI("import", tree, ip, lp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	listed := strings.Count(stderr, "(skipped)")
	if listed != 2 || !strings.Contains(stdout, "4 samples of 28×28") || !strings.Contains(stdout, fmt.Sprintf("(%d skipped)", listed)) {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	labels, _ := idx.ReadFile(lp)
	if fmt.Sprint(labels.Data) != "[0 1 1 2]" {
		t.Errorf("labels %v, want A 0, cat 1 1, dog 2", labels.Data)
	}
	names, file, err := pairfile.FindClassNames(lp)
	if err != nil || file != lp+".classes.txt" || fmt.Sprint(names) != "map[0:A 1:cat 2:dog]" {
		t.Errorf("class names %v from %q (%v)", names, file, err)
	}
}

// TestImportPrintsEveryFolderClass: import says which class each named folder became, every
// folder once, none as a blank name: a folder without images keeps its number (torchvision's
// rule), one whose name is not printable text is shown quoted. Before, it printed the class-name
// file's names by number up to their count: a blank for the folder without a name, and the last
// folder left out.
func TestImportPrintsEveryFolderClass(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a folder name with a control character cannot be made on Windows")
	}
	dir := t.TempDir()
	tree := filepath.Join(dir, "pets")
	writeDigitPNG(t, filepath.Join(tree, "A", "a.png"), 50, 90, 0)
	writeDigitPNG(t, filepath.Join(tree, "b\x01", "b.png"), 60, 80, 0.1)
	writeDigitPNG(t, filepath.Join(tree, "cat", "c.png"), 60, 80, -0.2)
	writeDigitPNG(t, filepath.Join(tree, "dog", "d.png"), 60, 80, 0.2)
	os.MkdirAll(filepath.Join(tree, "bird"), 0o755) // sorted between "b\x01" and "cat"
	ip, lp := filepath.Join(dir, "pets-images-idx3-ubyte"), filepath.Join(dir, "pets-labels-idx1-ubyte")
	code, _, stderr := runCLI("import", tree, ip, lp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `import: 5 class folders named, not numbered: classes numbered in sorted name order, as torchvision's ImageFolder numbers them (A → 0, "b\x01" → 1 (no name: not printable text), bird → 2 (no images), cat → 3, dog → 4); names in ` + lp + ".classes.txt\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q\nwant the line %q", stderr, want)
	}
	labels, _ := idx.ReadFile(lp)
	if fmt.Sprint(labels.Data) != "[0 1 3 4]" {
		t.Errorf("labels %v, want A 0, b\\x01 1, cat 3, dog 4", labels.Data)
	}
	names, _, err := pairfile.FindClassNames(lp)
	if err != nil || fmt.Sprint(names) != "map[0:A 2:bird 3:cat 4:dog]" {
		t.Errorf("class names %v (%v)", names, err)
	}
}

// TestImportSizeAndTranspose: --size 20x12 makes 12 rows of 20 pixels; --transpose stores each
// sample transposed (20 rows of 12), exactly the transpose of the untransposed import.
func TestImportSizeAndTranspose(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.3)
	writeDigitPNG(t, filepath.Join(tree, "5", "b.png"), 90, 80, -0.1)
	a1, a2 := filepath.Join(dir, "a-images"), filepath.Join(dir, "a-labels")
	b1, b2 := filepath.Join(dir, "b-images"), filepath.Join(dir, "b-labels")
	if code, _, e := runCLI("import", "--size", "20x12", tree, a1, a2); code != 0 {
		t.Fatalf("exit %d %s", code, e)
	}
	if code, _, e := runCLI("import", "--size", "20x12", "--transpose", tree, b1, b2); code != 0 {
		t.Fatalf("exit %d %s", code, e)
	}
	a, _ := idx.ReadFile(a1)
	b, _ := idx.ReadFile(b1)
	if a.Header.String() != "0x00000803 ubyte 2×12×20" || b.Header.String() != "0x00000803 ubyte 2×20×12" {
		t.Fatalf("headers %s, %s", a.Header, b.Header)
	}
	for n := range 2 {
		for r := range 12 {
			for c := range 20 {
				if a.Data[n*240+r*20+c] != b.Data[n*240+c*12+r] {
					t.Fatalf("sample %d: (%d,%d) is not the transposed (%d,%d)", n, r, c, c, r)
				}
			}
		}
	}
	if code, _, e := runCLI("import", "--size", "28", tree, a1, a2); code != 2 || !strings.Contains(e, "expected WIDTHxHEIGHT") {
		t.Errorf("--size 28: exit %d %q", code, e)
	}
}

// TestImportOtherFormats: the same digit as PNG, GIF, BMP and TIFF (all lossless) gives the same
// sample from each.
func TestImportOtherFormats(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	src := filepath.Join(tree, "4", "a.png")
	writeDigitPNG(t, src, 60, 80, 0.3)
	f, _ := os.Open(src)
	img, _, err := image.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for ext, enc := range map[string]func(io.Writer, image.Image) error{
		"b.gif":  func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) },
		"c.bmp":  bmp.Encode,
		"d.tiff": func(w io.Writer, m image.Image) error { return tiff.Encode(w, m, nil) },
	} {
		out, _ := os.Create(filepath.Join(tree, "4", ext))
		if err := enc(out, img); err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if code, out, e := runCLI("import", tree, ip, lp); code != 0 || !strings.Contains(out, "4 samples") || !strings.Contains(out, "(0 skipped)") {
		t.Fatalf("exit %d, %q, %q", code, out, e)
	}
	a, _ := idx.ReadFile(ip)
	for k := 1; k < 4; k++ {
		if string(a.Data[k*784:(k+1)*784]) != string(a.Data[:784]) {
			t.Errorf("sample %d differs from the PNG's", k)
		}
	}
}
