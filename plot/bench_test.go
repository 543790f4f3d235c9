package plot

import (
	"image"
	"math"
	"testing"
)

func benchFrame(b *testing.B, n int, zoom float64) {
	xy, col := clusters(5, n, 10)
	m, err := NewMap(xy)
	if err != nil {
		b.Fatal(err)
	}
	marked := make([]Marked, 0, 1000)
	for i := 0; i < n; i += n / 1000 {
		marked = append(marked, Marked{i, Suspect})
	}
	marked = append(marked, Marked{n / 2, Cursor | Selected})
	l := Layer{Colour: col, Palette: Palette(10), Marked: marked}
	img := image.NewRGBA(image.Rect(0, 0, 1000, 800))
	v := m.Fit(1000, 800, 10)
	v = v.Zoom(500, 400, zoom)
	s := Light()
	for b.Loop() {
		m.Draw(img, v, l, s)
	}
}

// BenchmarkFrame70k draws one 1000×800 frame of 70,000 points, all in view, with 1,000
// suspects marked and the cursor: the map view's cost per pan or zoom step.
func BenchmarkFrame70k(b *testing.B) { benchFrame(b, 70000, 1) }

// BenchmarkFrame70kZoomed is the same frame zoomed 4× into the middle: only the grid cells in
// view are visited.
func BenchmarkFrame70kZoomed(b *testing.B) { benchFrame(b, 70000, 4) }

// BenchmarkFrame1M draws 1,000,000 points, all in view.
func BenchmarkFrame1M(b *testing.B) { benchFrame(b, 1000000, 1) }

// BenchmarkNewMap70k indexes 70,000 points (once per layout).
func BenchmarkNewMap70k(b *testing.B) {
	xy, _ := clusters(6, 70000, 10)
	for b.Loop() {
		if _, err := NewMap(xy); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLasso70k selects with a free-hand-like loop of 400 vertices (a wobbly circle)
// around about half of 70,000 points: the cost of refreshing a lasso's selection on a pointer
// move.
func BenchmarkLasso70k(b *testing.B) {
	xy, _ := clusters(7, 70000, 10)
	m, err := NewMap(xy)
	if err != nil {
		b.Fatal(err)
	}
	poly := make([]float32, 0, 800)
	for k := range 400 {
		a := 2 * math.Pi * float64(k) / 400
		r := 16 + 3*math.Sin(5*a)
		poly = append(poly, float32(6+r*math.Cos(a)), float32(4+r*math.Sin(a)))
	}
	n := 0
	for b.Loop() {
		n = len(m.Lasso(poly))
	}
	b.ReportMetric(float64(n), "selected")
}
