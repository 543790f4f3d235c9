// Package demo generates idxlabel's demo dataset: digits 0–9 rendered from the Go fonts with
// small random rotations, scales and stroke widths, each through MNIST's preprocessing
// (normalize.Digit), from a fixed seed so every run shows the same samples. A few labels are
// wrong on purpose, for the review of suspects. The window opens it when it is given no files.
package demo

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomediumitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"idxlabel/idx"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// The demo's size and its generator's constants.
const (
	// Samples is the number of samples in the demo: 30 of each digit.
	Samples   = 300
	mislabels = 6
	seed      = 2051 // the MNIST image magic number (the demo's seed)
	pad       = 140  // pixels of the square each digit is drawn on
)

// fonts are the Go font faces the demo draws with.
var fonts = [][]byte{goregular.TTF, gobold.TTF, goitalic.TTF, gobolditalic.TTF, gomedium.TTF, gomediumitalic.TTF, gomono.TTF, gomonobold.TTF, gosmallcaps.TTF}

// Arrays generates the demo: Samples samples (30 of each digit, shuffled), Samples×28×28 ubyte
// images and Samples ubyte labels, mislabels of them labelled wrong. Errors: a font that does
// not parse (not expected: they are embedded).
func Arrays() (*idx.Array, *idx.Array, error) { return generate(Samples, seed, mislabels) }

// Digits generates n samples the way the demo is made (n/10 of each digit, or one more for the
// first n%10 digits, shuffled; each a Go font's glyph at a random size, rotation, stroke width
// and place, through normalize.Digit), every label right: n×28×28 ubyte images and n ubyte
// labels, the same for the same n and seed. Tests that need many MNIST-like digits without the
// real files use it. Cost: about a millisecond of CPU a sample. Errors: as Arrays.
func Digits(n int, seed uint64) (*idx.Array, *idx.Array, error) { return generate(n, seed, 0) }

// generate makes n samples from seed, wrong of them labelled wrong (Arrays, Digits).
func generate(n int, seed uint64, wrong int) (*idx.Array, *idx.Array, error) {
	faces := make([]*opentype.Font, len(fonts))
	for k, ttf := range fonts {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, nil, err
		}
		faces[k] = f
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	type plan struct {
		digit, font int
		size, angle float64
		stroke      int
		dx, dy      float64
		label       int
	}
	plans := make([]plan, n)
	for k := range plans {
		d := k % 10
		plans[k] = plan{digit: d, font: rng.IntN(len(faces)), size: 80 + 30*rng.Float64(), angle: -14 + 28*rng.Float64(),
			stroke: rng.IntN(4) - 1, dx: -8 + 16*rng.Float64(), dy: -8 + 16*rng.Float64(), label: d}
	}
	rng.Shuffle(len(plans), func(a, b int) { plans[a], plans[b] = plans[b], plans[a] })
	if wrong > 0 {
		for _, k := range rng.Perm(n)[:wrong] {
			plans[k].label = (plans[k].digit + 1 + rng.IntN(9)) % 10
		}
	}
	images, err := idx.New(idx.UByte, n, 28, 28)
	if err != nil {
		return nil, nil, err
	}
	labels, _ := idx.New(idx.UByte, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for k, p := range plans {
		labels.Data[k] = byte(p.label)
		wg.Add(1)
		go func() {
			defer wg.Done()
			face, err := opentype.NewFace(faces[p.font], &opentype.FaceOptions{Size: p.size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				errs[k] = err
				return
			}
			defer face.Close()
			pad := drawDigit(face, p.digit, p.angle, p.stroke, p.dx, p.dy)
			g, err := normalize.Digit(pad, normalize.Options{Polarity: normalize.InkLight})
			if err != nil {
				errs[k] = fmt.Errorf("demo digit %d: %w", k, err)
				return
			}
			copy(images.Data[k*784:], g.Pix)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return images, labels, nil
}

// drawDigit draws one digit, light on dark, rotated by angle degrees, thickened (stroke > 0) or
// thinned (stroke < 0) by that many pixels and shifted by (dx, dy).
func drawDigit(face font.Face, digit int, angle float64, stroke int, dx, dy float64) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, pad, pad))
	d := font.Drawer{Dst: g, Src: image.White, Face: face}
	s := string(rune('0' + digit))
	adv := d.MeasureString(s)
	m := face.Metrics()
	d.Dot = fixed.Point26_6{
		X: (fixed.I(pad)-adv)/2 + fixed.Int26_6(dx*64),
		Y: (fixed.I(pad)+m.Ascent-m.Descent)/2 + fixed.Int26_6(dy*64),
	}
	d.DrawString(s)
	rotated := imaging.Rotate(g, angle, color.Black)
	out := image.NewGray(image.Rect(0, 0, rotated.Rect.Dx(), rotated.Rect.Dy()))
	for i := range out.Pix {
		out.Pix[i] = rotated.Pix[4*i]
	}
	switch {
	case stroke > 0:
		return morph(out, stroke, true)
	case stroke < 0:
		return morph(out, -stroke, false)
	}
	return out
}

// morph dilates (grow) or erodes g by r pixels with a separable square max (min) filter.
func morph(g *image.Gray, r int, grow bool) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	tmp, out := image.NewGray(g.Rect), image.NewGray(g.Rect)
	morphPass(g.Pix, tmp.Pix, w, h, 1, w, r, grow)   // along rows
	morphPass(tmp.Pix, out.Pix, h, w, w, 1, r, grow) // along columns
	return out
}

// morphPass takes the max (grow) or min over a window of 2r+1 pixels along one axis of length n:
// step is the index distance between neighbours on that axis, across between the lines.
func morphPass(src, dst []byte, n, lines, step, across, r int, grow bool) {
	for line := range lines {
		for p := range n {
			v := src[line*across+p*step]
			for q := max(0, p-r); q <= min(n-1, p+r); q++ {
				if u := src[line*across+q*step]; grow == (u > v) && u != v {
					v = u
				}
			}
			dst[line*across+p*step] = v
		}
	}
}

// Dataset makes the demo an in-memory dataset (Samples×28×28, labelled) whose edits are
// journaled to a temporary file named for this process (the window abandons it when the demo is
// closed: there is nothing of the user's in it to recover). Errors: as Arrays, and
// store.FromArrays'.
func Dataset() (*store.Dataset, error) {
	images, labels, err := Arrays()
	if err != nil {
		return nil, err
	}
	jp := filepath.Join(os.TempDir(), fmt.Sprintf("idxlabel-demo-%d%s", os.Getpid(), pairfile.JournalSuffix))
	return store.FromArrays(images, labels, nil, jp, store.Options{})
}
