package normalize

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pngHeader returns the start of a PNG file declaring width×height pixels of the given bit
// depth and colour type (PNG spec: 0 grey, 2 RGB, 6 RGBA): enough for image.DecodeConfig, and
// what a hostile file would be before its (tiny, highly compressible) image data.
func pngHeader(width, height uint32, depth, colorType byte) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, width)
	ihdr = binary.BigEndian.AppendUint32(ihdr, height)
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b = append(b, chunk...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(chunk))
}

// TestLoadFileRefusesHugeImagesBeforeDecoding: a 20,000×20,000 PNG (505 KB on disk) used to be
// decoded whole (0.9 GB). Now DecodeConfig's dimensions refuse it, and ones whose colour model
// would need too much memory, before any pixel is decoded.
func TestLoadFileRefusesHugeImagesBeforeDecoding(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		w, h             uint32
		depth, colorType byte
		want             string
	}{
		{20000, 20000, 8, 0, "20000×20000 pixels (400.0 megapixels), above the 40 megapixels"},
		{40001, 1000, 8, 0, "above the 40 megapixels"},
		{6000, 6000, 8, 6, "6000×6000 pixels of png at 4 bytes each would need 206 MiB to decode, above the 192 MiB"},
		{5000, 5000, 16, 6, "at 8 bytes each"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, strconv.Itoa(int(c.w))+"x"+strconv.Itoa(int(c.h))+".png")
		os.WriteFile(p, pngHeader(c.w, c.h, c.depth, c.colorType), 0o644)
		var err error
		alloc := testing.AllocsPerRun(1, func() { _, err = LoadFile(p, Options{}, true) })
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("%d×%d: %v, want %q", c.w, c.h, err, c.want)
		}
		if alloc > 200 {
			t.Errorf("%d×%d: %v allocations to refuse it", c.w, c.h, alloc)
		}
	}
	// Just under the limits, an honest grey image decodes.
	g := image.NewGray(image.Rect(0, 0, 7000, 5000))
	for y := 2000; y < 3000; y++ {
		for x := 3000; x < 3300; x++ {
			g.Pix[y*g.Stride+x] = 255
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, g)
	p := filepath.Join(dir, "ok.png")
	os.WriteFile(p, buf.Bytes(), 0o644)
	if pix, err := LoadFile(p, Options{Polarity: InkLight}, true); err != nil || len(pix) != FieldSize*FieldSize {
		t.Fatalf("a 35-megapixel grey image: %v", err)
	}
}

// jpegHeader returns a JPEG's start of image and frame header (SOF0 baseline or SOF2
// progressive), after a JFIF segment, with the given components' sampling factors (H<<4 | V):
// enough for image.DecodeConfig.
func jpegHeader(sof byte, width, height int, sampling ...byte) []byte {
	jfif := []byte{0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0}
	b := append([]byte{0xff, 0xd8}, jfif...)
	b = append(b, 0xff, sof, 0, byte(8+3*len(sampling)), 8, byte(height>>8), byte(height), byte(width>>8), byte(width), byte(len(sampling)))
	for i, hv := range sampling {
		b = append(b, byte(i+1), hv, 0)
	}
	return b
}

// TestJPEGEstimate: a progressive JPEG keeps every DCT coefficient while decoding (4 bytes per
// plane pixel), a baseline one does not; a 4:2:0 JPEG has half-size chroma planes.
func TestJPEGEstimate(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.jpg")
	os.WriteFile(prog, jpegHeader(0xc2, 4000, 3000, 0x11, 0x11, 0x11), 0o644)
	if _, err := LoadFile(prog, Options{}, true); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "4000×3000 pixels of jpeg at 15 bytes each") {
		t.Fatalf("12-megapixel progressive 4:4:4 JPEG: %v", err)
	}
	base := filepath.Join(dir, "base.jpg")
	os.WriteFile(base, jpegHeader(0xc0, 7000, 5700, 0x22, 0x11, 0x11), 0o644)
	if _, err := LoadFile(base, Options{}, true); errors.Is(err, ErrTooLarge) || err == nil || !strings.Contains(err.Error(), "cannot decode") {
		t.Fatalf("39.9-megapixel baseline 4:2:0 JPEG header: %v; want it past the size check", err)
	}
	if got := jpegBytesPerPixel(bytes.NewReader([]byte("not a jpeg"))); got != jpegWorst {
		t.Fatalf("unreadable JPEG estimated at %g bytes per pixel", got)
	}
}

func TestParseLabel(t *testing.T) {
	for name, want := range map[string]int{"0": 0, "7": 7, "007": 7, "2147483647": 2147483647} {
		if got, err := ParseLabel(name); err != nil || got != want {
			t.Errorf("%q: %d, %v", name, got, err)
		}
	}
	for _, name := range []string{"2147483648", "4294967296", "99999999999999999999999"} {
		if _, err := ParseLabel(name); !errors.Is(err, strconv.ErrRange) || !strings.Contains(err.Error(), name) {
			t.Errorf("%q: %v, want a range error naming it", name, err)
		}
	}
	for _, name := range []string{"", "-1", "+3", " 3", "3a", "cats", "1e3"} {
		if _, err := ParseLabel(name); !errors.Is(err, strconv.ErrSyntax) {
			t.Errorf("%q: %v, want a syntax error", name, err)
		}
	}
}

// TestImageFolderRefusesWrappingLabels: "4294967296" used to become label 0. (Beside a named
// folder it is a name: see TestReadFolderNamedClasses.)
func TestImageFolderRefusesWrappingLabels(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"3", "4294967296"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		os.WriteFile(filepath.Join(dir, sub, "a.png"), pngHeader(2, 2, 8, 0), 0o644)
	}
	files, _, err := ImageFolder(dir)
	if !errors.Is(err, strconv.ErrRange) || !strings.Contains(err.Error(), filepath.Join(dir, "4294967296")) || files != nil {
		t.Fatalf("ImageFolder: %v, %v", files, err)
	}
}

// TestImageFolderTwoFoldersOneLabel: "007" and "7" both read as label 7. ImageFolder merged them
// silently (torchvision's ImageFolder makes them two classes), in an order that changed from run
// to run (the sort was by label only); now it refuses, naming both folders.
func TestImageFolderTwoFoldersOneLabel(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"007", "7", "3"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		os.WriteFile(filepath.Join(dir, sub, "a.png"), pngHeader(2, 2, 8, 0), 0o644)
	}
	files, _, err := ImageFolder(dir)
	if err == nil || !strings.Contains(err.Error(), "007") || !strings.Contains(err.Error(), filepath.Join(dir, "7")) || files != nil {
		t.Fatalf("ImageFolder: %v, %v", files, err)
	}
}

// TestImageFolderFollowsLinkedFolders: a label folder that is a symbolic link to a folder (a
// tree assembled from links, as torchvision's ImageFolder reads it) is listed; it was dropped
// without a word. A link to something else is reported as skipped.
func TestImageFolderFollowsLinkedFolders(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, "1"), 0o755)
	os.WriteFile(filepath.Join(dir, "1", "a.png"), pngHeader(2, 2, 8, 0), 0o644)
	os.WriteFile(filepath.Join(elsewhere, "b.png"), pngHeader(2, 2, 8, 0), 0o644)
	os.Symlink(elsewhere, filepath.Join(dir, "2"))
	os.Symlink(filepath.Join(elsewhere, "missing"), filepath.Join(dir, "3"))
	files, skipped, err := ImageFolder(dir)
	if err != nil || len(files) != 2 || files[1].Label != 2 || files[1].Path != filepath.Join(dir, "2", "b.png") {
		t.Fatalf("ImageFolder: %v, %v", files, err)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], filepath.Join(dir, "3")) {
		t.Fatalf("skipped %q, want the dangling link 3", skipped)
	}
}

// DecodeGray keeps a JPEG's Y plane (no copy), turns colour into luminance and transparency into
// ink on white, and refuses a page too large before decoding it: a 600 dpi A4 RGBA PNG
// (4,960×7,016, 35 megapixels: 5 bytes a pixel with its grey copy) is allowed where import's
// ink images would not be, a 6,000×7,000 one is not.
func TestDecodeGray(t *testing.T) {
	dir := t.TempDir()
	rgba := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for i := range 8 {
		rgba.Pix[4*i], rgba.Pix[4*i+1], rgba.Pix[4*i+2], rgba.Pix[4*i+3] = 200, 100, 50, 255
	}
	p := filepath.Join(dir, "c.png")
	f, _ := os.Create(p)
	png.Encode(f, rgba)
	f.Close()
	g, err := DecodeGray(p)
	if err != nil || g.Rect.Dx() != 4 || g.Pix[0] != 124 { // (19595·200+38470·100+7471·50)/65536
		t.Fatalf("RGB: %v %v", g, err)
	}
	rgba.Pix[3], rgba.Pix[0] = 0, 0 // one transparent pixel: the image is ink on a transparent ground
	f, _ = os.Create(p)
	png.Encode(f, rgba)
	f.Close()
	if g, err = DecodeGray(p); err != nil || g.Pix[0] != 255 || g.Pix[1] != 0 {
		t.Fatalf("transparent: %v %v", g.Pix, err)
	}
	y := image.NewYCbCr(image.Rect(0, 0, 16, 16), image.YCbCrSubsampleRatio420)
	for i := range y.Y {
		y.Y[i] = uint8(i)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, y, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	p = filepath.Join(dir, "y.jpg")
	os.WriteFile(p, b.Bytes(), 0o644)
	if g, err = DecodeGray(p); err != nil || g.Rect.Dx() != 16 || g.Stride < 16 {
		t.Fatalf("JPEG: %v %v", g, err)
	}
	for name, hdr := range map[string][]byte{
		"a4-600dpi.png": pngHeader(4960, 7016, 8, 6),
		"big.png":       pngHeader(6000, 7000, 8, 6),
		"huge.png":      pngHeader(20000, 20000, 8, 2),
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, hdr, 0o644)
		_, err := DecodeGray(p)
		if tooLarge := errors.Is(err, ErrTooLarge); tooLarge != (name != "a4-600dpi.png") || err == nil {
			t.Errorf("%s: %v", name, err) // the A4 page passes the bounds, then fails on its missing data
		}
	}
	os.WriteFile(filepath.Join(dir, "empty.png"), nil, 0o644)
	if _, err := DecodeGray(filepath.Join(dir, "empty.png")); err == nil || !strings.Contains(err.Error(), "cannot decode") {
		t.Errorf("0-byte file: %v", err)
	}
}
