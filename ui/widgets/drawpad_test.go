package widgets

import (
	"testing"

	"idxlabel/normalize"
)

// BenchmarkPadPreview times the live preview's work on each stroke: a seven of two strokes
// (20 points each) rasterized at 128×128 bilevel and preprocessed to 28×28 (target ≤ 1 ms).
func BenchmarkPadPreview(b *testing.B) {
	var strokes []stroke
	for _, seg := range [][4]float64{{0.25, 0.2, 0.75, 0.2}, {0.75, 0.2, 0.4, 0.85}} {
		s := stroke{width: DefaultPen}
		for k := range 20 {
			t := float64(k) / 19
			s.pts = append(s.pts, point{seg[0] + t*(seg[2]-seg[0]), seg[1] + t*(seg[3]-seg[1])})
		}
		strokes = append(strokes, s)
	}
	for b.Loop() {
		g := rasterStrokes(strokes, PadRaster, PadRaster, true)
		if _, err := normalize.Digit(g, normalize.Options{Polarity: normalize.InkLight}); err != nil {
			b.Fatal(err)
		}
	}
}
