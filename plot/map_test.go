package plot

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// clusters returns n points in c Gaussian clusters around a circle of radius 20 (map units):
// the shape of a real map.
func clusters(seed uint64, n, c int) ([]float32, []uint16) {
	rng := rand.New(rand.NewPCG(seed, 3))
	xy := make([]float32, 2*n)
	col := make([]uint16, n)
	for i := range n {
		k := i % c
		a := 2 * math.Pi * float64(k) / float64(c)
		xy[2*i] = float32(20*math.Cos(a) + 3*rng.NormFloat64())
		xy[2*i+1] = float32(20*math.Sin(a) + 3*rng.NormFloat64())
		col[i] = uint16(k)
	}
	return xy, col
}

// star returns a concave polygon: v vertices alternating between radius r and r/2 around
// (cx, cy), as x, y pairs.
func star(cx, cy, r float64, v int) []float32 {
	out := make([]float32, 0, 2*v)
	for k := range v {
		a := 2 * math.Pi * float64(k) / float64(v)
		rr := r
		if k%2 == 1 {
			rr = r / 2
		}
		out = append(out, float32(cx+rr*math.Cos(a)), float32(cy+rr*math.Sin(a)))
	}
	return out
}

// bruteInside is the crossing-number test over every edge.
func bruteInside(poly []float32, x, y float32) bool {
	edges := make([]int32, len(poly)/2)
	for k := range edges {
		edges[k] = int32(k)
	}
	return inside(poly, edges, x, y)
}

// TestLassoMatchesBruteForce compares the banded lasso with the plain crossing-number test on
// every point, for convex, concave and self-crossing polygons.
func TestLassoMatchesBruteForce(t *testing.T) {
	xy, _ := clusters(1, 5000, 7)
	m, err := NewMap(xy)
	if err != nil {
		t.Fatal(err)
	}
	polys := [][]float32{
		{-100, -100, 100, -100, 100, 100, -100, 100}, // all of it
		{0, 0, 25, 0, 25, 25},                        // a triangle
		star(15, 5, 18, 40),                          // concave
		star(-10, -10, 12, 9),                        // concave, few vertices
		{-20, -20, 20, 20, 20, -20, -20, 20},         // a bow tie (crosses itself)
		{100, 100, 110, 100, 105, 110},               // off the map
		{0, 0, 10, 10},                               // too few vertices
		{5, -40, 5.5, 40, 6, -40, 6.5, 40, 7, -40},   // thin spikes across many rows
	}
	for p, poly := range polys {
		got := m.Lasso(poly)
		var want []int
		if len(poly) >= 6 {
			for i := range m.Len() {
				if bruteInside(poly, xy[2*i], xy[2*i+1]) {
					want = append(want, i)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("polygon %d: %d points, brute force %d", p, len(got), len(want))
		}
		if p == 0 && len(got) != m.Len() || p == 2 && len(got) == 0 {
			t.Errorf("polygon %d: %d points", p, len(got))
		}
	}
}

// TestLassoByHand selects from five points with a unit square.
func TestLassoByHand(t *testing.T) {
	m, err := NewMap([]float32{0.5, 0.5, 2, 2, 0.1, 0.9, -1, 0.5, 0.99, 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Lasso([]float32{0, 0, 1, 0, 1, 1, 0, 1}); !slices.Equal(got, []int{0, 2, 4}) {
		t.Errorf("unit square: %v, want [0 2 4]", got)
	}
}

// TestNearestMatchesBruteForce picks the point nearest to random positions within a radius.
func TestNearestMatchesBruteForce(t *testing.T) {
	xy, _ := clusters(2, 3000, 5)
	m, err := NewMap(xy)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for range 300 {
		x, y := float32(rng.Float64()*60-30), float32(rng.Float64()*60-30)
		r := float32(rng.Float64() * 2)
		got, ok := m.Nearest(x, y, r)
		want, wantD := -1, r*r
		for i := range m.Len() {
			dx, dy := xy[2*i]-x, xy[2*i+1]-y
			if d := dx*dx + dy*dy; d < wantD {
				want, wantD = i, d
			}
		}
		if got != want || ok != (want >= 0) {
			t.Fatalf("nearest to (%v, %v) within %v: %d, %v; want %d", x, y, r, got, ok, want)
		}
	}
}

// TestNonFinitePoints leaves NaN and infinite points out of the grid, the lasso and drawing.
func TestNonFinitePoints(t *testing.T) {
	nan := float32(math.NaN())
	m, err := NewMap([]float32{0, 0, nan, 1, 1, float32(math.Inf(1)), 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Lasso([]float32{-1, -1, 3, -1, 3, 3, -1, 3}); !slices.Equal(got, []int{0, 3}) {
		t.Errorf("lasso: %v, want [0 3]", got)
	}
	img := image.NewRGBA(image.Rect(0, 0, 50, 50))
	m.Draw(img, m.Fit(50, 50, 5), Layer{Marked: []Marked{{1, Cursor}, {2, Suspect}, {9, Edited}}}, Light())
	if _, err := NewMap([]float32{1, 2, 3}); err == nil {
		t.Error("3 coordinates accepted")
	}
	empty, err := NewMap(nil)
	if err != nil || empty.Lasso([]float32{0, 0, 1, 0, 1, 1}) != nil {
		t.Errorf("an empty map: %v", err)
	}
	empty.Draw(img, empty.Fit(50, 50, 5), Layer{}, Dark())
}

// TestViewRoundTrip checks ToMap against ToPixel, that Zoom keeps the point under the pointer,
// and that Fit shows every point.
func TestViewRoundTrip(t *testing.T) {
	xy, _ := clusters(3, 500, 4)
	m, err := NewMap(xy)
	if err != nil {
		t.Fatal(err)
	}
	v := m.Fit(640, 480, 10)
	for i := range m.Len() {
		px, py := v.ToPixel(m.At(i))
		if px < 10-1e-3 || py < 10-1e-3 || px > 630+1e-3 || py > 470+1e-3 {
			t.Fatalf("point %d at pixel (%v, %v): outside the fitted view", i, px, py)
		}
		x, y := v.ToMap(px, py)
		if math.Abs(float64(x-xy[2*i])) > 1e-4 || math.Abs(float64(y-xy[2*i+1])) > 1e-4 {
			t.Fatalf("point %d: (%v, %v) back as (%v, %v)", i, xy[2*i], xy[2*i+1], x, y)
		}
	}
	x, y := v.ToMap(100, 200)
	z := v.Zoom(100, 200, 3.5)
	if px, py := z.ToPixel(x, y); math.Abs(px-100) > 1e-3 || math.Abs(py-200) > 1e-3 || z.Scale != 3.5*v.Scale {
		t.Errorf("zoom moved the point under the pointer to (%v, %v)", px, py)
	}
	p := v.Pan(30, -20)
	if px, py := p.ToPixel(x, y); math.Abs(px-130) > 1e-3 || math.Abs(py-180) > 1e-3 {
		t.Errorf("pan by (30, −20): the point went from (100, 200) to (%v, %v)", px, py)
	}
}

// TestDrawPlacesPoints draws three points and checks their pixels' colours, the background,
// a point outside the view left out, and the marks drawn around a point.
func TestDrawPlacesPoints(t *testing.T) {
	m, err := NewMap([]float32{0, 0, 10, 0, 0, 10, 100, 100})
	if err != nil {
		t.Fatal(err)
	}
	pal := []color.RGBA{{255, 0, 0, 255}, {0, 0, 255, 255}}
	v := View{CX: 5, CY: 5, Scale: 8, W: 120, H: 120} // (0, 0) → pixel (20, 20); (10, 0) → (100, 20)
	img := image.NewRGBA(image.Rect(0, 0, 120, 120))
	s := Light()
	m.Draw(img, v, Layer{Colour: []uint16{0, 1, NoColour, 0}, Palette: pal}, s)
	at := func(x, y int) color.RGBA { return img.RGBAAt(x, y) }
	if at(20, 20) != pal[0] || at(21, 21) != pal[0] || at(100, 20) != pal[1] || at(20, 100) != s.Faint {
		t.Errorf("point pixels: %v %v %v %v", at(20, 20), at(21, 21), at(100, 20), at(20, 100))
	}
	if at(60, 60) != s.Background || at(23, 20) != s.Background {
		t.Errorf("background: %v, beside a point %v", at(60, 60), at(23, 20))
	}
	marked := Layer{Colour: []uint16{0, 1, 0, 0}, Palette: pal, Marked: []Marked{{0, Suspect | Selected}, {1, Outlier}, {2, Edited}}}
	m.Draw(img, v, marked, s)
	if at(20+5, 20) != s.Mark || at(20+3, 20) != s.Select || at(20, 20) != pal[0] {
		t.Errorf("suspect ring %v, halo %v, point %v", at(25, 20), at(23, 20), at(20, 20))
	}
	if at(100+5, 20+5) != s.Alert || at(20+4, 100+4) != s.Mark {
		t.Errorf("outlier cross %v, edited square %v", at(105, 25), at(24, 104))
	}
	// A sub-image: pixels land at the same map positions relative to its corner.
	big := image.NewRGBA(image.Rect(0, 0, 300, 300))
	sub := big.SubImage(image.Rect(50, 60, 170, 180)).(*image.RGBA)
	m.Draw(sub, v, Layer{Colour: []uint16{0, 1, 0, 0}, Palette: pal}, s)
	if big.RGBAAt(70, 80) != pal[0] || big.RGBAAt(150, 80) != pal[1] || big.RGBAAt(20, 20) != (color.RGBA{}) {
		t.Errorf("sub-image: %v %v, outside %v", big.RGBAAt(70, 80), big.RGBAAt(150, 80), big.RGBAAt(20, 20))
	}
}

// TestDrawMarksOverAFrame checks that a frame drawn without marks, with DrawMarks over it, is
// the frame Draw makes with them (how the window redraws a moved cursor over a kept frame).
func TestDrawMarksOverAFrame(t *testing.T) {
	xy, col := clusters(9, 3000, 5)
	m, err := NewMap(xy)
	if err != nil {
		t.Fatal(err)
	}
	v := m.Fit(300, 200, 8)
	s := Dark()
	marked := []Marked{{3, Selected}, {10, Suspect | Edited}, {11, Outlier}, {12, Cursor}}
	full := image.NewRGBA(image.Rect(0, 0, 300, 200))
	m.Draw(full, v, Layer{Colour: col, Palette: Palette(5), Marked: marked}, s)
	two := image.NewRGBA(image.Rect(0, 0, 300, 200))
	m.Draw(two, v, Layer{Colour: col, Palette: Palette(5)}, s)
	if slices.Equal(two.Pix, full.Pix) {
		t.Fatal("the marks changed no pixel")
	}
	m.DrawMarks(two, v, Layer{Colour: col, Palette: Palette(5), Marked: marked}, s)
	if !slices.Equal(two.Pix, full.Pix) {
		t.Error("the marks drawn over a frame differ from the frame drawn with them")
	}
}
