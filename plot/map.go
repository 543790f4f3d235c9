package plot

import (
	"errors"
	"math"
	"slices"
)

// Map is a 2-D map of N points with a uniform grid over their extent (about four points per
// cell), so a frame, a lasso or a pick visits only the cells it covers. Points with a NaN or
// infinite coordinate are in no cell: never drawn, selected or picked. Building costs O(N)
// time and about 16 bytes per point beyond the coordinates; a Map is only read afterwards, so
// it may be used from several goroutines.
type Map struct {
	xy                     []float32
	n                      int // indexed (finite) points
	minX, minY, maxX, maxY float32
	gw, gh                 int       // grid columns and rows
	cw, ch                 float32   // cell width and height in map units
	start                  []int32   // gw·gh+1: cell c holds order[start[c]:start[c+1]]
	order                  []int32   // point indices by cell, ascending within a cell
	sorted                 []float32 // the coordinates in the order of order (frames read them in sequence)
}

// NewMap indexes the points of xy, N×2 (x, y) as embed.Map returns them; xy is kept, not
// copied, and must not change. Errors: an odd number of coordinates, or more than 2³¹−1
// points.
func NewMap(xy []float32) (*Map, error) {
	if len(xy)%2 != 0 || len(xy)/2 > math.MaxInt32 {
		return nil, errors.New("plot: a map needs two coordinates per point")
	}
	m := &Map{xy: xy, minX: float32(math.Inf(1)), minY: float32(math.Inf(1)), maxX: float32(math.Inf(-1)), maxY: float32(math.Inf(-1))}
	total := len(xy) / 2
	for i := range total {
		x, y := xy[2*i], xy[2*i+1]
		if !finite(x) || !finite(y) {
			continue
		}
		m.n++
		m.minX, m.maxX = min(m.minX, x), max(m.maxX, x)
		m.minY, m.maxY = min(m.minY, y), max(m.maxY, y)
	}
	if m.n == 0 {
		m.minX, m.minY, m.maxX, m.maxY = 0, 0, 0, 0
	}
	w, h := float64(m.maxX-m.minX), float64(m.maxY-m.minY)
	cells := max(1, float64(m.n)/4)
	switch {
	case w > 0 && h > 0:
		m.gw = int(math.Ceil(math.Sqrt(cells * w / h)))
		m.gh = int(math.Ceil(cells / float64(m.gw)))
	case w > 0:
		m.gw, m.gh = int(math.Ceil(cells)), 1
	case h > 0:
		m.gw, m.gh = 1, int(math.Ceil(cells))
	default:
		m.gw, m.gh = 1, 1
	}
	m.gw, m.gh = max(1, min(m.gw, 1<<14)), max(1, min(m.gh, 1<<14))
	m.cw, m.ch = max(float32(w)/float32(m.gw), 1e-30), max(float32(h)/float32(m.gh), 1e-30)
	count := make([]int32, m.gw*m.gh+1)
	cellOf := make([]int32, total)
	for i := range total {
		x, y := xy[2*i], xy[2*i+1]
		if !finite(x) || !finite(y) {
			cellOf[i] = -1
			continue
		}
		c := m.row(y)*m.gw + m.col(x)
		cellOf[i] = int32(c)
		count[c+1]++
	}
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	m.start = slices.Clone(count)
	m.order = make([]int32, m.n)
	for i, c := range cellOf {
		if c >= 0 {
			m.order[count[c]] = int32(i)
			count[c]++
		}
	}
	m.sorted = make([]float32, 2*m.n)
	for k, i := range m.order {
		m.sorted[2*k], m.sorted[2*k+1] = xy[2*i], xy[2*i+1]
	}
	return m, nil
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

// Len returns the number of points, N (indexed or not).
func (m *Map) Len() int { return len(m.xy) / 2 }

// At returns point i's map coordinates.
func (m *Map) At(i int) (x, y float32) { return m.xy[2*i], m.xy[2*i+1] }

// col and row return the grid column and row of a map coordinate, clamped to the grid.
func (m *Map) col(x float32) int {
	return max(0, min(m.gw-1, int((x-m.minX)/m.cw)))
}

func (m *Map) row(y float32) int {
	return max(0, min(m.gh-1, int((y-m.minY)/m.ch)))
}

// cellRange returns the grid cells (inclusive) that a map rectangle overlaps; ok is false when
// it misses the grid.
func (m *Map) cellRange(x0, y0, x1, y1 float32) (c0, r0, c1, r1 int, ok bool) {
	if m.n == 0 || x1 < m.minX || y1 < m.minY || x0 > m.maxX || y0 > m.maxY || !(x0 <= x1) || !(y0 <= y1) {
		return 0, 0, 0, 0, false
	}
	return m.col(x0), m.row(y0), m.col(x1), m.row(y1), true
}

// Nearest returns the point nearest to map point (x, y) within distance r (map units; the
// window passes a few pixels divided by View.Scale), lower index on ties; false when none is.
// O(points in the cells the circle overlaps).
func (m *Map) Nearest(x, y, r float32) (int, bool) {
	c0, r0, c1, r1, ok := m.cellRange(x-r, y-r, x+r, y+r)
	best, bestD := -1, r*r
	if !ok {
		return -1, false
	}
	for gy := r0; gy <= r1; gy++ {
		for gx := c0; gx <= c1; gx++ {
			c := gy*m.gw + gx
			k0 := int(m.start[c])
			for k, i := range m.order[k0:m.start[c+1]] {
				dx, dy := m.sorted[2*(k0+k)]-x, m.sorted[2*(k0+k)+1]-y
				if d := dx*dx + dy*dy; d < bestD || (d == bestD && (best < 0 || int(i) < best)) {
					best, bestD = int(i), d
				}
			}
		}
	}
	return best, best >= 0
}

// Lasso returns the points inside the polygon poly (map coordinates, x, y pairs; closed from
// the last vertex back to the first; even-odd rule where it crosses itself), ascending. A
// polygon of fewer than three vertices holds no point. Each grid row the polygon spans keeps
// the edges that cross it, so a point is tested against those edges only: O(V + points in the
// polygon's bounding box × edges per row) for V vertices; fast enough to run on every pointer
// move (see BenchmarkLasso).
func (m *Map) Lasso(poly []float32) []int {
	nv := len(poly) / 2
	if nv < 3 {
		return nil
	}
	bx0, by0 := float32(math.Inf(1)), float32(math.Inf(1))
	bx1, by1 := float32(math.Inf(-1)), float32(math.Inf(-1))
	for k := range nv {
		x, y := poly[2*k], poly[2*k+1]
		if !finite(x) || !finite(y) {
			return nil
		}
		bx0, bx1 = min(bx0, x), max(bx1, x)
		by0, by1 = min(by0, y), max(by1, y)
	}
	c0, r0, c1, r1, ok := m.cellRange(bx0, by0, bx1, by1)
	if !ok {
		return nil
	}
	// Edges by grid row: band r covers [minY + r·ch, minY + (r+1)·ch), the last row and the
	// first reaching past the grid.
	bands := make([][]int32, r1-r0+1)
	for k := range nv {
		ay, by := poly[2*k+1], poly[2*((k+1)%nv)+1]
		if ay == by {
			continue // a horizontal edge never crosses a ray
		}
		lo, hi := m.row(min(ay, by)), m.row(max(ay, by))
		for r := max(lo, r0); r <= min(hi, r1); r++ {
			bands[r-r0] = append(bands[r-r0], int32(k))
		}
	}
	var out []int
	for gy := r0; gy <= r1; gy++ {
		edges := bands[gy-r0]
		if len(edges) == 0 {
			continue
		}
		for gx := c0; gx <= c1; gx++ {
			c := gy*m.gw + gx
			k0 := int(m.start[c])
			for k, i := range m.order[k0:m.start[c+1]] {
				if inside(poly, edges, m.sorted[2*(k0+k)], m.sorted[2*(k0+k)+1]) {
					out = append(out, int(i))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// inside reports whether (px, py) is inside the polygon by the crossing number of a ray toward
// +x, over the listed edges (edge k runs from vertex k to vertex k+1, closing at the first).
func inside(poly []float32, edges []int32, px, py float32) bool {
	nv := len(poly) / 2
	in := false
	for _, k := range edges {
		ax, ay := poly[2*k], poly[2*k+1]
		j := (int(k) + 1) % nv
		bx, by := poly[2*j], poly[2*j+1]
		if (ay > py) != (by > py) && px < ax+(py-ay)*(bx-ax)/(by-ay) {
			in = !in
		}
	}
	return in
}
