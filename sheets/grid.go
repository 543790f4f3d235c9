package sheets

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// grid is a sheet's grid as found on the working image: the outline through the centres of its
// outer ruled lines, the map from the unit square to it, every ruled line's place, and how the
// page was turned.
type grid struct {
	quad [4]Point   // TL, TR, BR, BL as the image shows them (working pixels)
	h    Homography // the unit square (image orientation) → the working image
	// The ruled lines, image orientation, as fractions of the outline (0 … 1, ascending):
	// vertical lines along x, horizontal lines along y.
	xs, ys []float64
	// turn is how many quarter turns clockwise the page lies from upright: 0 upright, 2
	// upside down, 1 its top at the image's right.
	turn int
	// us and vs are the ruled lines of the upright page, as fractions: cols+1 and rows+1.
	us, vs []float64
}

// toWork maps a point of the upright grid (s across, t down, each 0 … 1 over the grid) to
// working-image pixels.
func (g *grid) toWork(s, t float64) Point {
	var x, y float64
	switch g.turn {
	case 0:
		x, y = s, t
	case 1:
		x, y = 1-t, s
	case 2:
		x, y = 1-s, 1-t
	default:
		x, y = t, 1-s
	}
	return g.h.Apply(Point{x, y})
}

// uprightLines returns the upright grid's column and row lines for a turn, from the image's
// vertical (xs) and horizontal (ys) lines.
func uprightLines(turn int, xs, ys []float64) (us, vs []float64) {
	flip := func(a []float64) []float64 {
		out := make([]float64, len(a))
		for k, v := range a {
			out[len(a)-1-k] = 1 - v
		}
		return out
	}
	switch turn {
	case 0:
		return xs, ys
	case 1:
		return ys, flip(xs)
	case 2:
		return flip(xs), flip(ys)
	default:
		return flip(ys), xs
	}
}

// maxCandidates bounds how many large ruled shapes of a page are tried as its grid.
const maxCandidates = 6

// findGrid finds the grid of l's shape on p: among the page's large connected ink shapes that
// are mostly empty inside (ruled frames, not blots), the largest whose outline, once refined to
// its four ruled sides, holds a grid of ruled lines of l.Rows × l.Cols boxes (or l.Cols × l.Rows:
// a page turned a quarter). Errors: a *GridError saying why no shape was the grid, the reason
// of the largest shape tried when one was tried.
func findGrid(p *page, l *Layout) (*grid, error) {
	minDim := min(p.w, p.h)
	if minDim < 64 {
		return nil, &GridError{Reason: fmt.Sprintf("the image is %d×%d pixels, too small to hold a grid", p.full.Rect.Dx(), p.full.Rect.Dy())}
	}
	comps, _ := components(p.bin, p.w, p.h)
	var cands []component
	for _, c := range comps {
		if c.n < minDim/5 {
			continue
		}
		bw, bh := c.maxX-c.minX+1, c.maxY-c.minY+1
		if bw*10 < minDim || bh*10 < minDim {
			continue
		}
		if float64(c.n) > 0.5*float64(bw*bh) {
			continue // a blot, a dark table, not ruled lines
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil, &GridError{Reason: "no ruled frame: nothing on the page is a large outline of lines"}
	}
	sort.Slice(cands, func(a, b int) bool { return cands[a].n > cands[b].n })
	var best *GridError
	for k, c := range cands {
		if k == maxCandidates {
			break
		}
		g, err := tryGrid(p, c, l)
		if err == nil {
			return g, nil
		}
		if best == nil || err.stage > best.stage {
			best = err
		}
	}
	return nil, best
}

// tryGrid reads the component c as the grid.
func tryGrid(p *page, c component, l *Layout) (*grid, *GridError) {
	px := func(q [2]int) Point { return Point{float64(q[0]) + 0.5, float64(q[1]) + 0.5} }
	quad := [4]Point{px(c.pMinSum), px(c.pMaxDiff), px(c.pMaxSum), px(c.pMinDiff)}
	side := (dist(quad[0], quad[1]) + dist(quad[1], quad[2]) + dist(quad[2], quad[3]) + dist(quad[3], quad[0])) / 4
	box := side / float64(max(l.Rows, l.Cols))
	for range 2 {
		q, err := refineQuad(p, quad, 0.3*box)
		if err != nil {
			return nil, err
		}
		quad = q
	}
	h, err := HomographyFrom([]Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, quad[:])
	if err != nil {
		return nil, &GridError{Reason: "the ruled frame's corners make no quadrilateral"}
	}
	g := &grid{quad: quad, h: h}
	if err := g.lines(p, l); err != nil {
		return nil, err
	}
	return g, nil
}

func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// line is a straight line through c in the direction e (a unit vector).
type line struct{ c, e Point }

// refineQuad moves each side of quad onto the centre of the ruled line nearest it, within d
// working pixels: at points along the side, the ink across it is searched for its darkest run
// (the line's width, not a run reaching the end of the search, which is a line meeting it),
// and a line is fitted to those centres, leaving out the points far from the rest (a stroke
// or a printed word beside the frame). The corners are where the fitted sides meet.
func refineQuad(p *page, quad [4]Point, d float64) ([4]Point, *GridError) {
	d = max(d, 4)
	var sides [4]line
	for k := range 4 {
		a, b := quad[k], quad[(k+1)%4]
		L := dist(a, b)
		if L < 8 {
			return quad, &GridError{Reason: "the ruled frame is too small"}
		}
		e := Point{(b.X - a.X) / L, (b.Y - a.Y) / L}
		n := Point{-e.Y, e.X} // inward, for corners in clockwise order
		const samples = 120
		var pts []Point
		prof := make([]float64, 0, int(4*d)+2)
		for i := 1; i < samples; i++ {
			t := 0.03 + 0.94*float64(i)/samples
			o := Point{a.X + t*(b.X-a.X), a.Y + t*(b.Y-a.Y)}
			prof = prof[:0]
			for s := -d; s <= d; s += 0.5 {
				prof = append(prof, p.inkAt(o.X+s*n.X, o.Y+s*n.Y))
			}
			if c, ok := runCentre(prof); ok {
				s := -d + c*0.5
				pts = append(pts, Point{o.X + s*n.X, o.Y + s*n.Y})
			}
		}
		ln, ok := fitLine(pts)
		if !ok {
			return quad, &GridError{Reason: "the ruled frame's sides are not straight lines"}
		}
		sides[k] = ln
	}
	var out [4]Point
	for k := range 4 {
		pt, ok := intersect(sides[(k+3)%4], sides[k])
		if !ok {
			return quad, &GridError{Reason: "the ruled frame's sides do not meet"}
		}
		out[k] = pt
	}
	return out, nil
}

// minLineInk is the least ink (0–255, relative to the paper) a ruled line shows at its centre.
const minLineInk = 40

// runCentre finds the darkest run of prof: the contiguous samples around its maximum at least
// half of it, and returns the run's ink-weighted centre (in sample units); false when the
// maximum is too faint or the run reaches either end (the search lies along a line).
func runCentre(prof []float64) (float64, bool) {
	k := 0
	for i, v := range prof {
		if v > prof[k] {
			k = i
		}
	}
	peak := prof[k]
	if peak < minLineInk {
		return 0, false
	}
	lo, hi := k, k
	for lo > 0 && prof[lo-1] >= peak/2 {
		lo--
	}
	for hi < len(prof)-1 && prof[hi+1] >= peak/2 {
		hi++
	}
	if lo == 0 || hi == len(prof)-1 {
		return 0, false
	}
	var s, sw float64
	for i := lo; i <= hi; i++ {
		s += float64(i) * prof[i]
		sw += prof[i]
	}
	return s / sw, true
}

// fitLine fits a line to pts by total least squares, three times leaving out the points
// further from it than 2.5 robust standard deviations (at least 1 pixel); false with fewer
// than 8 points left.
func fitLine(pts []Point) (line, bool) {
	var ln line
	for range 4 {
		if len(pts) < 8 {
			return ln, false
		}
		var cx, cy float64
		for _, q := range pts {
			cx += q.X
			cy += q.Y
		}
		cx /= float64(len(pts))
		cy /= float64(len(pts))
		var sxx, sxy, syy float64
		for _, q := range pts {
			dx, dy := q.X-cx, q.Y-cy
			sxx += dx * dx
			sxy += dx * dy
			syy += dy * dy
		}
		// The principal axis of the scatter.
		theta := 0.5 * math.Atan2(2*sxy, sxx-syy)
		ln = line{Point{cx, cy}, Point{math.Cos(theta), math.Sin(theta)}}
		res := make([]float64, len(pts))
		for i, q := range pts {
			res[i] = math.Abs(-(q.X-cx)*ln.e.Y + (q.Y-cy)*ln.e.X)
		}
		sorted := slices.Clone(res)
		slices.Sort(sorted)
		limit := max(1, 2.5*1.4826*sorted[len(sorted)/2])
		kept := pts[:0:0]
		for i, q := range pts {
			if res[i] <= limit {
				kept = append(kept, q)
			}
		}
		if len(kept) == len(pts) {
			break
		}
		pts = kept
	}
	return ln, true
}

// intersect returns where two lines meet; false when they are (nearly) parallel.
func intersect(a, b line) (Point, bool) {
	den := a.e.X*b.e.Y - a.e.Y*b.e.X
	if math.Abs(den) < 0.2 { // closer than about 11.5° to parallel: not two sides of a frame
		return Point{}, false
	}
	dx, dy := b.c.X-a.c.X, b.c.Y-a.c.Y
	t := (dx*b.e.Y - dy*b.e.X) / den
	return Point{a.c.X + t*a.e.X, a.c.Y + t*a.e.Y}, true
}

// lineCoverage is the share of a grid's width (or height) a row (column) of the rectified grid
// must be ink over, in runs longer than a box, to be a ruled line.
const lineCoverage = 0.5

// lines finds the grid's ruled lines: the outline is rectified (each pixel of a canvas the
// outline's size sampled through g.h, ink at half the page's threshold or more), and a row of
// the canvas lies on a ruled line when runs of ink longer than any box cover at least half of
// it (a row of digits' bars never
// does: each stays inside its box); columns likewise. The lines counted must match the layout,
// as it is or turned a quarter; which way up the page is comes from its heading (turnOf).
// Errors: *GridError saying what was found instead.
func (g *grid) lines(p *page, l *Layout) *GridError {
	q := g.quad
	wq := (dist(q[0], q[1]) + dist(q[3], q[2])) / 2
	hq := (dist(q[0], q[3]) + dist(q[1], q[2])) / 2
	if wq < 16 || hq < 16 {
		return &GridError{Reason: "the ruled frame is too small"}
	}
	m := int(0.02*max(wq, hq)) + 2
	cw, ch := int(wq)+2*m, int(hq)+2*m
	canvas := make([]bool, cw*ch)
	// Lines are taken at half the page's ink threshold: a thin line blurred across (a camera
	// moving) is fainter than a stroke, and only runs longer than a box count.
	lineLevel := max(minLineInk/2, p.level/2)
	for i := range ch {
		y := (float64(i) + 0.5 - float64(m)) / hq
		for j := range cw {
			x := (float64(j) + 0.5 - float64(m)) / wq
			pt := g.h.Apply(Point{x, y})
			canvas[i*cw+j] = p.inkNear(pt.X, pt.Y) >= lineLevel
		}
	}
	lmin := func(length float64) int {
		return int(min(0.6*length, 1.3*length/float64(min(l.Rows, l.Cols))))
	}
	rowsCov := coverage(canvas, cw, ch, false, lmin(wq))
	colsCov := coverage(canvas, cw, ch, true, lmin(hq))
	ys := peaks(rowsCov, m, hq)
	xs := peaks(colsCov, m, wq)
	nr, nc := len(ys)-1, len(xs)-1
	if nr < 1 || nc < 1 || ys[0] > 0.1/float64(max(1, nr)) || ys[nr] < 1-0.1/float64(max(1, nr)) ||
		xs[0] > 0.1/float64(max(1, nc)) || xs[nc] < 1-0.1/float64(max(1, nc)) {
		return &GridError{Reason: "the largest ruled frame holds no grid of ruled lines", stage: 1}
	}
	if !regular(xs) || !regular(ys) {
		return &GridError{stage: 2, Reason: fmt.Sprintf("the ruled frame's lines are unevenly spaced (%d×%d boxes, some of them less than half the size of the others)", nr, nc)}
	}
	var turns []int
	if nr == l.Rows && nc == l.Cols {
		turns = append(turns, 0, 2)
	}
	if nr == l.Cols && nc == l.Rows {
		turns = append(turns, 1, 3)
	}
	if len(turns) == 0 {
		return &GridError{stage: 2, Reason: fmt.Sprintf("the grid found has %d rows × %d columns of boxes; the layout has %d × %d", nr, nc, l.Rows, l.Cols)}
	}
	g.xs, g.ys = xs, ys
	turn, gerr := g.turnOf(p, turns)
	if gerr != nil {
		return gerr
	}
	g.turn = turn
	g.us, g.vs = uprightLines(turn, xs, ys)
	return nil
}

// coverage returns, for each row of canvas (cw×ch; each column when cols), the length of its
// ink runs of at least minRun pixels, summed, as a share of the canvas's interior (its length
// less its margins). A row is taken together with its two neighbours (their union), so a
// ruled line a little off the rectified row still makes one run.
func coverage(canvas []bool, cw, ch int, cols bool, minRun int) []float64 {
	n, length := ch, cw
	if cols {
		n, length = cw, ch
	}
	at := func(i, j int) bool { // line i, position j
		if cols {
			return canvas[j*cw+i]
		}
		return canvas[i*cw+j]
	}
	out := make([]float64, n)
	for i := range n {
		run, sum := 0, 0
		for j := range length {
			ink := false
			for di := -1; di <= 1; di++ {
				if ii := i + di; ii >= 0 && ii < n && at(ii, j) {
					ink = true
					break
				}
			}
			if ink {
				run++
				continue
			}
			if run >= minRun {
				sum += run
			}
			run = 0
		}
		if run >= minRun {
			sum += run
		}
		out[i] = float64(sum) / float64(length)
	}
	return out
}

// peaks groups the consecutive rows whose coverage is at least lineCoverage into lines and
// returns each line's coverage-weighted centre as a fraction of the grid (the canvas has margin
// m before the grid, which is size pixels long).
func peaks(cov []float64, m int, size float64) []float64 {
	var out []float64
	for i := 0; i < len(cov); {
		if cov[i] < lineCoverage {
			i++
			continue
		}
		var s, sw float64
		for ; i < len(cov) && cov[i] >= lineCoverage; i++ {
			s += (float64(i) + 0.5) * cov[i]
			sw += cov[i]
		}
		out = append(out, (s/sw-float64(m))/size)
	}
	return out
}

// regular reports whether no gap between consecutive lines is under 0.4 of their mean gap.
func regular(ls []float64) bool {
	if len(ls) < 2 {
		return false
	}
	mean := (ls[len(ls)-1] - ls[0]) / float64(len(ls)-1)
	for k := 1; k < len(ls); k++ {
		if ls[k]-ls[k-1] < 0.4*mean {
			return false
		}
	}
	return true
}

// turnOf chooses among turns (quarter turns clockwise the grid's shape allows) the one whose
// top is the side of the grid with the most ink beside it: a sheet's heading (title, name
// field) is above its grid. When the ink beside the grid does not tell (less than 1.5 times
// the next side's, or almost none), an upright or upside-down page is taken as upright, and a
// page turned a quarter is refused.
func (g *grid) turnOf(p *page, turns []int) (int, *GridError) {
	if len(turns) == 1 {
		return turns[0], nil
	}
	nr, nc := float64(len(g.ys)-1), float64(len(g.xs)-1)
	by, bx := 1.5/nr, 1.5/nc   // the bands' depth: one and a half boxes
	gy, gx := 0.15/nr, 0.15/nc // left out next to the grid: its outer line
	// Bands beside the grid's sides in the image: above, right, below, left. The top of a
	// page turned k quarter turns clockwise is beside side k.
	bands := [4][4]float64{
		{0, 1, -gy - by, -gy},
		{1 + gx, 1 + gx + bx, 0, 1},
		{0, 1, 1 + gy, 1 + gy + by},
		{-gx - bx, -gx, 0, 1},
	}
	var dens [4]float64
	for k, b := range bands {
		dens[k] = g.density(p, b)
	}
	best, second := -1, -1
	for _, t := range turns {
		switch {
		case best < 0 || dens[t] > dens[best]:
			best, second = t, best
		case second < 0 || dens[t] > dens[second]:
			second = t
		}
	}
	if dens[best] >= 0.01 && dens[best] >= 1.5*dens[second] {
		return best, nil
	}
	if slices.Contains(turns, 0) {
		return 0, nil
	}
	return 0, &GridError{stage: 3, Reason: "the grid is turned a quarter turn and nothing beside it (a heading above the grid) tells which way up the page is"}
}

// density returns the share of ink among the working pixels of the band x0 … x1, y0 … y1 of
// the outline's unit square (outside it), sampled on a 64×16 lattice; points outside the image
// are not counted (0 when fewer than a third are inside).
func (g *grid) density(p *page, b [4]float64) float64 {
	const nx, ny = 64, 16
	in, ink := 0, 0
	for i := range ny {
		for j := range nx {
			x := b[0] + (b[1]-b[0])*(float64(j)+0.5)/nx
			y := b[2] + (b[3]-b[2])*(float64(i)+0.5)/ny
			if b[1]-b[0] < b[3]-b[2] { // a band beside a vertical side: long along y
				x = b[0] + (b[1]-b[0])*(float64(i)+0.5)/ny
				y = b[2] + (b[3]-b[2])*(float64(j)+0.5)/nx
			}
			pt := g.h.Apply(Point{x, y})
			if pt.X < 0 || pt.Y < 0 || pt.X >= float64(p.w) || pt.Y >= float64(p.h) {
				continue
			}
			in++
			if p.binAt(pt.X, pt.Y) {
				ink++
			}
		}
	}
	if in*3 < nx*ny {
		return 0
	}
	return float64(ink) / float64(in)
}
