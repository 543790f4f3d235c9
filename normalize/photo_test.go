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
