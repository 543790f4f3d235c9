package ui

import (
	"image"
	"testing"

	"idxlabel/normalize"
)

// The pad hands normalization a 128×128 bilevel raster (NIST's resolution), and the preview is
// MNIST's preprocessing of it: ink box long side 20, peak 255, the same raster as the strokes
// drawn at 128×128 bilevel.
func TestPadRasterIsBilevelAtNISTResolution(t *testing.T) {
	_, d, _ := newDatasetWindow(t)
	drawSeven(d)
	g := d.pad.image()
	if g.Rect != image.Rect(0, 0, 128, 128) {
		t.Fatalf("raster %v, want 128×128", g.Rect)
	}
	ink := 0
	for _, v := range g.Pix {
		switch v {
		case 0:
		case 255:
			ink++
		default:
			t.Fatalf("raster holds grey level %d: not bilevel", v)
		}
	}
	if ink == 0 {
		t.Fatal("raster has no ink")
	}
	if d.digit == nil {
		t.Fatal("no preview")
	}
	box, _ := normalize.BoundingBox(d.digit)
	peak := byte(0)
	for _, v := range d.digit.Pix {
		peak = max(peak, v)
	}
	if max(box.Dx(), box.Dy()) != 20 || peak != 255 {
		t.Fatalf("preview ink box %v, peak %d: want long side 20, peak 255", box, peak)
	}
	want, err := normalize.Digit(g, normalize.Options{Polarity: normalize.InkLight})
	if err != nil {
		t.Fatal(err)
	}
	for k := range want.Pix {
		if want.Pix[k] != d.digit.Pix[k] {
			t.Fatalf("preview differs from the raster's preprocessing at pixel %d", k)
		}
	}
}

// BenchmarkPadPreview times the live preview's work on each stroke: a seven of two strokes
// (20 points each) rasterized at 128×128 bilevel and preprocessed to 28×28 (target ≤ 1 ms).
func BenchmarkPadPreview(b *testing.B) {
	var strokes []stroke
	for _, seg := range [][4]float64{{0.25, 0.2, 0.75, 0.2}, {0.75, 0.2, 0.4, 0.85}} {
		s := stroke{width: defaultPen}
		for k := range 20 {
			t := float64(k) / 19
			s.pts = append(s.pts, point{seg[0] + t*(seg[2]-seg[0]), seg[1] + t*(seg[3]-seg[1])})
		}
		strokes = append(strokes, s)
	}
	for b.Loop() {
		g := rasterStrokes(strokes, padRaster, padRaster, true)
		if _, err := normalize.Digit(g, normalize.Options{Polarity: normalize.InkLight}); err != nil {
			b.Fatal(err)
		}
	}
}
