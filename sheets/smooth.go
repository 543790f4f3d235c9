package sheets

import (
	"image"
	"math"
)

// areaAverage returns the part of g within r (inside g) averaged over squares of k×k of g's
// pixels, k ≥ 1 and any real: pixel (j, i) of the result is the mean of g over
// [r.Min.X + j·k, r.Min.X + (j+1)·k) × [r.Min.Y + i·k, r.Min.Y + (i+1)·k), each of g's pixels
// weighted by how much of it the square covers (area averaging, OpenCV's INTER_AREA), the last
// square cut off at r's edge. It is the smoothing a read below the page's resolution takes
// before it samples (sampler.fill): sampling the page itself every k pixels would fold what is
// finer than 2k pixels (a pen's thin stroke, a stripe pattern) into false patterns, and
// let a stroke thinner than k pixels fall between the samples.
//
// The result is ⌈r.Dx()/k⌉ × ⌈r.Dy()/k⌉ pixels; memory besides it is two rows of that width in
// float32, so a read bounded by maxReadPixels stays bounded however large the page (imaging's
// Resize, by contrast, holds 4 bytes a pixel of the result's width by r's height between its
// two passes: 54 MB for a box ruled over a 600 dpi page).
func areaAverage(g *image.Gray, r image.Rectangle, k float64) *image.Gray {
	w := max(1, int(math.Ceil(float64(r.Dx())/k-1e-9)))
	h := max(1, int(math.Ceil(float64(r.Dy())/k-1e-9)))
	out := image.NewGray(image.Rect(0, 0, w, h))
	xs := areaSpans(r.Dx(), w, k)
	acc := make([]float32, w)  // the current output row's weighted sums
	line := make([]float32, w) // one page row averaged across
	var weight float32         // the current output row's total weight down
	i := 0                     // the output row being summed
	flush := func() {
		row := out.Pix[i*out.Stride:][:w]
		for j, s := range acc {
			row[j] = uint8(min(255, s/weight/xs[j].total+0.5))
		}
		clear(acc)
		weight = 0
		i++
	}
	for y := range r.Dy() {
		src := g.Pix[(r.Min.Y+y-g.Rect.Min.Y)*g.Stride+r.Min.X-g.Rect.Min.X:][:r.Dx()]
		for j, c := range xs {
			seg := src[c.from:c.to]
			if len(seg) == 1 {
				line[j] = c.first * float32(seg[0])
				continue
			}
			var mid uint32
			for _, v := range seg[1 : len(seg)-1] {
				mid += uint32(v)
			}
			line[j] = c.first*float32(seg[0]) + float32(mid) + c.last*float32(seg[len(seg)-1])
		}
		// Page row y covers [y, y+1) down; output row i covers [i·k, (i+1)·k).
		top, bottom := float64(y), float64(y+1)
		for top < bottom && i < h {
			end := min(bottom, float64(i+1)*k)
			part := float32(end - top)
			if part == 1 {
				for j, v := range line {
					acc[j] += v
				}
			} else {
				for j, v := range line {
					acc[j] += part * v
				}
			}
			weight += part
			top = end
			if end >= float64(i+1)*k || (y == r.Dy()-1 && end >= bottom) {
				flush()
			}
		}
	}
	return out
}

// span is the page pixels from … to (exclusive) one output pixel of areaAverage covers across,
// with the share of the first and the last it covers (1 for those between) and the sum.
type span struct {
	from, to    int
	first, last float32
	total       float32
}

// weight returns the share of the n-th pixel of the span that the output pixel covers.
func (c span) weight(n int) float32 {
	switch {
	case n == 0:
		return c.first
	case c.from+n == c.to-1:
		return c.last
	}
	return 1
}

// areaSpans returns, for each of w output pixels of k source pixels each across a row of n
// source pixels, the source pixels it covers and how much of each.
func areaSpans(n, w int, k float64) []span {
	out := make([]span, w)
	for j := range out {
		a, b := float64(j)*k, min(float64(n), float64(j+1)*k)
		from, to := int(a), min(n, int(math.Ceil(b)))
		c := span{from: from, to: max(from+1, to)}
		c.first = float32(min(b, float64(from+1)) - a)
		c.last = float32(b - float64(c.to-1))
		if c.to-c.from == 1 {
			c.first = float32(b - a)
			c.last = c.first
		}
		for m := range c.to - c.from {
			c.total += c.weight(m)
		}
		out[j] = c
	}
	return out
}

// smoothPart returns, for a read whose lattice of nx×ny nodes (fill's, lattice output pixels
// apart, on the page's pixel centres) is coarser than the page, the part of the page the read
// covers (and a margin for the interpolation) averaged over squares of k×k page pixels, k the
// read's pixel in page pixels (the longer of its two sides, measured across the lattice's
// middle), with where that part starts on the page (ox, oy). Nil when the read is not coarser
// than the page or lies off it.
func smoothPart(g *image.Gray, nodes []node, nx, ny int) (part *image.Gray, ox, oy, k float32) {
	if nx < 2 || ny < 2 {
		return nil, 0, 0, 0
	}
	pitch := func(a, b node, n int) float64 {
		return math.Hypot(float64(b.x-a.x), float64(b.y-a.y)) / float64(n*lattice)
	}
	mx, my := nx/2, ny/2
	kk := max(pitch(nodes[my*nx], nodes[my*nx+nx-1], nx-1), pitch(nodes[mx], nodes[(ny-1)*nx+mx], ny-1))
	if !(kk > 1) {
		return nil, 0, 0, 0
	}
	minX, minY := float32(math.Inf(1)), float32(math.Inf(1))
	maxX, maxY := float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, n := range nodes {
		minX, maxX = min(minX, n.x), max(maxX, n.x)
		minY, maxY = min(minY, n.y), max(maxY, n.y)
	}
	pad := float32(3*kk + 2)
	r := image.Rect(int(math.Floor(float64(minX-pad))), int(math.Floor(float64(minY-pad))),
		int(math.Ceil(float64(maxX+pad))), int(math.Ceil(float64(maxY+pad)))).Intersect(g.Rect)
	if r.Empty() {
		return nil, 0, 0, 0
	}
	return areaAverage(g, r, kk), float32(r.Min.X), float32(r.Min.Y), float32(kk)
}
