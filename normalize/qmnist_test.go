package normalize

import (
	"image"
	"runtime"
	"testing"
)

// Hand-worked cases of the QMNIST program's steps (qmnist.go). The values in the comments are
// worked out from the program's formulas: an input pixel i of an n-pixel square maps to
// [x, x + 0.99·s) with s = 20/n and x = 10 + s·(i − n/2) = s·i.

// bilevel returns a w×h image with ink (255) in the given rectangles.
func bilevel(w, h int, rects ...image.Rectangle) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for _, r := range rects {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				g.Pix[y*w+x] = 255
			}
		}
	}
	return g
}

// wantField returns a 28×28 field with the given rows of values starting at (top, left).
func wantField(top, left int, rows ...[]byte) []byte {
	f := make([]byte, 28*28)
	for i, r := range rows {
		copy(f[(top+i)*28+left:], r)
	}
	return f
}

func fill(n int, v byte) []byte {
	b := make([]byte, n)
	for k := range b {
		b[k] = v
	}
	return b
}

func sameField(t *testing.T, name string, got *image.Gray, want []byte) {
	t.Helper()
	if got.Rect != image.Rect(0, 0, 28, 28) {
		t.Fatalf("%s: field %v", name, got.Rect)
	}
	for k := range want {
		if got.Pix[k] != want[k] {
			t.Fatalf("%s: pixel (row %d, col %d) is %d, want %d", name, k/28, k%28, got.Pix[k], want[k])
		}
	}
}

func TestSquareCrop(t *testing.T) {
	g := geometryFor(28, 28)
	if g.box != 20 || g.minSide != 10 || g.rowTarget != 15 || g.colTarget != 15 {
		t.Fatalf("28×28 geometry %+v, want box 20, min side 10, targets 15", g)
	}
	for _, c := range []struct {
		bbox               image.Rectangle
		side, top, left, k int
	}{
		{image.Rect(0, 0, 7, 3), 10, 3, 1, 2},     // 3 high, 7 wide: ⌊7/2⌋ rows and ⌊3/2⌋ cols of margin, doubled to 20
		{image.Rect(0, 0, 1, 1), 10, 4, 4, 2},     // one pixel: ⌊9/2⌋
		{image.Rect(5, 2, 30, 15), 25, 6, 0, 1},   // 13×25: ⌊12/2⌋ rows above, no doubling
		{image.Rect(0, 0, 19, 19), 19, 0, 0, 2},   // just under 20: doubled to 38
		{image.Rect(0, 0, 100, 1), 100, 49, 0, 1}, // a 1-px line: ⌊99/2⌋
	} {
		s := squareCrop(nil, c.bbox, g)
		if s.side != c.side || s.top != c.top || s.left != c.left || s.k != c.k {
			t.Errorf("bbox %v: side %d top %d left %d k %d, want %d %d %d %d", c.bbox, s.side, s.top, s.left, s.k, c.side, c.top, c.left, c.k)
		}
	}
}

// A 3×7 block in a 25×25 square (scale 0.8, each pixel 0.792 wide) at rows 10–12, cols 5–11.
// Rows: i=10 → [8.0, 8.792) inside output row 8, weight 0.8 (s, the unsplit side); i=11 →
// [8.8, 9.592): 0.2 of row 8, 0.592 of row 9; i=12 → [9.6, 10.392): 0.4 of row 9, 0.392 of
// row 10. Row totals 1.0, 0.992, 0.392. Columns: j=5 → col 4 (0.8); 6 → 0.2 of col 4, 0.592 of
// 5; 7 → 0.4 of 5, 0.392 of 6; 8 → 0.6 of 6, 0.192 of 7; 9 → [7.2, 7.992) inside col 7 (0.8);
// 10 → col 8 (0.8); 11 → 0.2 of col 8, 0.592 of col 9. Column totals 1.0, 0.992, 0.992, 0.992,
// 1.0, 0.592. The program's four cases multiply out to row total × column total; the peak is
// 1.0, so a byte is ⌊255·v + 0.5⌋: 0.992 → 253, 0.992² → 251, 0.592 → 151, 0.992·0.592 → 150,
// 0.392 → 100, 0.392·0.992 → 99, 0.392·0.592 → 59.
func TestResampleBlockAtFractionalScale(t *testing.T) {
	r := newResampler(25, 25, 20, 20, fudge)
	for i := 10; i <= 12; i++ {
		for j := 5; j <= 11; j++ {
			r.add(r.rows.at(i), r.cols.at(j), 1)
		}
	}
	got := toBytes(r.out)
	want := make([]byte, 400)
	for i, row := range [][]byte{
		{255, 253, 253, 253, 255, 151},
		{253, 251, 251, 251, 253, 150},
		{100, 99, 99, 99, 100, 59},
	} {
		copy(want[(8+i)*20+4:], row)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("20×20 pixel (row %d, col %d) is %d, want %d", k/20, k%20, got[k], want[k])
		}
	}
}

// A 10×10 square: the crop is the square itself, doubled to 20×20, resampled at scale 1 (each
// pixel inside one output pixel, area 1): all 255. Centre of mass (10, 10), offset
// int(15 − 10) = 5: rows and columns 5–24.
func TestTenByTenSquare(t *testing.T) {
	got, clamped, err := digit(bilevel(40, 40, image.Rect(12, 7, 22, 17)), Options{})
	if err != nil || clamped {
		t.Fatalf("err %v, clamped %v", err, clamped)
	}
	rows := make([][]byte, 20)
	for i := range rows {
		rows[i] = fill(20, 255)
	}
	sameField(t, "10×10 square", got, wantField(5, 5, rows...))
}

// A horizontal 1-px line 100 long: square 100, the line in row 49 → [9.8, 9.998) inside output
// row 9; columns at scale 0.2 never split, each output column gets 5 × 0.04 = 0.2. The peak 0.2
// is below 1, so it becomes 255: row 9 all 255. Centre (9.5, 10): offsets int(5.5) = 5 and 5,
// so row 14, columns 5–24.
func TestOnePixelLine(t *testing.T) {
	got, _, err := digit(bilevel(120, 30, image.Rect(10, 12, 110, 13)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameField(t, "1×100 line", got, wantField(14, 5, fill(20, 255)))
}

// A vertical 1-px line 30 long (scale 2/3, each pixel 0.66 long): input rows 3k fall inside
// output row 2k (area 4/9), rows 3k+1 are split, 1/3 of row 2k and 0.3267 of row 2k+1 (times
// the column scale 2/3), rows 3k+2 inside row 2k+1. Even output rows 0.6667, odd 0.6622: peak
// 0.6667 → 255, odd rows ⌊255·0.99333 + 0.5⌋ = 253 (the fudge's aliasing). Column [9.33, 9.99)
// → column 9. Centre row (255·95 + 253·105)/5080 = 9.998, offset int(5.002) = 5; column 9.5 →
// int(5.5) = 5: column 14, rows 5–24.
func TestVerticalLineAliasing(t *testing.T) {
	got, _, err := digit(bilevel(9, 40, image.Rect(4, 5, 5, 35)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]byte, 20)
	for i := range rows {
		rows[i] = []byte{255}
		if i%2 == 1 {
			rows[i] = []byte{253}
		}
	}
	sameField(t, "30×1 line", got, wantField(5, 14, rows...))
}

// A single pixel: square 10 with the pixel at (4, 4), doubled: a 2×2 block at rows and columns
// 8–9 of value 1 → 255. Centre (9, 9), offset int(6) = 6: rows and columns 14–15.
func TestSinglePixel(t *testing.T) {
	for _, size := range []int{1, 5, 300} {
		g := bilevel(size, size, image.Rect(size/2, size/2, size/2+1, size/2+1))
		got, _, err := digit(g, Options{Polarity: InkLight})
		if err != nil {
			t.Fatal(err)
		}
		sameField(t, "single pixel", got, wantField(14, 14, []byte{255, 255}, []byte{255, 255}))
	}
}

// A short 1×3 line: square 10 with the line at row 4, columns 3–5; doubled: rows 8–9, columns
// 6–11, all 255. Centre (9, 9): rows 14–15, columns 12–17.
func TestShortLine(t *testing.T) {
	got, _, err := digit(bilevel(20, 20, image.Rect(8, 8, 11, 9)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameField(t, "1×3 line", got, wantField(14, 12, fill(6, 255), fill(6, 255)))
}

// A digit touching the image's border gives the same sample as the same digit in the middle of a
// larger image: the square reaches past the border into background, it is not moved inside.
// (Light ink is named: with InkAuto, a border mostly inked would be taken for paper.)
func TestDigitTouchingBorder(t *testing.T) {
	shape := []image.Rectangle{image.Rect(0, 0, 6, 40), image.Rect(6, 0, 20, 5)} // a Γ
	edge := bilevel(20, 40, shape...)
	var moved []image.Rectangle
	for _, r := range shape {
		moved = append(moved, r.Add(image.Pt(50, 30)))
	}
	middle := bilevel(120, 100, moved...)
	a, _, err1 := digit(edge, Options{Polarity: InkLight})
	b, _, err2 := digit(middle, Options{Polarity: InkLight})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	sameField(t, "Γ at the border", a, b.Pix)
}

// A heavy bar on a thin stem: the centre of mass lies near the box's top, so int(15 − centre)
// would put the block's last rows past the field's bottom edge (the program cuts them off); the
// placement is clamped so that every ink row stays in the field.
func TestClampKeepsInk(t *testing.T) {
	g := bilevel(140, 140, image.Rect(20, 20, 120, 60), image.Rect(69, 60, 70, 120))
	got, clamped, err := digit(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !clamped {
		t.Fatal("placement not clamped")
	}
	box, _ := BoundingBox(got)
	if box.Dy() != 20 || box.Max.Y != 28 {
		t.Fatalf("ink box %v: want 20 rows ending at the field's last row", box)
	}
	// Unclamped, the offset would be int(15 − centre) > 8.
	b := toBytes(resampleSquare(squareCrop(Binarize(g, InkAuto, 0), image.Rect(20, 20, 120, 120), geometryFor(28, 28)), 20))
	bi, _, _ := barycenter(b, 20, 20)
	if int(15-bi) <= 8 {
		t.Fatalf("centre row %.2f: the rule's offset %d would not cut ink", bi, int(15-bi))
	}
}

// Other field sizes: the box is round(20/28 of the shorter side) and the centre of mass lands
// within half a pixel of side/2 (index coordinates), as 14.0 in MNIST's 28.
func TestGeometryScales(t *testing.T) {
	for _, c := range []struct{ w, h, box, minSide int }{
		{28, 28, 20, 10}, {32, 32, 23, 12}, {56, 28, 20, 10}, {64, 64, 46, 23}, {8, 8, 6, 3}, {1, 1, 1, 1},
	} {
		g := geometryFor(c.w, c.h)
		if g.box != c.box || g.minSide != c.minSide || g.colTarget != float64(c.w)/2+1 || g.rowTarget != float64(c.h)/2+1 {
			t.Errorf("%d×%d: %+v", c.w, c.h, g)
		}
	}
}

// A 1×N line: a square of side N, the line's row inside one output row; the result is a row of
// 255 across the box (TestOnePixelLine works it out for N = 100). For N = 8,000,000 nothing is
// tabulated per input column: the preprocessing allocates about the input's copies (8 MB each),
// not 32 bytes per column and row of the square (512 MB).
func TestLongLineMemory(t *testing.T) {
	const n = 8_000_000
	g := image.NewGray(image.Rect(0, 0, n, 1))
	for k := range g.Pix {
		g.Pix[k] = 255
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, _, err := digit(g, Options{Polarity: InkLight})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	sameField(t, "1×8,000,000 line", got, wantField(14, 5, fill(20, 255)))
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*n {
		t.Fatalf("allocated %d MB for a %d-pixel line", alloc>>20, n)
	}
}

// Resize (import --no-normalize) averages by area: halving a 4×2 image maps each 2×2 block to
// its mean, (0 + 255 + 255 + 255)/4 = 191.25 → 191 and (100 + 100 + 0 + 0)/4 = 50; doubling
// repeats each pixel over the 2×2 pixels it covers; the same size is a copy.
func TestResizeByArea(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 4, 2))
	copy(g.Pix, []byte{0, 255, 100, 100, 255, 255, 0, 0})
	if got := Resize(g, 2, 1).Pix; got[0] != 191 || got[1] != 50 {
		t.Fatalf("halved: %v, want [191 50]", got)
	}
	up := Resize(g, 8, 4)
	for y := range 4 {
		for x := range 8 {
			if want := g.Pix[(y/2)*4+x/2]; up.Pix[y*8+x] != want {
				t.Fatalf("doubled: (%d, %d) is %d, want %d", x, y, up.Pix[y*8+x], want)
			}
		}
	}
	if same := Resize(g, 4, 2); string(same.Pix) != string(g.Pix) || &same.Pix[0] == &g.Pix[0] {
		t.Fatal("same size is not a copy")
	}
}
