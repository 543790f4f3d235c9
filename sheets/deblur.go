package sheets

import (
	"image"
	"math"
)

// This file undoes the capture's blur over each box before the box is read finer than the
// page.

// The capture's blur undone before a box is read finer than the page (deblurPart): a scanner's
// optics and a phone's lens spread each point of ink over a pixel or two, which thickens a
// stroke's blurred edge and moves the digit's outline, and so its bounding box and centre of
// mass, with the threshold. The blur is taken as a Gaussian of deblurSigma page pixels and
// undone by its Wiener filter with noise-to-signal ratio deblurK.
//
// Measured on bench/sheets' scans (50 sheets of each of seeds 1, 2, 3; bench/sheets/README.md):
// mean correlation with the digit imported alone 0.9681, 0.9686, 0.9675 → 0.9697, 0.9712,
// 0.9695, and at the best shift of ±2 px (the shape without the whole-pixel placement) within
// 0.0003 of what the digit degraded alone keeps. σ 1.0 lies within the scans' blur (σ 0.6–1.2
// px after the turn's bilinear resampling); over σ 1.0–1.2 and K 0.05–0.1 the figures move by
// 0.0006 at most. The source of the filter: wienerTaps.
const (
	deblurSigma = 1.0  // the blur's Gaussian σ, page pixels
	deblurK     = 0.05 // the Wiener filter's noise-to-signal power ratio
	deblurTaps  = 5    // the filter's half-width, page pixels (2·deblurTaps+1 taps)
)

// deblurKernel is the 1-D Wiener filter of a Gaussian blur of deblurSigma (wienerTaps).
var deblurKernel = wienerTaps(deblurSigma, deblurK, deblurTaps)

// deblur undoes the capture's blur (deblurPart with deblurKernel) over the part of the page
// that crop points x0 … x1 across and y0 … y1 down cover (the box between its ruled lines'
// centres), for the reads of the box finer than the page (fill). A crop read coarser than the
// page (a box too large for maxReadPixels) is left as it is: its reads average the page over
// squares larger than the blur. Memory: the part, about the box's pixels × 5 bytes while it is
// made, 1 byte a pixel kept with the crop.
func (sm *sampler) deblur(x0, y0, x1, y1 float64) {
	if sm.scale < 1 {
		return
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		q := sm.full(sm.u0+c[0]*sm.du, sm.v0+c[1]*sm.dv)
		minX, maxX = min(minX, q.X), max(maxX, q.X)
		minY, maxY = min(minY, q.Y), max(maxY, q.Y)
	}
	// The corners are page points (pixel centres at i + 0.5); a read at least twice as fine
	// as the page reaches up to lattice/2 pixels past its last pixel (fill's lattice), and
	// the cubic 2 pixels past the point it interpolates.
	const pad = lattice/2 + 3
	r := image.Rect(int(math.Floor(minX))-pad, int(math.Floor(minY))-pad, int(math.Ceil(maxX))+pad, int(math.Ceil(maxY))+pad)
	page := sm.p.full.Rect
	if sm.sharp = deblurPart(sm.p.full, r, deblurKernel); sm.sharp != nil {
		r = r.Intersect(page)
		sm.sx, sm.sy = r.Min.X-page.Min.X, r.Min.Y-page.Min.Y
	}
}

// holds reports whether the deblurred part (sharp) holds every page pixel that the cubic
// interpolation at the nodes (page coordinates, pixel centres at integers) reads, the page's
// edge counting as the part's where they meet (the interpolation clamps there either way).
func (sm *sampler) holds(nodes []node) bool {
	if sm.sharp == nil {
		return false
	}
	page := sm.p.full.Rect
	w, h := sm.sharp.Rect.Dx(), sm.sharp.Rect.Dy()
	inf := float32(math.Inf(1))
	x0, y0 := float32(sm.sx+1), float32(sm.sy+1)
	x1, y1 := float32(sm.sx+w-3), float32(sm.sy+h-3)
	if sm.sx == 0 {
		x0 = -inf
	}
	if sm.sy == 0 {
		y0 = -inf
	}
	if sm.sx+w == page.Dx() {
		x1 = inf
	}
	if sm.sy+h == page.Dy() {
		y1 = inf
	}
	for _, n := range nodes {
		if n.x < x0 || n.x >= x1 || n.y < y0 || n.y >= y1 {
			return false
		}
	}
	return true
}

// wienerTaps returns the 2r+1 taps of the 1-D Wiener filter that undoes a Gaussian blur of sigma
// pixels with noise-to-signal power ratio k: the filter H*/(|H|² + k) of the minimum mean square
// error restoration (Gonzalez and Woods, Digital Image Processing, 4th ed., §5.8, eq. 5-85, with
// the noise-to-signal ratio a constant K), where H(f) = exp(−2π²σ²f²) is the Gaussian's transfer
// function (f in cycles a pixel, real and even, so H* = H). The taps are its inverse Fourier
// transform (1,024 frequencies), narrowed by a Hann window to r pixels either side and scaled to
// sum to 1, so the paper's level is kept.
func wienerTaps(sigma, k float64, r int) []float32 {
	const n = 1024
	taps := make([]float64, 2*r+1)
	var sum float64
	for t := -r; t <= r; t++ {
		var s float64
		for i := range n {
			f := (float64(i)+0.5)/n - 0.5
			h := math.Exp(-2 * math.Pi * math.Pi * sigma * sigma * f * f)
			s += h / (h*h + k) * math.Cos(2*math.Pi*f*float64(t))
		}
		window := 0.5 + 0.5*math.Cos(math.Pi*float64(t)/float64(r+1))
		taps[t+r] = s / n * window
		sum += taps[t+r]
	}
	out := make([]float32, len(taps))
	for i, v := range taps {
		out[i] = float32(v / sum)
	}
	return out
}

// deblurPart returns the part r of the page g (clipped to g) filtered by kern across and then
// down (the 1-D filter on each axis: a Gaussian blur is separable; its 2-D Wiener filter is not
// quite, and across then down it sharpens a little more where fine detail runs both ways), the
// page's own pixels beyond r taken in (clamped at the page's edge), the result clamped to
// 0 … 255. Its pixel (0, 0) is page pixel r.Min (after clipping). Nil when r lies off the page.
// Memory: r's pixels × (1 + 4) bytes, and 4 bytes for each of len(kern) rows more and of r's
// columns.
func deblurPart(g *image.Gray, r image.Rectangle, kern []float32) *image.Gray {
	r = r.Intersect(g.Rect)
	if r.Empty() {
		return nil
	}
	rad := len(kern) / 2
	w, h := r.Dx(), r.Dy()
	// Rows y0 … y1 of the page, filtered across, for the pass down.
	y0, y1 := max(g.Rect.Min.Y, r.Min.Y-rad), min(g.Rect.Max.Y, r.Max.Y+rad)
	across := make([]float32, w*(y1-y0))
	lo, hi := g.Rect.Min.X, g.Rect.Max.X-1
	for y := y0; y < y1; y++ {
		src := g.Pix[(y-g.Rect.Min.Y)*g.Stride:]
		dst := across[(y-y0)*w:][:w]
		for x := range w {
			px := r.Min.X + x
			var s float32
			if px-rad >= lo && px+rad <= hi {
				row := src[px-rad-g.Rect.Min.X:][:len(kern)]
				for t, v := range row {
					s += kern[t] * float32(v)
				}
			} else {
				for t := -rad; t <= rad; t++ {
					s += kern[t+rad] * float32(src[min(hi, max(lo, px+t))-g.Rect.Min.X])
				}
			}
			dst[x] = s
		}
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	sum := make([]float32, w)
	for y := range h {
		py := r.Min.Y + y
		clear(sum)
		for t, k := range kern {
			yy := min(y1-1, max(y0, py+t-rad))
			for x, v := range across[(yy-y0)*w:][:w] {
				sum[x] += k * v
			}
		}
		dst := out.Pix[y*out.Stride:][:w]
		for x, s := range sum {
			dst[x] = uint8(max(0, min(255, s+0.5)))
		}
	}
	return out
}
