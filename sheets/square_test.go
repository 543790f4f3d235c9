package sheets_test

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/sheetgen"
	"idxlabel/normalize"
	"idxlabel/sheets"
)

// Digits drawn at random sub-pixel places, 40–100 page pixels tall, each imported from the
// page's own pixels (the reference) and read three times finer as the reader reads it
// (asOnPagePixels, then normalize.Digit): the fine read's whole-pixel jumps across no longer
// lean left, and its correlation with the reference is no worse (on these 400 digits, without
// it: jumps 28 to the left against 9 to the right, mean correlation 0.9727; with it: 18 and 18,
// 0.9728).
func TestFineInkPlacedAsOnPagePixels(t *testing.T) {
	images, _ := digits.Load(t, 400)
	rng := rand.New(rand.NewPCG(7, 7))
	var with, without float64
	var left, right [2]int
	n := len(images.Data) / 784
	for k := range n {
		master := images.Data[k*784 : (k+1)*784]
		height := 40 + rng.Float64()*60
		fine, fw, fh := drawFine(master, height/20, rng.Float64(), rng.Float64())
		ref := digitOf(t, pageOf(fine, fw, fh))
		for i, correct := range []bool{false, true} {
			bin := make([]bool, len(fine))
			for p, v := range fine {
				bin[p] = v >= 0.5
			}
			if correct {
				sheets.AsOnPagePixels(bin, fw, fh)
			}
			s := sheets.SampleOf(bin, fw, fh)
			c := sheetgen.Correlation(s, ref)
			if correct {
				with += c
			} else {
				without += c
			}
			switch bestAcross(s, ref) {
			case -1:
				left[i]++
			case 1:
				right[i]++
			}
		}
	}
	with, without = with/float64(n), without/float64(n)
	t.Logf("%d digits: mean correlation %.4f as read, %.4f placed as on the page's pixels; jumps across left/right %d/%d, %d/%d", n, without, with, left[0], right[0], left[1], right[1])
	if with < without-0.0005 {
		t.Errorf("placed as on the page's pixels, mean correlation %.4f, below %.4f as read", with, without)
	}
	if left[1] > 2*right[1] {
		t.Errorf("placed as on the page's pixels, %d jumps to the left against %d to the right (as read %d, %d): want them near even", left[1], right[1], left[0], right[0])
	}
}

// drawFine draws a 28×28 grey digit (0 paper … 255 ink) scaled by s page pixels a pixel at
// (ox, oy) page pixels, sampled at the centres of pixels a third of a page pixel, as ink cover
// 0 … 1; the image is a whole number of page pixels across and down, the digit inside with a
// margin of 4.
func drawFine(master []byte, s, ox, oy float64) ([]float64, int, int) {
	pw := int(math.Ceil(28*s+ox)) + 8
	w := 3 * pw
	out := make([]float64, w*w)
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= 28 || y >= 28 {
			return 0
		}
		return float64(master[y*28+x]) / 255
	}
	for j := range w {
		for i := range w {
			// The fine pixel's centre in page pixels, then in the master's (centres at k + 0.5).
			px, py := (float64(i)+0.5)/3-4-ox, (float64(j)+0.5)/3-4-oy
			mx, my := px/s-0.5, py/s-0.5
			x0, y0 := int(math.Floor(mx)), int(math.Floor(my))
			fx, fy := mx-float64(x0), my-float64(y0)
			out[j*w+i] = (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
		}
	}
	return out, w, w
}

// pageOf averages the fine drawing over 3×3 blocks: the page's pixels, as grey ink.
func pageOf(fine []float64, w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w/3, h/3))
	for y := range h / 3 {
		for x := range w / 3 {
			var s float64
			for j := range 3 {
				for i := range 3 {
					s += fine[(3*y+j)*w+3*x+i]
				}
			}
			g.Pix[y*g.Stride+x] = uint8(math.Round(255 * s / 9))
		}
	}
	return g
}

// digitOf imports a page's digit as import does a digit alone (ink light, the threshold at half
// cover, so the two reads differ only in their pixels).
func digitOf(t *testing.T, g *image.Gray) []byte {
	d, err := normalize.Digit(g, normalize.Options{Polarity: normalize.InkLight, Threshold: 128})
	if err != nil {
		t.Fatal(err)
	}
	return d.Pix
}

// bestAcross returns −1 or 1 when a 28×28 sample is more like its reference moved a pixel left
// or right than where it lies, else 0.
func bestAcross(a, ref []byte) int {
	best, at := sheetgen.Correlation(a, ref), 0
	for _, dx := range []int{-1, 1} {
		s := make([]byte, len(ref))
		for y := range 28 {
			for x := range 28 {
				if xx := x + dx; xx >= 0 && xx < 28 {
					s[y*28+xx] = ref[y*28+x]
				}
			}
		}
		if c := sheetgen.Correlation(a, s); c > best {
			best, at = c, dx
		}
	}
	return at
}
