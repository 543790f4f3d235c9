package normalize

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"

	"idxlabel/fixture/mnisttest"
)

// inkColours are the inks of the photo-like test images, each on a ground: dark and coloured
// inks on grey paper, light and coloured inks on a dark ground.
var inkColours = []struct {
	name     string
	ink, bg  color.RGBA
	gradient float64 // how much the ground darkens across the image (0–1 of its level)
}{
	{"black on grey paper", color.RGBA{20, 20, 25, 255}, color.RGBA{215, 212, 205, 255}, 0.12},
	{"blue on paper", color.RGBA{30, 50, 170, 255}, color.RGBA{235, 232, 225, 255}, 0.10},
	{"green on paper", color.RGBA{20, 140, 40, 255}, color.RGBA{225, 225, 220, 255}, 0.10},
	{"red on paper", color.RGBA{200, 30, 30, 255}, color.RGBA{230, 228, 220, 255}, 0.10},
	{"green on black", color.RGBA{0, 200, 0, 255}, color.RGBA{10, 10, 10, 255}, 0},
	{"white on dark grey", color.RGBA{240, 240, 240, 255}, color.RGBA{60, 60, 60, 255}, 0},
}

// photo renders a 28×28 digit as a side×side colour photo of ink on a ground: the digit
// upsampled bilinearly as the ink's coverage, a ground shaded across the image, Gaussian noise
// of σ 4 levels, then JPEG-compressed at quality 60: the JPEG file's bytes, and the same digit
// as a clean bilevel image (coverage ≥ 0.5 is ink) for reference.
func photo(tb testing.TB, orig *image.Gray, side int, ink, bg color.RGBA, gradient float64, rng *rand.Rand) ([]byte, *image.Gray) {
	tb.Helper()
	up := imaging.Resize(orig, side*3/4, side*3/4, imaging.Linear)
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	clean := image.NewGray(img.Rect)
	off := side / 8
	for y := range side {
		for x := range side {
			a := 0.0
			if ux, uy := x-off, y-off; ux >= 0 && uy >= 0 && ux < up.Rect.Dx() && uy < up.Rect.Dy() {
				a = float64(up.Pix[uy*up.Stride+4*ux]) / 255
			}
			if a >= 0.5 {
				clean.Pix[y*side+x] = 255
			}
			shade := 1 - gradient*float64(x+y)/float64(2*side)
			mix := func(i, g uint8) uint8 {
				v := (1-a)*float64(g)*shade + a*float64(i) + rng.NormFloat64()*4
				return uint8(max(0, min(255, v)))
			}
			img.Set(x, y, color.RGBA{mix(ink.R, bg.R), mix(ink.G, bg.G), mix(ink.B, bg.B), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 60}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), clean
}

// TestPhotosComeOutFull: photo-like JPEGs of real t10k digits (JPEG noise, a shaded grey
// ground, coloured inks), written to files and read back by LoadFile with the default options,
// come out as MNIST's digits do: ink box long side 20 px, peak 255, and the shape of the same
// digit preprocessed from a clean bilevel drawing (its ink box within a pixel on each side,
// correlation ≥ 0.9 at the best whole-pixel shift: a threshold a little off moves the centre of
// mass, and the truncated placement can move the digit by a pixel), on every one. Before
// binarizing by Otsu's threshold, the noise counted as ink (boxes of the whole image, 12–14 px
// tall digits) and coloured ink peaked at its luminance (168 for green).
func TestPhotosComeOutFull(t *testing.T) {
	images, _ := mnisttest.Load(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 60 {
		c := inkColours[i%len(inkColours)]
		orig := sample(images, i)
		data, bw := photo(t, orig, 160, c.ink, c.bg, c.gradient, rng)
		clean, err := Digit(bw, Options{Polarity: InkLight})
		if err != nil {
			t.Fatal(err)
		}
		cleanBox, _ := BoundingBox(clean)
		path := filepath.Join(dir, fmt.Sprintf("%d.jpg", i))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		px, err := LoadFile(path, Options{}, true)
		if err != nil {
			t.Fatalf("digit %d, %s: %v", i, c.name, err)
		}
		g := &image.Gray{Pix: px, Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
		box, _ := BoundingBox(g)
		peak := byte(0)
		for _, v := range px {
			peak = max(peak, v)
		}
		if max(box.Dx(), box.Dy()) != 20 || peak != 255 {
			t.Errorf("digit %d, %s: ink box %d×%d, peak %d; want long side 20 and peak 255", i, c.name, box.Dx(), box.Dy(), peak)
		}
		d := box.Min.Sub(cleanBox.Min)
		e := box.Max.Sub(cleanBox.Max)
		if corr := pearson(shifted(g, bestShift(g, clean)), clean.Pix); max(abs(d.X), abs(d.Y), abs(e.X), abs(e.Y)) > 1 || corr < 0.9 {
			t.Errorf("digit %d, %s: ink box %v, correlation %.3f with the clean drawing's (box %v)", i, c.name, box, corr, cleanBox)
		}
	}
}

// TestOtsuThreshold: the threshold lies between a ground and its ink whatever their levels, a
// bilevel image keeps its ink, and a blank noisy page or a uniform image has none.
func TestOtsuThreshold(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 100, 1))
	for k := range g.Pix {
		g.Pix[k] = byte(40 + k%7) // ground 40–46
		if k%5 == 0 {
			g.Pix[k] = byte(150 + k%9) // ink 150–158
		}
	}
	if th := otsu(g); th <= 46 || th > 150 {
		t.Fatalf("threshold %d, want between 46 and 150", th)
	}
	bw := image.NewGray(image.Rect(0, 0, 10, 1))
	bw.Pix[3] = 255
	if th := otsu(bw); th != 128 {
		t.Fatalf("bilevel 0/255: threshold %d, want 128 (the middle of the tie)", th)
	}
	noise := image.NewGray(image.Rect(0, 0, 50, 50))
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range noise.Pix {
		noise.Pix[k] = byte(200 + rng.IntN(12))
	}
	if _, ok := BoundingBox(Bilevel(Ink(noise, InkAuto), 0)); ok {
		t.Fatal("a blank noisy page has ink")
	}
	full := image.NewGray(image.Rect(0, 0, 3, 3))
	for k := range full.Pix {
		full.Pix[k] = 255
	}
	if box, ok := BoundingBox(Bilevel(Ink(full, InkLight), 0)); !ok || box.Dx() != 3 {
		t.Fatal("a uniform light image under light ink is not all ink")
	}
}

func abs(x int) int { return max(x, -x) }

// shifted returns g's 28×28 pixels moved by d (what leaves the field is dropped).
func shifted(g *image.Gray, d image.Point) []byte {
	out := make([]byte, 28*28)
	for y := range 28 {
		for x := range 28 {
			if sx, sy := x-d.X, y-d.Y; sx >= 0 && sx < 28 && sy >= 0 && sy < 28 {
				out[y*28+x] = g.Pix[sy*28+sx]
			}
		}
	}
	return out
}

// importFiles is how many files BenchmarkImport10k imports.
const importFiles = 10000

// BenchmarkImport10k times what import does per file, one after another: LoadFile with the
// default options on 10,000 photo-like 160×160 colour JPEGs of t10k digits (written before the
// timer starts; target ≤ 10 s on 2 cores).
func BenchmarkImport10k(b *testing.B) {
	images, _ := mnisttest.Load(b)
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	paths := make([]string, importFiles)
	for i := range paths {
		c := inkColours[i%len(inkColours)]
		data, _ := photo(b, sample(images, i), 160, c.ink, c.bg, c.gradient, rng)
		paths[i] = filepath.Join(dir, fmt.Sprintf("%05d.jpg", i))
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range paths {
			if _, err := LoadFile(p, Options{}, true); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// A small digit in a large noisy photo (a 14-px ring in 600×600 grey paper with σ 4 noise):
// splitting the noise in two has the larger between-class variance, but its classes differ by a
// few levels; the threshold between paper and ink is the one taken, and the ring fills the box.
func TestSmallDigitInLargePhoto(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := image.NewGray(image.Rect(0, 0, 600, 600))
	for y := range 600 {
		for x := range 600 {
			v := 200 + rng.NormFloat64()*4
			if dx, dy := x-300, y-300; dx*dx+dy*dy <= 49 && dx*dx+dy*dy >= 16 {
				v = 40
			}
			g.Pix[y*600+x] = uint8(max(0, min(255, v)))
		}
	}
	got, err := Digit(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := BoundingBox(got)
	if box.Dx() != 20 || box.Dy() != 20 {
		t.Fatalf("the ring's ink box is %v, want 20×20", box)
	}
}

// The pixel-array reading of RGBA and NRGBA images gives image/color's Gray model on every pixel,
// also for a sub-image not at the origin; a YCbCr image gives its Y plane.
func TestLuminanceFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	n := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	r := image.NewRGBA(n.Rect)
	for k := 0; k < len(n.Pix); k += 4 {
		c := color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
		copy(n.Pix[k:], []byte{c.R, c.G, c.B, 255})
		copy(r.Pix[k:], []byte{c.R, c.G, c.B, 255})
	}
	for _, img := range []image.Image{n.SubImage(image.Rect(5, 3, 33, 27)), r.SubImage(image.Rect(7, 1, 40, 20))} {
		got, transparent := luminance(img)
		if transparent || got.Rect != img.Bounds() {
			t.Fatalf("%T: transparent %v, bounds %v", img, transparent, got.Rect)
		}
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if want := color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y; got.GrayAt(x, y).Y != want {
					t.Fatalf("%T (%d, %d): %d, want %d", img, x, y, got.GrayAt(x, y).Y, want)
				}
			}
		}
	}
	y := image.NewYCbCr(image.Rect(0, 0, 16, 16), image.YCbCrSubsampleRatio420)
	for k := range y.Y {
		y.Y[k] = byte(k)
	}
	sub := y.SubImage(image.Rect(2, 4, 12, 16)).(*image.YCbCr)
	got, _ := luminance(sub)
	for yy := 4; yy < 16; yy++ {
		for x := 2; x < 12; x++ {
			if got.GrayAt(x, yy).Y != byte(yy*16+x) {
				t.Fatalf("YCbCr (%d, %d): %d, want %d", x, yy, got.GrayAt(x, yy).Y, yy*16+x)
			}
		}
	}
}
