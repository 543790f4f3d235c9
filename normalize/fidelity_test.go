package normalize

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/disintegration/imaging"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// The fidelity benchmark (issue: "faithful to MNIST to the pixel"): each real t10k digit is
// upsampled ×10 (bilinear), thresholded to bilevel (ink ≥ 128) like NIST's originals, run through
// Digit, and compared with the original 28×28.

// report summarises a fidelity run.
type report struct {
	n            int
	meanCorr     float64 // mean Pearson correlation with the original
	p5Corr       float64 // 5th percentile of the correlation
	exact        float64 // share whose best-matching shift against the original is (0, 0)
	longSideOK   float64 // share whose ink bounding box's long side is 19 or 20 px
	centerOK     float64 // share whose centre of mass is within 0.5 px of 14.0 (row and col)
	maxCenterOff float64 // largest distance of a centre of mass from 14.0 on either axis
}

func evaluate(tb testing.TB, images *idx.Array, n int, opts Options) report {
	tb.Helper()
	var r report
	corrs := make([]float64, 0, n)
	var exact, longOK, centerOK int
	for i := range n {
		orig := sample(images, i)
		up := imaging.Resize(orig, 280, 280, imaging.Linear)
		bilevel := image.NewGray(up.Rect)
		for k := range bilevel.Pix {
			if up.Pix[4*k] >= 128 {
				bilevel.Pix[k] = 255
			}
		}
		got, err := Digit(bilevel, opts)
		if err != nil {
			tb.Fatalf("digit %d: %v", i, err)
		}
		corrs = append(corrs, pearson(got.Pix, orig.Pix))
		if bestShift(got, orig) == (image.Point{}) {
			exact++
		}
		box, _ := BoundingBox(got)
		if long := max(box.Dx(), box.Dy()); long == 19 || long == 20 {
			longOK++
		}
		row, col, _ := CenterOfMass(got)
		off := max(math.Abs(row-Center), math.Abs(col-Center))
		r.maxCenterOff = max(r.maxCenterOff, off)
		if off <= 0.5 {
			centerOK++
		}
	}
	slices.Sort(corrs)
	for _, c := range corrs {
		r.meanCorr += c / float64(n)
	}
	r.n = n
	r.p5Corr = corrs[n*5/100]
	r.exact = float64(exact) / float64(n)
	r.longSideOK = float64(longOK) / float64(n)
	r.centerOK = float64(centerOK) / float64(n)
	return r
}

func sample(images *idx.Array, i int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 28, 28))
	copy(g.Pix, images.Data[i*784:(i+1)*784])
	return g
}

func pearson(a, b []byte) float64 {
	var sa, sb, saa, sbb, sab float64
	n := float64(len(a))
	for k := range a {
		x, y := float64(a[k]), float64(b[k])
		sa, sb, saa, sbb, sab = sa+x, sb+y, saa+x*x, sbb+y*y, sab+x*y
	}
	cov := sab - sa*sb/n
	return cov / math.Sqrt((saa-sa*sa/n)*(sbb-sb*sb/n))
}

// bestShift returns the whole-pixel shift (within ±3) of got that best matches want, by the sum
// of products; (0, 0) means got sits exactly where MNIST put the digit.
func bestShift(got, want *image.Gray) image.Point {
	best, bestScore := image.Point{}, -1.0
	for dy := -3; dy <= 3; dy++ {
		for dx := -3; dx <= 3; dx++ {
			var score float64
			for y := range 28 {
				for x := range 28 {
					sx, sy := x-dx, y-dy
					if sx >= 0 && sx < 28 && sy >= 0 && sy < 28 {
						score += float64(got.Pix[sy*28+sx]) * float64(want.Pix[y*28+x])
					}
				}
			}
			if score > bestScore || score == bestScore && dx == 0 && dy == 0 {
				best, bestScore = image.Point{dx, dy}, score
			}
		}
	}
	return best
}

// TestFidelityOnRealMNIST asserts, on the first 1,000 t10k digits, the invariants on every
// digit (long side of the ink 19–20 px, centre of mass within 0.5 px of 14.0) and a floor for the
// mean correlation (the target, 0.95). The 5th percentile and the exact placement are
// logged; BenchmarkFidelity reports them on 2,000 and 10,000 digits.
func TestFidelityOnRealMNIST(t *testing.T) {
	images, _ := mnisttest.Load(t)
	r := evaluate(t, images, 1000, Options{Polarity: InkLight})
	t.Logf("first %d digits: mean correlation %.4f, 5th percentile %.4f, exact placement %.1f%%, long side 19–20 %.1f%%, centre within 0.5 px %.1f%% (max off %.2f)",
		r.n, r.meanCorr, r.p5Corr, 100*r.exact, 100*r.longSideOK, 100*r.centerOK, r.maxCenterOff)
	if r.longSideOK != 1 || r.centerOK != 1 {
		t.Errorf("invariants not met on every digit: long side %.3f, centre %.3f", r.longSideOK, r.centerOK)
	}
	if r.meanCorr < 0.95 {
		t.Errorf("mean correlation %.4f, below the floor 0.95", r.meanCorr)
	}
}

func reportFigures(b *testing.B, r report) {
	b.ReportMetric(r.meanCorr, "mean-corr")
	b.ReportMetric(r.p5Corr, "p5-corr")
	b.ReportMetric(100*r.exact, "exact-%")
	b.ReportMetric(100*r.longSideOK, "long-side-ok-%")
	b.ReportMetric(100*r.centerOK, "center-ok-%")
}

// BenchmarkFidelity reports the fidelity figures of Digit's defaults on the first 2,000 t10k
// digits (the size of the PIL+scipy reference: mean 0.945, 5th percentile 0.78, 75% exact) and on
// all 10,000.
func BenchmarkFidelity(b *testing.B) {
	images, _ := mnisttest.Load(b)
	for _, n := range []int{2000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				reportFigures(b, evaluate(b, images, n, Options{Polarity: InkLight}))
			}
		})
	}
}

// BenchmarkFidelityFilters compares imaging's anti-aliasing filters on the first 2,000 digits;
// it is how DefaultFilter was chosen.
func BenchmarkFidelityFilters(b *testing.B) {
	images, _ := mnisttest.Load(b)
	filters := []struct {
		name string
		f    imaging.ResampleFilter
	}{
		{"Box", imaging.Box}, {"Linear", imaging.Linear}, {"Hermite", imaging.Hermite},
		{"MitchellNetravali", imaging.MitchellNetravali}, {"CatmullRom", imaging.CatmullRom},
		{"BSpline", imaging.BSpline}, {"Gaussian", imaging.Gaussian}, {"Lanczos", imaging.Lanczos},
	}
	for _, f := range filters {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				reportFigures(b, evaluate(b, images, 2000, Options{Polarity: InkLight, Filter: &f.f}))
			}
		})
	}
}
