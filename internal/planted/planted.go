// Package planted makes the planted cases the health check is measured on: non-digits to
// plant among MNIST digits (Outliers) and near-duplicates of a sample (Copy). Tests and
// benchmarks use it; it never touches the real files (internal/mnisttest finds those).
package planted

import (
	"image"
	"math"
	"math/rand/v2"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"idxlabel/normalize"
)

// Side is the side of the 28×28 samples the planting helpers make, in pixels.
const Side = 28

// Outlier is one planted non-digit: its 28×28 pixels (0 = background, 255 = ink) and what it
// is (one of OutlierKinds).
type Outlier struct {
	Pixels []byte
	Kind   string
}

// OutlierKinds lists the kinds of non-digit Outliers makes, in the order it deals them: letters
// and symbols rendered in the Go fonts and put through MNIST's preprocessing (normalize.Digit),
// noise, blank and near-blank images, filled shapes, inverted digits (255 − a sample) and two
// samples side by side (whole or squeezed to half width) put through the same preprocessing.
var OutlierKinds = []string{"letter", "symbol", "noise", "blank", "shape", "inverted", "two digits"}

// outlierCounts is how many of each kind 30 outliers hold (in OutlierKinds' order); other
// counts scale it.
var outlierCounts = []int{6, 5, 4, 4, 4, 4, 3}

// Outliers makes n varied non-digit samples with rng: the kinds of OutlierKinds in the
// proportions 6:5:4:4:4:4:3 (for n = 30, exactly those counts), each drawn with random
// parameters (which letter or symbol and in which font, the noise's kind, the shape and its
// size, which sample is inverted or paired). digits(i) returns sample i of m real digits
// (28×28), the source of the inverted and paired ones.
func Outliers(rng *rand.Rand, n int, digits func(i int) []byte, m int) []Outlier {
	var kinds []string
	for len(kinds) < n {
		for k, c := range outlierCounts {
			for range (c*n + 29) / 30 {
				kinds = append(kinds, OutlierKinds[k])
			}
		}
	}
	kinds = kinds[:n]
	out := make([]Outlier, n)
	for i, kind := range kinds {
		var p []byte
		switch kind {
		case "letter":
			if rng.IntN(2) == 0 {
				p = glyph(rng, "AEFHKMNPRWXYabdefhkmnrtw")
			} else {
				p = strokes(rng, strokeLetters)
			}
		case "symbol":
			if rng.IntN(2) == 0 {
				p = glyph(rng, "#@%&*+=?!$<>{}~^")
			} else {
				p = strokes(rng, strokeSymbols)
			}
		case "noise":
			p = noise(rng)
		case "blank":
			p = nearBlank(rng)
		case "shape":
			p = filledShape(rng)
		case "inverted":
			p = make([]byte, Side*Side)
			for k, v := range digits(rng.IntN(m)) {
				p[k] = 255 - v
			}
		case "two digits":
			p = twoDigits(rng, digits, m)
		}
		out[i] = Outlier{Pixels: p, Kind: kind}
	}
	return out
}

var fonts = [][]byte{goregular.TTF, gobold.TTF, goitalic.TTF}

// glyph renders one character of set, in one of the Go fonts at 64 px, and runs MNIST's
// preprocessing on it.
func glyph(rng *rand.Rand, set string) []byte {
	r := []rune(set)[rng.IntN(len([]rune(set)))]
	f, err := opentype.Parse(fonts[rng.IntN(len(fonts))])
	if err != nil {
		panic(err) // the fonts are compiled in
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 64, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err)
	}
	defer face.Close()
	img := image.NewGray(image.Rect(0, 0, 96, 96))
	d := font.Drawer{Dst: img, Src: image.White, Face: face, Dot: fixed.P(16, 72)}
	d.DrawString(string(r))
	g, err := normalize.Digit(img, normalize.Options{Polarity: normalize.InkLight})
	if err != nil {
		panic(err)
	}
	return g.Pix
}

// A stroke glyph is polylines in a unit box (x right, y down), drawn with a round pen.
type strokeGlyph [][][2]float64

// strokeLetters and strokeSymbols are drawn as a pen would: capital letters and symbols that are
// no digit.
var (
	strokeLetters = []strokeGlyph{
		{{{0, 1}, {0.5, 0}, {1, 1}}, {{0.25, 0.55}, {0.75, 0.55}}},                               // A
		{{{1, 0}, {0, 0}, {0, 1}, {1, 1}}, {{0, 0.5}, {0.7, 0.5}}},                               // E
		{{{1, 0}, {0, 0}, {0, 1}}, {{0, 0.5}, {0.7, 0.5}}},                                       // F
		{{{0, 0}, {0, 1}}, {{1, 0}, {1, 1}}, {{0, 0.5}, {1, 0.5}}},                               // H
		{{{0, 0}, {0, 1}}, {{1, 0}, {0, 0.55}}, {{0.3, 0.4}, {1, 1}}},                            // K
		{{{0, 1}, {0, 0}, {0.5, 0.6}, {1, 0}, {1, 1}}},                                           // M
		{{{0, 1}, {0, 0}, {1, 1}, {1, 0}}},                                                       // N
		{{{0, 1}, {0, 0}, {0.7, 0}, {0.95, 0.2}, {0.7, 0.45}, {0, 0.45}}, {{0.4, 0.45}, {1, 1}}}, // R
		{{{0, 0}, {0.25, 1}, {0.5, 0.4}, {0.75, 1}, {1, 0}}},                                     // W
		{{{0, 0}, {1, 1}}, {{1, 0}, {0, 1}}},                                                     // X
		{{{0, 0}, {0.5, 0.5}, {1, 0}}, {{0.5, 0.5}, {0.5, 1}}},                                   // Y
	}
	strokeSymbols = []strokeGlyph{
		{{{0.35, 0}, {0.25, 1}}, {{0.75, 0}, {0.65, 1}}, {{0, 0.33}, {1, 0.33}}, {{0, 0.67}, {1, 0.67}}}, // #
		{{{0.5, 0}, {0.5, 1}}, {{0, 0.5}, {1, 0.5}}},                                                     // +
		{{{0, 0.35}, {1, 0.35}}, {{0, 0.65}, {1, 0.65}}},                                                 // =
		{{{0.5, 0}, {0.5, 1}}, {{0.07, 0.25}, {0.93, 0.75}}, {{0.93, 0.25}, {0.07, 0.75}}},               // *
		{{{1, 0}, {0, 0.5}, {1, 1}}},                                                                     // <
		{{{0, 0}, {1, 0.5}, {0, 1}}},                                                                     // >
		{{{0, 0.6}, {0.15, 0.4}, {0.3, 0.35}, {0.5, 0.5}, {0.7, 0.65}, {0.85, 0.6}, {1, 0.4}}},           // ~
		{{{0.85, 0}, {0.15, 1}}, circle(0.2, 0.2, 0.17), circle(0.8, 0.8, 0.17)},                         // %
	}
)

// circle returns a closed polyline of 16 segments around (x, y).
func circle(x, y, r float64) [][2]float64 {
	var out [][2]float64
	for k := range 17 {
		a := 2 * math.Pi * float64(k) / 16
		out = append(out, [2]float64{x + r*math.Cos(a), y + r*math.Sin(a)})
	}
	return out
}

// strokes draws one glyph of set as a person might: every point moved at random (σ 4% of the
// box), the glyph slanted and stretched at random, drawn bilevel at 128×128 with a round pen of
// 4–7 px radius, then put through MNIST's preprocessing.
func strokes(rng *rand.Rand, set []strokeGlyph) []byte {
	const size, margin = 128.0, 20.0
	g := set[rng.IntN(len(set))]
	slant, aspect := 0.35*(rng.Float64()-0.5), 0.6+0.5*rng.Float64()
	pen := 4 + 3*rng.Float64()
	var segs [][4]float64
	for _, line := range g {
		var prev [2]float64
		for k, pt := range line {
			x := pt[0] + 0.04*rng.NormFloat64()
			y := pt[1] + 0.04*rng.NormFloat64()
			x = (x-0.5)*aspect + 0.5 + slant*(0.5-y)
			p := [2]float64{margin + x*(size-2*margin), margin + y*(size-2*margin)}
			if k > 0 {
				segs = append(segs, [4]float64{prev[0], prev[1], p[0], p[1]})
			}
			prev = p
		}
	}
	img := image.NewGray(image.Rect(0, 0, size, size))
	for y := range int(size) {
		for x := range int(size) {
			for _, s := range segs {
				if segmentDistance(float64(x)+0.5, float64(y)+0.5, s) <= pen {
					img.Pix[y*img.Stride+x] = 255
					break
				}
			}
		}
	}
	out, err := normalize.Digit(img, normalize.Options{Polarity: normalize.InkLight})
	if err != nil {
		panic(err)
	}
	return out.Pix
}

// segmentDistance is the distance from (x, y) to the segment s (x0, y0, x1, y1).
func segmentDistance(x, y float64, s [4]float64) float64 {
	dx, dy := s[2]-s[0], s[3]-s[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((x-s[0])*dx+(y-s[1])*dy)/l))
	}
	return math.Hypot(x-s[0]-t*dx, y-s[1]-t*dy)
}

// noise is uniform noise over the field, salt-and-pepper noise, or a blurred noise blob.
func noise(rng *rand.Rand) []byte {
	p := make([]byte, Side*Side)
	switch rng.IntN(3) {
	case 0:
		for k := range p {
			p[k] = byte(rng.IntN(256))
		}
	case 1:
		density := 0.05 + 0.2*rng.Float64()
		for k := range p {
			if rng.Float64() < density {
				p[k] = 255
			}
		}
	default:
		cy, cx, r := 8+rng.Float64()*12, 8+rng.Float64()*12, 5+rng.Float64()*5
		for y := range Side {
			for x := range Side {
				d := math.Hypot(float64(y)-cy, float64(x)-cx)
				if d < r {
					p[y*Side+x] = byte(rng.IntN(256))
				}
			}
		}
	}
	return p
}

// nearBlank is an empty field, a few faint pixels, or one short faint stroke.
func nearBlank(rng *rand.Rand) []byte {
	p := make([]byte, Side*Side)
	switch rng.IntN(3) {
	case 0:
	case 1:
		for range 1 + rng.IntN(6) {
			p[rng.IntN(Side*Side)] = byte(20 + rng.IntN(100))
		}
	default:
		y, x := 6+rng.IntN(16), 6+rng.IntN(14)
		for k := range 2 + rng.IntN(4) {
			p[y*Side+x+k] = byte(40 + rng.IntN(120))
		}
	}
	return p
}

// filledShape is a filled rectangle, disc or triangle of random size and place.
func filledShape(rng *rand.Rand) []byte {
	p := make([]byte, Side*Side)
	kind := rng.IntN(3)
	size := 10 + rng.Float64()*12
	cy, cx := 14+rng.Float64()*4-2, 14+rng.Float64()*4-2
	for y := range Side {
		for x := range Side {
			dy, dx := float64(y)-cy, float64(x)-cx
			in := false
			switch kind {
			case 0:
				in = math.Abs(dy) < size/2 && math.Abs(dx) < size/2*0.8
			case 1:
				in = math.Hypot(dy, dx) < size/2
			default:
				in = dy < size/2 && dy > -size/2 && math.Abs(dx) < (dy+size/2)/2
			}
			if in {
				p[y*Side+x] = 255
			}
		}
	}
	return p
}

// twoDigits puts two real digits side by side, either whole or each squeezed to half width,
// then runs MNIST's preprocessing on the pair.
func twoDigits(rng *rand.Rand, digits func(i int) []byte, m int) []byte {
	squeeze := rng.IntN(2)
	w := Side >> squeeze
	img := image.NewGray(image.Rect(0, 0, 2*w, Side))
	for k := range 2 {
		src := digits(rng.IntN(m))
		for y := range Side {
			for x := range w {
				v := int(src[y*Side+x<<squeeze])
				if squeeze == 1 {
					v = (v + int(src[y*Side+2*x+1])) / 2
				}
				img.Pix[y*img.Stride+k*w+x] = byte(v)
			}
		}
	}
	g, err := normalize.Digit(img, normalize.Options{Polarity: normalize.InkLight})
	if err != nil {
		panic(err)
	}
	return g.Pix
}

// CopyKinds lists the changes Copy makes: none, a whole-pixel shift by 1 or 2 pixels, Gaussian
// noise of σ 4 grey levels, and 85% intensity.
var CopyKinds = []string{"exact", "shift 1", "shift 2", "noise", "intensity"}

// Copy returns a near-duplicate of the 28×28 sample src: kind is one of CopyKinds; the shift's
// direction and the noise come from rng. Shifted-in pixels are 0; values are rounded and clipped
// to 0–255.
func Copy(rng *rand.Rand, src []byte, kind string) []byte {
	p := make([]byte, len(src))
	switch kind {
	case "shift 1", "shift 2":
		d := 1
		if kind == "shift 2" {
			d = 2
		}
		dirs := [][2]int{{d, 0}, {-d, 0}, {0, d}, {0, -d}, {d, d}, {-d, d}, {d, -d}, {-d, -d}}
		s := dirs[rng.IntN(len(dirs))]
		for y := range Side {
			for x := range Side {
				sy, sx := y-s[1], x-s[0]
				if sy >= 0 && sy < Side && sx >= 0 && sx < Side {
					p[y*Side+x] = src[sy*Side+sx]
				}
			}
		}
	case "noise":
		for k, v := range src {
			p[k] = clip(float64(v) + 4*rng.NormFloat64())
		}
	case "intensity":
		for k, v := range src {
			p[k] = clip(0.85 * float64(v))
		}
	default:
		copy(p, src)
	}
	return p
}

func clip(v float64) byte {
	return byte(max(0, min(255, math.Round(v))))
}
