package cli

import (
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/normalize"
)

// writeDigitPNG writes a dark-on-light "paper" image of a thick bar at an angle (like a "1" or
// "7" stroke) to path.
func writeDigitPNG(t *testing.T, path string, w, h int, slant float64) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.White)
		}
	}
	for y := h / 6; y < h*5/6; y++ {
		cx := float64(w)/2 + slant*float64(y-h/2)
		for x := int(cx) - w/12; x <= int(cx)+w/12; x++ {
			img.Set(x, y, color.Black)
		}
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	png.Encode(f, img)
	f.Close()
}

func TestNormalizeCommand(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "scan.png"), filepath.Join(dir, "out.png")
	writeDigitPNG(t, in, 300, 400, 0.3)
	code, stdout, stderr := runCLI("normalize", in, out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, _ := os.Open(out)
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds() != image.Rect(0, 0, 28, 28) {
		t.Fatalf("output %v %v", img.Bounds(), err)
	}
	g := img.(*image.Gray)
	row, col, _ := normalize.CenterOfMass(g)
	box, _ := normalize.BoundingBox(g)
	if math.Abs(row-14) > 0.5 || math.Abs(col-14) > 0.5 || box.Dy() != 20 {
		t.Fatalf("centre (%.2f, %.2f), box %v", row, col, box)
	}
	if !strings.Contains(stdout, "ink box") {
		t.Fatalf("stdout %q", stdout)
	}
	if code, _, stderr := runCLI("normalize", "--center", "middle", in, out); code != 2 || !strings.Contains(stderr, "expected mass or box") {
		t.Fatalf("bad --center: %d %q", code, stderr)
	}
	if code, _, stderr := runCLI("normalize", "--force", filepath.Join(dir, "missing.png"), out); code != 1 || !strings.Contains(stderr, "missing.png: no such file") {
		t.Fatalf("missing input: %d %q", code, stderr)
	}
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "7", "b.png"), 120, 160, 0.4)
	writeDigitPNG(t, filepath.Join(tree, "7", "a.png"), 100, 100, -0.2)
	writeDigitPNG(t, filepath.Join(tree, "10", "x.png"), 80, 90, 0)
	writeDigitPNG(t, filepath.Join(tree, "1", "z.png"), 50, 200, 0)
	os.WriteFile(filepath.Join(tree, "1", "broken.png"), []byte("not a png"), 0o644)
	os.WriteFile(filepath.Join(tree, "1", "notes.txt"), []byte("ignored"), 0o644)
	os.MkdirAll(filepath.Join(tree, "misc"), 0o755)
	ip, lp := filepath.Join(dir, "out-images-idx3-ubyte.gz"), filepath.Join(dir, "out-labels-idx1-ubyte.gz")
	code, stdout, stderr := runCLI("import", tree, ip, lp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"broken.png: cannot decode", "misc: class folder holds no image", "notes.txt: not an image idxlabel reads"} {
		if !strings.Contains(stderr, want) {
			t.Fatalf("skipped files not reported (%q): %q", want, stderr)
		}
	}
	if !strings.Contains(stdout, "4 samples of 28×28") || !strings.Contains(stdout, "(3 skipped)") {
		t.Fatalf("stdout %q", stdout)
	}
	images, err := idx.ReadFile(ip)
	if err != nil || images.Header.String() != "0x00000803 ubyte 4×28×28" {
		t.Fatalf("images %v %v", images, err)
	}
	labels, _ := idx.ReadFile(lp)
	// Sorted: folders by label (1, 7, 10), files by name (a before b).
	if string(labels.Data) != string([]byte{1, 7, 7, 10}) {
		t.Fatalf("labels %v", labels.Data)
	}
	if code, _, _ := runCLI("verify", ip, lp); code != 0 {
		t.Fatal("the imported pair does not verify")
	}
	// The 50×200 "1" keeps its aspect ratio when normalized (a bar about 2 px wide)…
	first := &image.Gray{Pix: images.Data[:784], Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
	if box, _ := normalize.BoundingBox(first); box.Dx() > 3 || box.Dy() != 20 {
		t.Fatalf("normalized 1: box %v", box)
	}
	// …and is squeezed to 28×28 with --no-normalize (the bar widens to about 5 px).
	code, _, _ = runCLI("import", "--no-normalize", "--force", tree, ip, lp)
	images, _ = idx.ReadFile(ip)
	first = &image.Gray{Pix: images.Data[:784], Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
	if box, _ := normalize.BoundingBox(first); code != 0 || box.Dx() < 4 {
		t.Fatalf("--no-normalize: exit %d, box %v", code, box)
	}
	if code, _, stderr := runCLI("import", "--force", filepath.Join(dir, "nothing"), ip, lp); code != 1 || !strings.Contains(stderr, "nothing: no such file") {
		t.Fatalf("missing folder: %d %q", code, stderr)
	}
}

// TestImportRefusesWrappingFolderNames: "4294967296" used to become label 0, "2147483648"
// label −2147483648.
func TestImportRefusesWrappingFolderNames(t *testing.T) {
	for _, name := range []string{"4294967296", "2147483648"} {
		dir := t.TempDir()
		tree := filepath.Join(dir, "digits")
		writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 60, 0)
		writeDigitPNG(t, filepath.Join(tree, name, "b.png"), 60, 60, 0)
		ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
		code, _, e := runCLI("import", tree, ip, lp)
		if code != 1 || !strings.Contains(e, filepath.Join(tree, name)+": folder name "+name+" is above the largest label") {
			t.Fatalf("%s: exit %d, %q", name, code, e)
		}
		if _, err := os.Stat(lp); err == nil {
			t.Fatalf("%s: labels written", name)
		}
	}
	// The largest label that fits is taken, as int32.
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "2147483647", "b.png"), 60, 60, 0)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if code, _, e := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("2147483647: %q", e)
	}
	if l, err := idx.ReadFile(lp); err != nil || l.Int(0) != math.MaxInt32 {
		t.Fatalf("labels %v %v", l, err)
	}
}

// TestImportSkipsHugeImages: a 20,000×20,000 PNG is skipped, named, without being decoded.
func TestImportSkipsHugeImages(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "1", "ok.png"), 60, 60, 0)
	huge := filepath.Join(tree, "1", "huge.png")
	os.WriteFile(huge, pngHeader20k(), 0o644)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	code, out, e := runCLI("import", tree, ip, lp)
	if code != 0 || !strings.Contains(e, huge+": image too large: 20000×20000 pixels") || !strings.Contains(out, "1 samples of 28×28") || !strings.Contains(out, "(1 skipped)") {
		t.Fatalf("exit %d, %q %q", code, out, e)
	}
}

// pngHeader20k is the signature and IHDR chunk of a 20,000×20,000 8-bit grey PNG: all that
// image.DecodeConfig reads.
func pngHeader20k() []byte {
	chunk := []byte("IHDR\x00\x00\x4e\x20\x00\x00\x4e\x20\x08\x00\x00\x00\x00")
	b := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), chunk...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(chunk))
}
