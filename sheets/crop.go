package sheets

import (
	"image"
	"math"
	"slices"
)

// boxMargin is how far a box's crop reaches beyond each of its sides, as a share of the box:
// enough to hold the ruled line, the search for it, and what lies just past it.
const boxMargin = 0.12

// Sides of a box, in crop order.
const (
	top = iota
	right
	bottom
	left
)

// crop is one box cut out of the full-resolution page and rectified: each pixel sampled through
// the grid's map, as ink relative to the paper (0 paper … 255 black), with the box's ruled
// lines where the grid says they are (edge) and where the crop shows them (centre, width).
type crop struct {
	w, h   int
	ink    []uint8
	edge   [4]float64 // the expected line centres: y of top and bottom, x of right and left
	centre [4]float64 // the line centres found (edge when not found)
	width  [4]float64 // the lines' widths found, pixels; 0 when not found
	side   float64    // the box's mean side, in the crop's pixels
	sm     sampler    // how the crop's pixels were sampled, to sample its inside again finer
}

// cropBox cuts the box spanning s0 … s1 across and t0 … t1 down of the upright grid out of the
// page, at the page's full resolution (at least 8 pixels a side), or more coarsely when that
// would take more than maxReadPixels (readScale).
func cropBox(p *page, full func(u, v float64) Point, s0, s1, t0, t1 float64) *crop {
	sm, tm := (s0+s1)/2, (t0+t1)/2
	nw := dist(full(s0, tm), full(s1, tm))
	nh := dist(full(sm, t0), full(sm, t1))
	span := 1 + 2*boxMargin
	w, h := max(8, int(math.Ceil(nw*span))), max(8, int(math.Ceil(nh*span)))
	scale := readScale(float64(w), float64(h), 1)
	if scale < 1 {
		w, h = max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
	}
	c := &crop{w: w, h: h, side: (nw + nh) / 2 * scale}
	c.edge = [4]float64{
		boxMargin / span * float64(c.h), (1 + boxMargin) / span * float64(c.w),
		(1 + boxMargin) / span * float64(c.h), boxMargin / span * float64(c.w),
	}
	c.centre = c.edge
	// Crop pixel (x, y) ↦ the grid's (s, t).
	du, dv := (s1-s0)*span/float64(c.w), (t1-t0)*span/float64(c.h)
	c.sm = sampler{p: p, full: full, u0: s0 - (s1-s0)*boxMargin, v0: t0 - (t1-t0)*boxMargin, du: du, dv: dv, scale: min(1, scale)}
	c.ink = make([]uint8, c.w*c.h)
	c.sm.fill(c.ink, c.w, c.h, 0, 0, 1, false)
	return c
}

// sampler maps a crop's pixel coordinates (continuous, pixel centres at i + 0.5) to the page
// and samples the page's ink there.
type sampler struct {
	p              *page
	full           func(u, v float64) Point // the grid's (s, t) ↦ full-resolution page pixels
	u0, v0, du, dv float64                  // crop (x, y) ↦ (u0 + x·du, v0 + y·dv)
	scale          float64                  // the crop's pixels per page pixel: 1, or less (readScale)
	// sharp is the part of the page the box covers with the capture's blur undone (deblur),
	// its pixel (0, 0) the page's (sx, sy); nil before deblur and for a crop read coarser
	// than the page.
	sharp  *image.Gray
	sx, sy int
}

// lattice is the spacing, in output pixels, of the points at which fill maps exactly; between
// them the map is interpolated (a homography bends by far less than a pixel over 8 pixels of a
// box).
const lattice = 8

// node is a point of fill's lattice: where it falls on the page (pixel centres at integers)
// and 1/the paper's level there (0 where the paper is too dark to tell).
type node struct{ x, y, inv float32 }

// fill writes the ink of a w×h image whose pixel (j, i) is crop point (x0 + (j + ½)·step,
// y0 + (i + ½)·step): the page sampled bilinearly (by the Catmull–Rom cubic when cubic), as
// ink relative to the paper. A read finer than the page samples the page with the capture's
// blur undone (sharp, when deblur has made it and it holds every pixel the read
// interpolates); the crop itself, at the page's resolution, samples the page as captured. A
// read coarser than the page (step more than the crop's scale:
// a box too large for maxReadPixels at the page's resolution) samples the page averaged over
// squares as large as its pixels instead (areaAverage over the part it reads), never the
// page's own pixels every so many, which would alias.
func (sm *sampler) fill(dst []uint8, w, h int, x0, y0, step float64, cubic bool) {
	f := float64(sm.p.f)
	nx, ny := (w+lattice-1)/lattice+1, (h+lattice-1)/lattice+1
	nodes := make([]node, nx*ny)
	for b := range ny {
		for a := range nx {
			cx := x0 + (float64(a*lattice)+0.5)*step
			cy := y0 + (float64(b*lattice)+0.5)*step
			q := sm.full(sm.u0+cx*sm.du, sm.v0+cy*sm.dv)
			paper := sm.p.paperAt(q.X/f, q.Y/f)
			inv := float32(0)
			if paper >= minPaper {
				inv = float32(1 / paper)
			}
			nodes[b*nx+a] = node{float32(q.X - 0.5), float32(q.Y - 0.5), inv}
		}
	}
	g := sm.p.full
	// Where the page's pixel centres lie in the image sampled (the page itself, or a smoothed
	// part of it, whose outermost half pixel at the page's edge is then taken as off the page):
	// lox … hix across, loy … hiy down; outside them is off the page.
	var lox, loy float32
	hix, hiy := float32(g.Rect.Dx()-1), float32(g.Rect.Dy()-1)
	if step < sm.scale && sm.holds(nodes) {
		ox, oy := float32(sm.sx), float32(sm.sy)
		for n := range nodes {
			nodes[n].x, nodes[n].y = nodes[n].x-ox, nodes[n].y-oy
		}
		lox, loy = max(0, lox-ox), max(0, loy-oy)
		hix = min(float32(sm.sharp.Rect.Dx()-1), hix-ox)
		hiy = min(float32(sm.sharp.Rect.Dy()-1), hiy-oy)
		g = sm.sharp
	}
	if step > sm.scale {
		if sg, ox, oy, k := smoothPart(g, nodes, nx, ny); sg != nil {
			to := func(v, o float32) float32 { return (v+0.5-o)/k - 0.5 }
			for n := range nodes {
				nodes[n].x, nodes[n].y = to(nodes[n].x, ox), to(nodes[n].y, oy)
			}
			lox, loy = max(0, to(lox, ox)), max(0, to(loy, oy))
			hix = min(float32(sg.Rect.Dx()-1), to(hix, ox))
			hiy = min(float32(sg.Rect.Dy()-1), to(hiy, oy))
			g = sg
		}
	}
	gwi, ghi := g.Rect.Dx()-1, g.Rect.Dy()-1
	for i := range h {
		b, fb := i/lattice, float32(i%lattice)/lattice
		row := dst[i*w : (i+1)*w]
		for a := 0; a*lattice < w; a++ {
			// Along one lattice cell of this row the map is linear: step it.
			n00, n01 := nodes[b*nx+a], nodes[b*nx+a+1]
			n10, n11 := nodes[(b+1)*nx+a], nodes[(b+1)*nx+a+1]
			x := n00.x*(1-fb) + n10.x*fb
			y := n00.y*(1-fb) + n10.y*fb
			inv := n00.inv*(1-fb) + n10.inv*fb
			dx := (n01.x*(1-fb) + n11.x*fb - x) / lattice
			dy := (n01.y*(1-fb) + n11.y*fb - y) / lattice
			dinv := (n01.inv*(1-fb) + n11.inv*fb - inv) / lattice
			for j := a * lattice; j < min(w, (a+1)*lattice); j++ {
				grey := float32(255) // outside the page: white
				if x >= lox && y >= loy && x <= hix && y <= hiy {
					if cubic {
						grey = catmullRom(g.Pix, g.Stride, gwi, ghi, x, y)
					} else {
						xi, yi := int(x), int(y)
						fx, fy := x-float32(xi), y-float32(yi)
						x1, y1 := min(xi+1, gwi), min(yi+1, ghi)
						r0, r1 := g.Pix[yi*g.Stride:], g.Pix[y1*g.Stride:]
						t := float32(r0[xi]) + (float32(r0[x1])-float32(r0[xi]))*fx
						u := float32(r1[xi]) + (float32(r1[x1])-float32(r1[xi]))*fx
						grey = t + (u-t)*fy
					}
				}
				v := 255 * (1 - grey*inv)
				if inv == 0 || v < 0 {
					v = 0
				}
				row[j] = uint8(min(255, v+0.5))
				x, y, inv = x+dx, y+dy, inv+dinv
			}
		}
	}
}

// findLines looks for each of the box's four ruled lines within 7% of the box of where the grid
// puts it: across the box's middle (its corners left out, where the other lines cross), the
// ink that 70% of the pixels along a row reach peaks on the line; the line is the run around the
// peak at least half as dark, its centre the run's ink-weighted mean. A digit's stroke along the
// line covers less than 70% of it (a 0's side, a 7's bar) and stays out of the run, so it is
// not taken for part of the line.
func (c *crop) findLines() {
	for s := range 4 {
		horizontal := s == top || s == bottom
		var lo, hi float64 // the span across which to average
		length := c.edge[right] - c.edge[left]
		if !horizontal {
			length = c.edge[bottom] - c.edge[top]
		}
		if horizontal {
			lo, hi = c.edge[left]+0.15*length, c.edge[right]-0.15*length
		} else {
			lo, hi = c.edge[top]+0.15*length, c.edge[bottom]-0.15*length
		}
		delta := max(3, 0.07*length)
		from, to := int(c.edge[s]-delta), int(math.Ceil(c.edge[s]+delta))
		limit := c.h
		if !horizontal {
			limit = c.w
		}
		from, to = max(0, from), min(limit-1, to)
		a, b := max(0, int(lo)), int(hi)
		if to-from < 2 || b <= a {
			continue
		}
		prof := make([]float64, to-from+1)
		var hist [256]int
		for k := range prof {
			clear(hist[:])
			for q := a; q < b; q++ {
				if horizontal {
					hist[c.ink[(from+k)*c.w+q]]++
				} else {
					hist[c.ink[q*c.w+from+k]]++
				}
			}
			// The level at least 70% of the pixels reach: the 30th percentile.
			v, seen := 0, 0
			for ; v < 255; v++ {
				seen += hist[v]
				if 10*seen > 3*(b-a) {
					break
				}
			}
			prof[k] = float64(v)
		}
		peak := slices.Index(prof, slices.Max(prof))
		if prof[peak] < minLineInk {
			continue
		}
		lo2, hi2 := peak, peak
		for lo2 > 0 && prof[lo2-1] >= prof[peak]/2 {
			lo2--
		}
		for hi2 < len(prof)-1 && prof[hi2+1] >= prof[peak]/2 {
			hi2++
		}
		var m, mw float64
		for k := lo2; k <= hi2; k++ {
			m += (float64(from+k) + 0.5) * prof[k]
			mw += prof[k]
		}
		c.centre[s] = m / mw
		c.width[s] = float64(hi2 - lo2 + 1)
	}
}

// catmullRom interpolates the grey image pix (stride bytes a row, last column gwi and last row
// ghi) at (x, y), pixel centres at integers, by the Catmull–Rom cubic across and down, the
// neighbours' indices clamped to the image, the result to 0 … 255.
func catmullRom(pix []uint8, stride, gwi, ghi int, x, y float32) float32 {
	xi, yi := int(x), int(y)
	wx, wy := crWeights(x-float32(xi)), crWeights(y-float32(yi))
	var sum float32
	for j := range 4 {
		row := pix[min(ghi, max(0, yi-1+j))*stride:]
		var r float32
		for i := range 4 {
			r += wx[i] * float32(row[min(gwi, max(0, xi-1+i))])
		}
		sum += wy[j] * r
	}
	return max(0, min(255, sum))
}

// crWeights returns the Catmull–Rom weights of the 4 samples around a point t (0 ≤ t < 1) past
// the second of them.
func crWeights(t float32) [4]float32 {
	t2, t3 := t*t, t*t*t
	return [4]float32{(-t3 + 2*t2 - t) / 2, (3*t3 - 5*t2 + 2) / 2, (-3*t3 + 4*t2 + t) / 2, (t3 - t2) / 2}
}
