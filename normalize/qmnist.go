package normalize

import (
	"image"
	"math"
)

// The steps of MNIST's preprocessing as the QMNIST reconstruction performs them (Yadav & Bottou,
// "Cold Case: The Lost MNIST Digits", NeurIPS 2019; facebookresearch/qmnist,
// making_qmnist/xnist.lsh: fim-crop, fim-upsample, fim-resample-fudge, fltimage2ubimage-rnd,
// ubim-barycenter, fim-mnist-prepro), ported here from the published program. The program works
// on NIST's bilevel 128×128 scans (ink 1, background 0) and a 28×28 field; geometry scales its
// constants to other fields.

// fudge is the program's factor on the width of an input pixel in the area-coverage resampling
// (0.99): it leaves the aliasing MNIST's digits show.
const fudge = 0.99

// geometry holds the program's constants for one field size.
type geometry struct {
	width, height int
	// box is the side of the square the digit is resampled into: 20 in a 28×28 field,
	// round(20/28 of the field's shorter side) otherwise (at least 1).
	box int
	// minSide is the smallest square crop: 10 for a box of 20, ⌈box/2⌉ otherwise, so that one
	// doubling reaches the box.
	minSide int
	// rowTarget and colTarget are the placement constants: the 20×20 block goes to offset
	// int(target − centre). 15 in a 28×28 field, side/2 + 1 otherwise: the centre of mass then
	// lands in (side/2 − 1, side/2] (pixel centres at i + 0.5), on average at index side/2, half a
	// pixel past the field's middle as in MNIST (14.0 in 28×28), whatever the side.
	rowTarget, colTarget float64
}

// geometryFor returns the constants for a width×height field (both ≥ 1).
func geometryFor(width, height int) geometry {
	box := max(1, int(math.Round(float64(min(width, height))*BoxSize/FieldSize)))
	return geometry{
		width: width, height: height,
		box:       box,
		minSide:   (box + 1) / 2,
		rowTarget: float64(height)/2 + 1,
		colTarget: float64(width)/2 + 1,
	}
}

// square is the square crop of a bilevel digit (step 2) and its upsampling (step 3), held as
// the ink image and where its bounding box sits in the square, without copying the pixels.
type square struct {
	ink       *image.Gray     // bilevel: any non-zero byte is ink
	bbox      image.Rectangle // the ink's bounding box in ink
	top, left int             // where bbox starts in the square, before upsampling
	side      int             // the square's side, before upsampling
	k         int             // the upsampling factor (a power of two)
}

// squareCrop extends the shorter side of bbox to the longer (at least g.minSide), the digit at
// offset ⌊(side − h)/2⌋ rows and ⌊(side − w)/2⌋ columns inside it, as fim-crop does; where the
// program would move the square back inside the image (a digit near its border), the square
// here reaches past the image's border into background instead, so the digit is always placed
// the same way. Then, as fim-upsample does, every row and column is doubled while the square is
// smaller than the box.
func squareCrop(ink *image.Gray, bbox image.Rectangle, g geometry) square {
	h, w := bbox.Dy(), bbox.Dx()
	side := max(h, w, g.minSide)
	k := 1
	for side*k < g.box {
		k *= 2
	}
	return square{ink: ink, bbox: bbox, top: (side - h) / 2, left: (side - w) / 2, side: side, k: k}
}

// axis holds, for each input row (or column) of the resampling, the output pixels its square
// covers and the covered fractions at the two ends, as fim-resample-fudge computes them.
type axis struct {
	first, last int     // xint, xwint: the first and last output pixel touched
	dFirst      float64 // dx: the fraction of the first output pixel covered (split case)
	dLast       float64 // dxw: the fraction of the last one
}

// axisMap maps the n input pixels of one axis onto out output pixels with the given fudge.
type axisMap struct {
	n, out               int
	scale, inOff, outOff float64
	fud                  float64
}

func newAxisMap(n, out int, fud float64) axisMap {
	return axisMap{n: n, out: out, scale: float64(out) / float64(n), inOff: float64(n) / 2, outOff: float64(out) / 2, fud: fud}
}

// at computes input pixel i's axis in the program's arithmetic (double precision, the same
// order of operations, floor(x + 1e-11) and ceil(xw − 1e-11) − 1). Indices are kept within
// the output; they never leave it for 0 ≤ i < n. It is computed per pixel, not tabulated, so
// that a 1×40,000,000 image costs no memory per column.
func (a axisMap) at(i int) axis {
	x := a.outOff + float64(a.scale*(float64(i)-a.inOff))
	xw := x + float64(a.fud*a.scale)
	first := int(math.Floor(x + 1e-11))
	last := int(math.Ceil(xw-1e-11)) - 1
	first = max(0, min(a.out-1, first))
	last = max(first, min(a.out-1, last))
	return axis{first, last, clip01(float64(first+1) - x), clip01(xw - float64(last))}
}

func clip01(x float64) float64 { return max(0, min(1, x)) }

// resampler spreads input pixels over an output grid by area coverage (Denker's algorithm,
// fim-resample-fudge): each input pixel is a square of side scale in output coordinates, fudge
// times as wide and high; its value goes to the output pixels it covers in proportion to the
// area covered, with the program's distinction between a square inside one output pixel (its
// whole area, scaleI·scaleJ, unfudged), split by one boundary, or by both. The output is single
// precision, as the program's.
type resampler struct {
	rows, cols     axisMap
	scaleI, scaleJ float64
	out            []float32 // outRows×outCols, row-major
	outCols        int
}

func newResampler(inRows, inCols, outRows, outCols int, fud float64) *resampler {
	r := &resampler{out: make([]float32, outRows*outCols), outCols: outCols}
	r.rows, r.cols = newAxisMap(inRows, outRows, fud), newAxisMap(inCols, outCols, fud)
	r.scaleI, r.scaleJ = r.rows.scale, r.cols.scale
	return r
}

// acc adds v to output pixel (i, j) in the program's precision: the sum in double, stored in
// single precision.
func (r *resampler) acc(i, j int, v float64) {
	p := &r.out[i*r.outCols+j]
	*p = float32(float64(*p) + v)
}

// add spreads an input pixel of value inpix (non-zero) whose row and column have the axes x and
// y (r.rows.at(i), r.cols.at(j)) over the output, as the program's inner loop does, in its
// order of operations.
func (r *resampler) add(x, y axis, inpix float64) {
	switch {
	case x.first == x.last && y.first == y.last: // inside one output pixel
		r.acc(x.first, y.first, float64(inpix*float64(r.scaleI*r.scaleJ)))
	case x.first == x.last: // split by vertical boundaries only
		r.acc(x.first, y.first, float64(inpix*y.dFirst*r.scaleI))
		r.acc(x.first, y.last, float64(inpix*y.dLast*r.scaleI))
		for ky := y.first + 1; ky < y.last; ky++ {
			r.acc(x.first, ky, float64(inpix*r.scaleI))
		}
	case y.first == y.last: // split by horizontal boundaries only
		r.acc(x.first, y.first, float64(inpix*x.dFirst*r.scaleJ))
		r.acc(x.last, y.first, float64(inpix*x.dLast*r.scaleJ))
		for kx := x.first + 1; kx < x.last; kx++ {
			r.acc(kx, y.first, float64(inpix*r.scaleJ))
		}
	default: // split both ways
		r.acc(x.first, y.first, float64(inpix*x.dFirst*y.dFirst))
		r.acc(x.last, y.first, float64(inpix*x.dLast*y.dFirst))
		r.acc(x.first, y.last, float64(inpix*x.dFirst*y.dLast))
		r.acc(x.last, y.last, float64(inpix*x.dLast*y.dLast))
		for kx := x.first + 1; kx < x.last; kx++ {
			r.acc(kx, y.first, float64(inpix*y.dFirst))
			r.acc(kx, y.last, float64(inpix*y.dLast))
		}
		for ky := y.first + 1; ky < y.last; ky++ {
			r.acc(x.first, ky, float64(inpix*x.dFirst))
			r.acc(x.last, ky, float64(inpix*x.dLast))
			for kx := x.first + 1; kx < x.last; kx++ {
				r.acc(kx, ky, inpix)
			}
		}
	}
}

// resampleSquare resamples the (upsampled) square to box×box (step 4), ink 1 background 0,
// visiting the square's pixels in row-major order as the program does (the order of the single
// precision sums is part of the result).
func resampleSquare(s square, box int) []float32 {
	n := s.side * s.k
	r := newResampler(n, n, box, box, fudge)
	w := s.bbox.Dx()
	for I := s.top * s.k; I < (s.top+s.bbox.Dy())*s.k; I++ {
		y := s.bbox.Min.Y + I/s.k - s.top
		row := s.ink.Pix[s.ink.PixOffset(s.bbox.Min.X, y):][:w]
		var ax axis
		axisDone := false
		for J := s.left * s.k; J < (s.left+w)*s.k; J++ {
			if row[J/s.k-s.left] != 0 {
				if !axisDone {
					ax, axisDone = r.rows.at(I), true
				}
				r.add(ax, r.cols.at(J), 1)
			}
		}
	}
	return r.out
}

// toBytes converts the resampled digit to grey levels (step 5, fltimage2ubimage-rnd with
// background 0 and ink min(1, peak)): ⌊v·a + 0.5⌋ with a = 255/min(1, peak) in single
// precision, clamped to 0–255. A thin stroke whose peak is below 1 is thereby scaled up to 255.
// An all-zero input gives all zeros.
func toBytes(f []float32) []byte {
	var peak float32
	for _, v := range f {
		peak = max(peak, v)
	}
	out := make([]byte, len(f))
	if peak <= 0 {
		return out
	}
	a := float32(255 / float64(min(1, peak))) // the program divides in double, keeps a float
	for k, v := range f {
		x := math.Floor(float64(v*a) + 0.5)
		out[k] = byte(max(0, min(255, x)))
	}
	return out
}

// barycenter returns the centre of mass of a rows×cols byte image with pixel centres at
// i + 0.5 (ubim-barycenter): (row, col); false when it has no ink. As in the program, the sums
// are single precision (each product v·(i + 0.5) in double, added to a float), the quotient
// double: the truncation in place can turn on the last bit of the centre.
func barycenter(b []byte, rows, cols int) (bi, bj float64, ok bool) {
	var s, x, y float32
	for i := range rows {
		for j, v := range b[i*cols : (i+1)*cols] {
			if v != 0 {
				w := float64(v)
				s = float32(float64(s) + w)
				x = float32(float64(x) + w*(float64(i)+0.5))
				y = float32(float64(y) + w*(float64(j)+0.5))
			}
		}
	}
	if s == 0 {
		return 0, 0, false
	}
	return float64(x) / float64(s), float64(y) / float64(s), true
}

// inkSpan returns the first and one-past-last rows, and columns, of b (rows×cols) holding ink;
// b must hold some.
func inkSpan(b []byte, rows, cols int) (r0, r1, c0, c1 int) {
	r0, c0 = rows, cols
	for i := range rows {
		for j, v := range b[i*cols : (i+1)*cols] {
			if v != 0 {
				r0, r1 = min(r0, i), max(r1, i+1)
				c0, c1 = min(c0, j), max(c1, j+1)
			}
		}
	}
	return r0, r1, c0, c1
}

// placement is where the box×box block goes in the field, and whether the rule's offset had to
// be clamped to keep every ink pixel in the field.
type placement struct {
	top, left int
	clamped   bool
}

// place computes the block's offset (steps 6 and 7): by centre of mass, int(target − centre)
// truncated toward zero on each axis, as fim-mnist-prepro does; by bounding box, the block's ink
// centred in the field (rounding toward the top left). Either is then clamped so that no ink
// leaves the field; where the program would cut ink off (a mass far toward one end of the box),
// this keeps it and reports clamped. b must hold ink.
func place(b []byte, g geometry, c Centering) placement {
	r0, r1, c0, c1 := inkSpan(b, g.box, g.box)
	var top, left int
	if c == CenterBox {
		top = (g.height-(r1-r0))/2 - r0
		left = (g.width-(c1-c0))/2 - c0
	} else {
		bi, bj, _ := barycenter(b, g.box, g.box)
		top = int(g.rowTarget - bi)
		left = int(g.colTarget - bj)
	}
	ct := max(-r0, min(g.height-r1, top))
	cl := max(-c0, min(g.width-c1, left))
	return placement{ct, cl, ct != top || cl != left}
}

// compose writes the box×box block into a new width×height field at p, dropping the block's
// empty margins that fall outside the field.
func compose(b []byte, g geometry, p placement) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, g.width, g.height))
	for i := range g.box {
		y := p.top + i
		if y < 0 || y >= g.height {
			continue
		}
		for j, v := range b[i*g.box : (i+1)*g.box] {
			if x := p.left + j; v != 0 && x >= 0 && x < g.width {
				out.Pix[y*out.Stride+x] = v
			}
		}
	}
	return out
}

// preprocess runs the steps on a bilevel ink image (any non-zero byte is ink) for a
// width×height field: the result, whether the placement was clamped, or ErrEmpty.
func preprocess(ink *image.Gray, width, height int, c Centering) (*image.Gray, bool, error) {
	bbox, ok := BoundingBox(ink)
	if !ok {
		return nil, false, ErrEmpty
	}
	g := geometryFor(width, height)
	b := toBytes(resampleSquare(squareCrop(ink, bbox, g), g.box))
	if _, _, ok := barycenter(b, g.box, g.box); !ok {
		return nil, false, ErrEmpty // unreachable: a bilevel pixel always leaves ink
	}
	p := place(b, g, c)
	return compose(b, g, p), p.clamped, nil
}

// Resize returns g resized to width×height by area coverage: the resampling of the steps
// (resampler) with no fudge, each output pixel the mean of the input it covers, rounded. An
// image already of that size is returned as a copy. width and height must be ≥ 1.
func Resize(g *image.Gray, width, height int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, width, height))
	if w == width && h == height {
		for y := range h {
			copy(out.Pix[y*out.Stride:][:w], g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):])
		}
		return out
	}
	if w == 0 || h == 0 {
		return out
	}
	r := newResampler(h, w, height, width, 1)
	for i := range h {
		x := r.rows.at(i)
		for j, v := range g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+i):][:w] {
			if v != 0 {
				r.add(x, r.cols.at(j), float64(v))
			}
		}
	}
	for k, v := range r.out {
		out.Pix[k] = byte(max(0, min(255, math.Floor(float64(v)+0.5))))
	}
	return out
}
