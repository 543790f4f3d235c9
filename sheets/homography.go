package sheets

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Point is a position in an image, in pixels, with pixel (x, y) covering [x, x+1)×[y, y+1): its
// centre is (x + 0.5, y + 0.5).
type Point struct{ X, Y float64 }

// Homography is a plane projective transformation (a 3×3 matrix, row-major, h[8] = 1 after
// solving): it maps (u, v) to ((h0·u + h1·v + h2)/w, (h3·u + h4·v + h5)/w), w = h6·u + h7·v + h8.
// A flat page seen by a camera is such a map from the page's coordinates to the photo's
// (Hartley & Zisserman, Multiple View Geometry, ch. 2); a scan is the affine special case.
type Homography [9]float64

// errDegenerate: the points given to HomographyFrom are collinear or repeated.
var errDegenerate = errors.New("the points do not determine a homography (three on one line, or repeated)")

// HomographyFrom returns the homography mapping each from[k] to to[k] (at least 4 pairs, no
// three of the from points collinear), by the direct linear transformation with h8 = 1, solved
// by gonum's least squares (exact for 4 pairs). Errors: fewer than 4 pairs, or points that
// determine no homography.
func HomographyFrom(from, to []Point) (Homography, error) {
	n := len(from)
	if n < 4 || len(to) != n {
		return Homography{}, errDegenerate
	}
	// Normalise both point sets (centroid at 0, mean distance √2), as Hartley recommends, so
	// the system is well conditioned whatever the image size.
	nf, nt := normaliser(from), normaliser(to)
	a := mat.NewDense(2*n, 8, nil)
	b := mat.NewVecDense(2*n, nil)
	for k := range n {
		u, v := nf.apply(from[k])
		x, y := nt.apply(to[k])
		a.SetRow(2*k, []float64{u, v, 1, 0, 0, 0, -u * x, -v * x})
		b.SetVec(2*k, x)
		a.SetRow(2*k+1, []float64{0, 0, 0, u, v, 1, -u * y, -v * y})
		b.SetVec(2*k+1, y)
	}
	var h mat.VecDense
	if err := h.SolveVec(a, b); err != nil {
		return Homography{}, errDegenerate
	}
	var m Homography
	for k := range 8 {
		m[k] = h.AtVec(k)
	}
	m[8] = 1
	// Undo the normalisations: H = T_to⁻¹ · M · T_from.
	out := mul(nt.inverse(), mul(m, nf.matrix()))
	if out[8] == 0 || math.IsNaN(out[8]) {
		return Homography{}, errDegenerate
	}
	for k := range out {
		out[k] /= out[8]
	}
	for k := range n {
		if p := out.Apply(from[k]); math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
			return Homography{}, errDegenerate
		}
	}
	return out, nil
}

// Apply maps p. A point on the line that maps to infinity gives ±Inf or NaN.
func (h Homography) Apply(p Point) Point {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return Point{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// Inverse returns the inverse map (the adjugate, scaled so its last entry is 1 where it can be).
func (h Homography) Inverse() Homography {
	a, b, c, d, e, f, g, k, l := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	inv := Homography{
		e*l - f*k, c*k - b*l, b*f - c*e,
		f*g - d*l, a*l - c*g, c*d - a*f,
		d*k - e*g, b*g - a*k, a*e - b*d,
	}
	if inv[8] != 0 {
		for i := range inv {
			inv[i] /= inv[8]
		}
	}
	return inv
}

// mul returns the product a·b of two 3×3 matrices.
func mul(a, b Homography) Homography {
	var out Homography
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				out[3*i+j] += a[3*i+k] * b[3*k+j]
			}
		}
	}
	return out
}

// similarity is a scaling by s about a centre (cx, cy): p ↦ s·(p − c).
type similarity struct{ s, cx, cy float64 }

func normaliser(pts []Point) similarity {
	var cx, cy float64
	for _, p := range pts {
		cx += p.X
		cy += p.Y
	}
	cx /= float64(len(pts))
	cy /= float64(len(pts))
	var d float64
	for _, p := range pts {
		d += math.Hypot(p.X-cx, p.Y-cy)
	}
	d /= float64(len(pts))
	s := 1.0
	if d > 0 {
		s = math.Sqrt2 / d
	}
	return similarity{s, cx, cy}
}

func (t similarity) apply(p Point) (float64, float64) { return t.s * (p.X - t.cx), t.s * (p.Y - t.cy) }

func (t similarity) matrix() Homography {
	return Homography{t.s, 0, -t.s * t.cx, 0, t.s, -t.s * t.cy, 0, 0, 1}
}

func (t similarity) inverse() Homography {
	return Homography{1 / t.s, 0, t.cx, 0, 1 / t.s, t.cy, 0, 0, 1}
}
