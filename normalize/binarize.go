package normalize

import "image"

// minContrast is the smallest difference, in grey levels, between the mean level of the pixels
// a threshold calls ink and of those it calls ground for the split to be taken as ink on a
// ground: a split of a blank photo's noise or of a uniform page differs by less.
const minContrast = 32

// Binarize returns img as a bilevel ink image, 255 = ink, 0 = background: Ink(img, p), then
// Bilevel with threshold. It is the one rule by which every path (drawing pad, import,
// normalize) makes the bilevel image MNIST's preprocessing starts from, as NIST's scans were.
func Binarize(img image.Image, p Polarity, threshold int) *image.Gray {
	return Bilevel(Ink(img, p), threshold)
}

// Bilevel makes an ink image bilevel in place and returns it: ink ≥ t becomes 255, the rest 0.
// threshold 1–255 is t; 0 chooses t by Otsu's method (Otsu 1979: the level that maximises the
// variance between the two classes of the grey-level histogram) among the levels whose classes
// differ by at least minContrast, so that JPEG noise and a faint ground are background and any
// ink clearly apart from its ground, whatever its colour, is full ink — also a small digit in a
// large noisy photo, where splitting the noise in two would give the larger variance. An image
// with no such level is uniform: when its mean level is at least 128 it is thresholded at 128
// (nearly all ink), else it has no ink (an empty or blank image).
func Bilevel(g *image.Gray, threshold int) *image.Gray {
	t := threshold
	if t <= 0 {
		t = otsu(g)
	}
	for k, v := range g.Pix {
		if int(v) >= t {
			g.Pix[k] = 255
		} else {
			g.Pix[k] = 0
		}
	}
	return g
}

// otsu returns the threshold (1–256: ink ≥ t) Otsu's method chooses for g's levels among those
// whose classes' means differ by at least minContrast; where several levels give the same
// between-class variance (a bilevel image: every level between its two), the middle one. A
// uniform image (no such level) gets 128 or 256 by its mean.
func otsu(g *image.Gray) int {
	var hist [256]int
	n := 0
	for y := g.Rect.Min.Y; y < g.Rect.Max.Y; y++ {
		for _, v := range g.Pix[g.PixOffset(g.Rect.Min.X, y):][:g.Rect.Dx()] {
			hist[v]++
		}
		n += g.Rect.Dx()
	}
	if n == 0 {
		return 256
	}
	var total float64
	for v, c := range hist {
		total += float64(v * c)
	}
	// Class 0: levels < t; class 1: levels ≥ t.
	var n0 int
	var sum0, best float64
	lo, hi := -1, -1
	for t := 1; t < 256; t++ {
		n0 += hist[t-1]
		sum0 += float64((t - 1) * hist[t-1])
		n1 := n - n0
		if n0 == 0 || n1 == 0 {
			continue
		}
		m0, m1 := sum0/float64(n0), (total-sum0)/float64(n1)
		if m1-m0 < minContrast {
			continue
		}
		v := float64(n0) * float64(n1) * (m1 - m0) * (m1 - m0)
		switch {
		case v > best:
			best, lo, hi = v, t, t
		case v == best:
			hi = t
		}
	}
	if lo < 0 {
		if total >= 128*float64(n) {
			return 128
		}
		return 256
	}
	return (lo + hi) / 2
}
