package sheets

import (
	"image"
	"math"
	"testing"
)

// The Wiener filter keeps the paper's level (its taps sum to 1), is symmetric, and restores
// what a Gaussian blur of its σ flattens: a bar 3 pixels wide, blurred by σ 1 (its peak 0.88
// of the bar), comes back nearer the bar (the peak 1.09: K keeps the filter from undoing the
// blur wholly, and its window rings a little).
func TestWienerTapsUndoAGaussianBlur(t *testing.T) {
	k := wienerTaps(deblurSigma, deblurK, deblurTaps)
	var sum float64
	for i, v := range k {
		sum += float64(v)
		if v != k[len(k)-1-i] {
			t.Errorf("taps not symmetric: %v", k)
			break
		}
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Errorf("taps sum to %.6f, want 1", sum)
	}
	const n = 41
	bar := make([]float64, n)
	for x := 19; x < 22; x++ {
		bar[x] = 1
	}
	blurred := convolve1(bar, gaussTaps1(deblurSigma))
	back := convolve1(blurred, k)
	errBlurred, errBack := rms(blurred, bar), rms(back, bar)
	t.Logf("bar peak: blurred %.3f, deblurred %.3f; rms error %.3f, %.3f", blurred[20], back[20], errBlurred, errBack)
	if math.Abs(back[20]-1) >= math.Abs(blurred[20]-1) || errBack > 0.8*errBlurred {
		t.Errorf("a bar blurred by σ %.1f (peak %.3f, rms error %.3f) comes back with peak %.3f, rms error %.3f: want the peak nearer 1 and at most 0.8 of the error", deblurSigma, blurred[20], errBlurred, back[20], errBack)
	}
}

// A box's reads finer than the page take the page with its blur undone, on the page's own
// pixels: a page of fine marks blurred by a Gaussian of σ 1, read 3 times finer by fill, comes
// out nearer the same page unblurred, and no nearer when the deblurred part is taken a pixel
// off (misregistered); the crop's own read, at the page's resolution, is the page as captured.
func TestFineReadsAreDeblurred(t *testing.T) {
	const side = 160
	sharp := image.NewGray(image.Rect(0, 0, side, side))
	for k := range sharp.Pix {
		sharp.Pix[k] = 240
	}
	// Marks: bars 2 and 3 pixels wide across and down, a slanted stroke and a dot, dark ink.
	for y := 40; y < 120; y++ {
		for _, x := range []int{50, 51, 70, 71, 72} {
			sharp.Pix[y*side+x] = 40
		}
		sharp.Pix[y*side+90+(y-40)/4] = 40
		sharp.Pix[y*side+91+(y-40)/4] = 40
	}
	for x := 40; x < 120; x++ {
		sharp.Pix[100*side+x] = 40
		sharp.Pix[101*side+x] = 40
	}
	for y := 60; y < 63; y++ {
		for x := 110; x < 113; x++ {
			sharp.Pix[y*side+x] = 40
		}
	}
	blurred := blurGray(sharp, deblurSigma)
	identity := func(u, v float64) Point { return Point{u, v} }
	read := func(g *image.Gray, deblur bool, shift int) []uint8 {
		sm := sampler{p: newPage(g), full: identity, du: 1, dv: 1, scale: 1}
		if deblur {
			sm.deblur(30, 30, 130, 130)
			if sm.sharp == nil {
				t.Fatal("no deblurred part made")
			}
			sm.sx += shift
		}
		const f = 3
		out := make([]uint8, 300*300)
		sm.fill(out, 300, 300, 30, 30, 1.0/f, true)
		return out
	}
	truth := read(sharp, false, 0)
	asCaptured := rmsBytes(read(blurred, false, 0), truth)
	deblurred := rmsBytes(read(blurred, true, 0), truth)
	off := rmsBytes(read(blurred, true, 1), truth)
	t.Logf("rms ink error against the unblurred page: as captured %.1f, deblurred %.1f, deblurred a pixel off %.1f", asCaptured, deblurred, off)
	if deblurred > 0.75*asCaptured || off < 1.5*deblurred {
		t.Errorf("read 3 times finer, the blurred page is %.1f from the unblurred one, %.1f deblurred, %.1f deblurred a pixel off: want deblurred at most 0.75 of the first, and a pixel off at least 1.5 times deblurred", asCaptured, deblurred, off)
	}
	// The crop's own read at the page's resolution is not deblurred.
	sm := sampler{p: newPage(blurred), full: identity, du: 1, dv: 1, scale: 1}
	sm.deblur(30, 30, 130, 130)
	a, b := make([]uint8, 100*100), make([]uint8, 100*100)
	sm.fill(a, 100, 100, 30, 30, 1, false)
	sm.sharp = nil
	sm.fill(b, 100, 100, 30, 30, 1, false)
	if rmsBytes(a, b) != 0 {
		t.Error("the read at the page's resolution took the deblurred page")
	}
}

// gaussTaps1 returns the normalised taps of a Gaussian of sigma, radius ⌈4σ⌉.
func gaussTaps1(sigma float64) []float32 {
	r := int(math.Ceil(4 * sigma))
	k := make([]float32, 2*r+1)
	var s float64
	for i := -r; i <= r; i++ {
		v := math.Exp(-float64(i*i) / (2 * sigma * sigma))
		k[i+r] = float32(v)
		s += v
	}
	for i := range k {
		k[i] = float32(float64(k[i]) / s)
	}
	return k
}

// convolve1 convolves v by k, the ends clamped.
func convolve1(v []float64, k []float32) []float64 {
	r := len(k) / 2
	out := make([]float64, len(v))
	for x := range v {
		for t := -r; t <= r; t++ {
			out[x] += float64(k[t+r]) * v[min(len(v)-1, max(0, x+t))]
		}
	}
	return out
}

// blurGray blurs g by a Gaussian of sigma across and down, edges clamped, rounded.
func blurGray(g *image.Gray, sigma float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	k := gaussTaps1(sigma)
	rows := make([]float64, w*h)
	for y := range h {
		row := make([]float64, w)
		for x := range w {
			row[x] = float64(g.Pix[y*g.Stride+x])
		}
		copy(rows[y*w:], convolve1(row, k))
	}
	out := image.NewGray(g.Rect)
	col := make([]float64, h)
	for x := range w {
		for y := range h {
			col[y] = rows[y*w+x]
		}
		for y, v := range convolve1(col, k) {
			out.Pix[y*out.Stride+x] = uint8(max(0, min(255, math.Round(v))))
		}
	}
	return out
}

func rms(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s / float64(len(a)))
}

func rmsBytes(a, b []uint8) float64 {
	var s float64
	for i := range a {
		d := float64(a[i]) - float64(b[i])
		s += d * d
	}
	return math.Sqrt(s / float64(len(a)))
}
