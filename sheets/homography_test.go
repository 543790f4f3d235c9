package sheets

import (
	"math"
	"testing"
)

func TestHomography(t *testing.T) {
	from := []Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	to := []Point{{102.5, 40}, {1830, 95}, {1790, 1522}, {140, 1480.25}}
	h, err := HomographyFrom(from, to)
	if err != nil {
		t.Fatal(err)
	}
	inv := h.Inverse()
	for k := range from {
		if p := h.Apply(from[k]); math.Hypot(p.X-to[k].X, p.Y-to[k].Y) > 1e-6 {
			t.Errorf("%v ↦ %v, want %v", from[k], p, to[k])
		}
		if q := inv.Apply(to[k]); math.Hypot(q.X-from[k].X, q.Y-from[k].Y) > 1e-9 {
			t.Errorf("inverse %v ↦ %v, want %v", to[k], q, from[k])
		}
	}
	// A line maps to a line: the middle of the square to where the diagonals of the image meet.
	mid := h.Apply(Point{0.5, 0.5})
	d1, _ := intersect(line{to[0], unit(to[0], to[2])}, line{to[1], unit(to[1], to[3])})
	if math.Hypot(mid.X-d1.X, mid.Y-d1.Y) > 1e-6 {
		t.Errorf("centre %v, diagonals meet at %v", mid, d1)
	}
	if _, err := HomographyFrom(from, []Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}}); err == nil {
		t.Error("collinear points gave a homography")
	}
	if _, err := HomographyFrom(from[:3], to[:3]); err == nil {
		t.Error("three points gave a homography")
	}
}

func unit(a, b Point) Point {
	d := math.Hypot(b.X-a.X, b.Y-a.Y)
	return Point{(b.X - a.X) / d, (b.Y - a.Y) / d}
}
