// Command letters writes a 26-class IDX pair of capital letters A–Z (labels 0–25), or with
// -set symbols a 16-class pair of symbols that are neither letters nor digits (♠ ♣ ♥ ♦ ♪ ☺ ← →
// ↑ ↓ ↔ ▲ ● ■ ○ □, labels 0–15, in that order), rendered from the Go fonts (golang.org/x/image/font/gofont: 12 faces, regular to bold, roman to italic,
// proportional and monospaced, small capitals), each drawn with its own rotation (±12°), shear
// (±0.3), width (0.75–1.25) and stroke (thinned or thickened by a pixel, or as drawn), then put
// through the MNIST preprocessing (package normalize) into 28×28: a set that is not MNIST, to
// check that the labelling loop is not tuned to digits (bench/suggest).
//
// Usage: go run ./bench/letters [-set letters|symbols] [-n 10000] [-seed 1] IMAGES LABELS
package main

import (
	"flag"
	"image"
	"image/draw"
	"log"
	"math"
	"math/rand/v2"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomediumitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
	"golang.org/x/image/font/gofont/gosmallcapsitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"idxlabel/idx"
	"idxlabel/normalize"
)

const canvas = 96 // the side of the image a letter is drawn on, pixels

func main() {
	n := flag.Int("n", 10000, "samples")
	seed := flag.Uint64("seed", 1, "seed of every random choice")
	set := flag.String("set", "letters", "letters (A–Z) or symbols")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: letters [-set letters|symbols] [-n 10000] [-seed 1] IMAGES LABELS")
	}
	var classes []rune
	switch *set {
	case "letters":
		for c := 'A'; c <= 'Z'; c++ {
			classes = append(classes, c)
		}
	case "symbols":
		classes = []rune("♠♣♥♦♪☺←→↑↓↔▲●■○□")
	default:
		log.Fatalf("-set %q: letters or symbols", *set)
	}
	var faces []font.Face
	for _, ttf := range [][]byte{goregular.TTF, gobold.TTF, goitalic.TTF, gobolditalic.TTF, gomedium.TTF, gomediumitalic.TTF,
		gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF, gosmallcaps.TTF, gosmallcapsitalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			log.Fatal(err)
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 56, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range classes {
			if _, ok := face.GlyphAdvance(r); !ok {
				log.Fatalf("a Go font has no glyph for %c", r)
			}
		}
		faces = append(faces, face)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x1e77e5))
	images, err := idx.New(idx.UByte, *n, 28, 28)
	if err != nil {
		log.Fatal(err)
	}
	labels, err := idx.New(idx.UByte, *n)
	if err != nil {
		log.Fatal(err)
	}
	for i := range *n {
		c := rng.IntN(len(classes))
		src := image.NewGray(image.Rect(0, 0, canvas, canvas))
		d := font.Drawer{Dst: src, Src: image.White, Face: faces[rng.IntN(len(faces))], Dot: fixed.P(canvas/4, canvas*3/4)}
		d.DrawString(string(classes[c]))
		out := warp(src, rng)
		switch rng.IntN(3) {
		case 0:
			out = morph(out, true)
		case 1:
			out = morph(out, false)
		}
		g, err := normalize.Digit(out, normalize.Options{Polarity: normalize.InkLight})
		if err != nil {
			log.Fatalf("%c: %v", classes[c], err)
		}
		copy(images.Data[i*784:(i+1)*784], g.Pix)
		labels.Data[i] = byte(c)
	}
	if err := idx.WriteFile(flag.Arg(0), images); err != nil {
		log.Fatal(err)
	}
	if err := idx.WriteFile(flag.Arg(1), labels); err != nil {
		log.Fatal(err)
	}
}

// warp returns src under a random affine map about its centre (rotation, shear, width),
// bilinear.
func warp(src *image.Gray, rng *rand.Rand) *image.Gray {
	th := (rng.Float64()*2 - 1) * 12 * math.Pi / 180
	sh := (rng.Float64()*2 - 1) * 0.3
	sx := 0.75 + 0.5*rng.Float64()
	// The forward map is rotation · shear · scale; dst pixels sample its inverse.
	a, b, cc, dd := math.Cos(th), -math.Sin(th), math.Sin(th), math.Cos(th)
	m00, m01, m10, m11 := a*sx, a*sh+b, cc*sx, cc*sh+dd
	det := m00*m11 - m01*m10
	i00, i01, i10, i11 := m11/det, -m01/det, -m10/det, m00/det
	out := image.NewGray(src.Rect)
	h := float64(canvas) / 2
	for y := range canvas {
		for x := range canvas {
			u, v := float64(x)-h, float64(y)-h
			sxp, syp := i00*u+i01*v+h, i10*u+i11*v+h
			out.Pix[y*canvas+x] = bilinear(src, sxp, syp)
		}
	}
	return out
}

func bilinear(g *image.Gray, x, y float64) byte {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= canvas || y >= canvas {
			return 0
		}
		return float64(g.Pix[y*canvas+x])
	}
	v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
	return byte(math.Round(v))
}

// morph returns g thickened (the brightest of each pixel's 3×3 neighbourhood) or thinned (the
// darkest).
func morph(g *image.Gray, thicken bool) *image.Gray {
	out := image.NewGray(g.Rect)
	draw.Draw(out, out.Rect, g, image.Point{}, draw.Src)
	for y := 1; y < canvas-1; y++ {
		for x := 1; x < canvas-1; x++ {
			v := g.Pix[y*canvas+x]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					w := g.Pix[(y+dy)*canvas+x+dx]
					if thicken && w > v || !thicken && w < v {
						v = w
					}
				}
			}
			out.Pix[y*canvas+x] = v
		}
	}
	return out
}
