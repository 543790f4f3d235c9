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
	g := d.Pad.Image()
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
	if d.Digit == nil {
		t.Fatal("no preview")
	}
	box, _ := normalize.BoundingBox(d.Digit)
	peak := byte(0)
	for _, v := range d.Digit.Pix {
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
		if want.Pix[k] != d.Digit.Pix[k] {
			t.Fatalf("preview differs from the raster's preprocessing at pixel %d", k)
		}
	}
}
