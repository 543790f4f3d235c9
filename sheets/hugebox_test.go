package sheets_test

import (
	"context"
	"image"
	"runtime"
	"testing"

	"idxlabel/fixture/sheetgen"
	"idxlabel/normalize"
	"idxlabel/sheets"
)

// ring calls set for each pixel of a ring: an ellipse centred at (cx, cy) of half-axes rx and
// ry through the middle of a stroke sw pixels wide.
func ring(set func(x, y int), cx, cy, rx, ry, sw float64) {
	in := func(x, y, ax, ay float64) bool { return (x*x)/(ax*ax)+(y*y)/(ay*ay) <= 1 }
	for y := int(cy - ry - sw); y <= int(cy+ry+sw); y++ {
		for x := int(cx - rx - sw); x <= int(cx+rx+sw); x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if in(dx, dy, rx+sw/2, ry+sw/2) && !in(dx, dy, rx-sw/2, ry-sw/2) {
				set(x, y)
			}
		}
	}
}

// A 1×1 layout ruled over a whole 600 dpi A4 page (4,960×7,016, 35 megapixels) is one box of
// 4,252×5,338 pixels, its crop 35 megapixels at the page's resolution and its inside read
// twice as fine four times that: each read is bounded by a fixed number of pixels instead, so
// reading the page allocates a few tens of megabytes, and the digit in the box is still read.
// The bytes are the runtime's count of heap bytes allocated (TotalAlloc), which does not
// depend on timing or load.
func TestOneBoxSheetReadBounded(t *testing.T) {
	const W, H = 4960, 7016
	g := image.NewGray(image.Rect(0, 0, W, H))
	for k := range g.Pix {
		g.Pix[k] = 240
	}
	// The grid's outline: a 0.7 mm (16 px) line, 15 mm from the page's sides, 56 mm from its
	// top and 15 mm from its bottom, as the template places it.
	const x0, y0, x1, y1, lw = 354, 1323, 4606, 6661, 16
	for y := y0 - lw/2; y < y1+lw/2; y++ {
		for x := x0 - lw/2; x < x1+lw/2; x++ {
			if x < x0+lw/2 || x >= x1-lw/2 || y < y0+lw/2 || y >= y1-lw/2 {
				g.Pix[y*g.Stride+x] = 20
			}
		}
	}
	// A 0 written across most of the box, with a 60-pixel pen.
	const cx, cy, rx, ry, sw = (x0 + x1) / 2, (y0 + y1) / 2, 1100.0, 1700.0, 60.0
	ring(func(x, y int) { g.Pix[y*g.Stride+x] = 40 }, cx, cy, rx, ry, sw)
	// The same 0 alone, an eighth of the size, through MNIST's preprocessing.
	const s = 8
	alone := image.NewGray(image.Rect(0, 0, int(2*(rx+sw))/s, int(2*(ry+sw))/s))
	ring(func(x, y int) {
		if image.Pt(x, y).In(alone.Rect) {
			alone.Pix[y*alone.Stride+x] = 255
		}
	}, (rx+sw)/s, (ry+sw)/s, rx/s, ry/s, sw/s)
	ref, err := normalize.Digit(alone, normalize.Options{Polarity: normalize.InkLight, Threshold: 128})
	if err != nil {
		t.Fatal(err)
	}

	l, err := sheets.ParseLayout(1, 1, "0")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := sheets.Find(context.Background(), g, l, sheets.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// Finding the grid: about 10 bytes a working pixel (the page shrunk by 5: 1.4 megapixels);
	// the box: its crop, its inside and its ink read again, each at most 4 megapixels, at
	// 1 + 7 + 6 bytes a pixel (the levels, the bilevel copy, the shapes' labels), each read
	// from the part of the page it covers averaged over its pixels (about as many bytes as
	// the read's pixels). 90 MB in all when measured (78 MB before that averaging); the box
	// read at full scale allocated 357 MB.
	const bound = 120 << 20
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > bound {
		t.Errorf("reading one box of a 600 dpi page allocated %d MB, want at most %d MB", alloc>>20, bound>>20)
	} else {
		t.Logf("reading one box of a 600 dpi page allocated %d MB", alloc>>20)
	}
	if len(got.Boxes) != 1 || got.Boxes[0].State != sheets.Filled {
		t.Fatalf("boxes %+v, want the one box filled", got.Counts)
	}
	// Compared at the best whole-pixel shift: the ring is symmetric about its centre and
	// thinner than a pixel at 28×28, so MNIST's whole-pixel placement by centre of mass puts
	// it on a knife-edge, where a few hundredths of a pixel in the read move it a whole pixel
	// (then keeping under 0.3 of the same ring unshifted). The shape is what is checked here.
	c := sheetgen.ShiftedCorrelation(got.Boxes[0].Sample, ref.Pix, 28)
	if c < 0.9 {
		t.Errorf("the 0 read from the page keeps %.3f of the same 0 imported alone (at its best shift), want at least 0.9", c)
	} else {
		t.Logf("correlation with the 0 imported alone %.3f at its best shift, %.3f unshifted", c, sheetgen.Correlation(got.Boxes[0].Sample, ref.Pix))
	}
}
