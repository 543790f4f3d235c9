package sheets

import (
	"image"
	"math"
	"slices"

	"idxlabel/normalize"
)

// workSide is the longest side, in pixels, the grid is looked for at: a page is shrunk by a
// whole factor until its longest side is at most about this (an A4 scan at 300 dpi by 2, at
// 600 dpi by 5), which keeps a box 60–80 pixels wide and the ruled lines at least a pixel.
const workSide = 1400

// page is a sheet prepared for finding its grid: the grey image as decoded, a shrunk copy, the
// paper's level across the page (the background, which a photo's shading and a scanner's
// uneven lamp vary), and the shrunk copy as ink relative to that paper, 0 paper to 255 black,
// with its bilevel version. Memory: the full image is the caller's; the rest is about 3 bytes a
// working pixel (6 MB for a working image of 1,400×1,980).
type page struct {
	full *image.Gray
	f    int // full-resolution pixels per working pixel, on each axis
	w, h int // the working image's size
	grey []uint8
	// The paper's level in blocks of bs×bs working pixels, bw×bh of them, each block's value
	// at its centre.
	bs, bw, bh int
	paper      []float32
	ink        []uint8
	bin        []bool
	level      uint8 // bin's threshold: ink at least level
}

// newPage prepares g (at least 1×1).
func newPage(g *image.Gray) *page {
	W, H := g.Rect.Dx(), g.Rect.Dy()
	f := max(1, max(W, H)/workSide)
	p := &page{full: g, f: f, w: max(1, W/f), h: max(1, H/f)}
	p.grey = shrink(g, f, p.w, p.h)
	p.background()
	p.inkImage()
	return p
}

// shrink returns g averaged over f×f blocks into w×h pixels (the last partial row and column
// of blocks left out).
func shrink(g *image.Gray, f, w, h int) []uint8 {
	out := make([]uint8, w*h)
	if f == 1 {
		for y := range h {
			copy(out[y*w:(y+1)*w], g.Pix[y*g.Stride:])
		}
		return out
	}
	sums := make([]uint32, w)
	n := uint32(f * f)
	for y := range h {
		clear(sums)
		for dy := range f {
			row := g.Pix[(y*f+dy)*g.Stride:][:w*f]
			for x := range w {
				var s uint32
				for _, v := range row[x*f : x*f+f] {
					s += uint32(v)
				}
				sums[x] += s
			}
		}
		o := out[y*w : (y+1)*w]
		for x, s := range sums {
			o[x] = uint8((s + n/2) / n)
		}
	}
	return out
}

// background estimates the paper's level: in each block of bs×bs working pixels the 90th
// percentile of the grey levels (ink and ruled lines cover less than a tenth of a block), then
// the largest of each block and its 8 neighbours (a block inside a large dark mark takes the
// paper around it) and the mean of that over 3×3 blocks, so the level varies smoothly.
func (p *page) background() {
	p.bs = max(8, max(p.w, p.h)/80)
	p.bw, p.bh = (p.w+p.bs-1)/p.bs, (p.h+p.bs-1)/p.bs
	raw := make([]float32, p.bw*p.bh)
	var hist [256]int
	for by := range p.bh {
		for bx := range p.bw {
			clear(hist[:])
			n := 0
			for y := by * p.bs; y < min(p.h, (by+1)*p.bs); y++ {
				for _, v := range p.grey[y*p.w+bx*p.bs : y*p.w+min(p.w, (bx+1)*p.bs)] {
					hist[v]++
					n++
				}
			}
			k, seen := 255, 0
			for ; k > 0; k-- {
				seen += hist[k]
				if seen*10 >= n {
					break
				}
			}
			raw[by*p.bw+bx] = float32(k)
		}
	}
	dil := blockFilter(raw, p.bw, p.bh, func(vs []float32) float32 { return slices.Max(vs) })
	p.paper = blockFilter(dil, p.bw, p.bh, func(vs []float32) float32 {
		var s float32
		for _, v := range vs {
			s += v
		}
		return s / float32(len(vs))
	})
}

// blockFilter applies op to each block's 3×3 neighbourhood (those inside the grid).
func blockFilter(in []float32, bw, bh int, op func([]float32) float32) []float32 {
	out := make([]float32, len(in))
	vs := make([]float32, 0, 9)
	for y := range bh {
		for x := range bw {
			vs = vs[:0]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && xx < bw && yy >= 0 && yy < bh {
						vs = append(vs, in[yy*bw+xx])
					}
				}
			}
			out[y*bw+x] = op(vs)
		}
	}
	return out
}

// paperAt returns the paper's level at (x, y) in working-image coordinates (pixel centres at
// i + 0.5), interpolated bilinearly between block centres.
func (p *page) paperAt(x, y float64) float64 {
	bx := x/float64(p.bs) - 0.5
	by := y/float64(p.bs) - 0.5
	return bilinearF(p.paper, p.bw, p.bh, bx, by)
}

// bilinearF samples a w×h grid of values at (x, y) in index coordinates (value k at k),
// clamped at the edges.
func bilinearF(v []float32, w, h int, x, y float64) float64 {
	x = max(0, min(float64(w-1), x))
	y = max(0, min(float64(h-1), y))
	x0, y0 := int(x), int(y)
	x1, y1 := min(w-1, x0+1), min(h-1, y0+1)
	fx, fy := x-float64(x0), y-float64(y0)
	a := float64(v[y0*w+x0])*(1-fx) + float64(v[y0*w+x1])*fx
	b := float64(v[y1*w+x0])*(1-fx) + float64(v[y1*w+x1])*fx
	return a*(1-fy) + b*fy
}

// minPaper is the darkest level taken as paper: below it (a dark table around a photographed
// page) nothing is ink.
const minPaper = 24

// inkLevel returns the ink of a grey level g on paper of level paper: 255·(1 − g/paper),
// clamped to 0–255 (0 where the paper is too dark to tell).
func inkLevel(g, paper float64) uint8 {
	if paper < minPaper {
		return 0
	}
	return uint8(max(0, min(255, math.Round(255*(1-g/paper)))))
}

// inkImage makes the working ink image and its bilevel version by Otsu's threshold
// (normalize.Bilevel, the rule import binarizes by).
func (p *page) inkImage() {
	p.ink = make([]uint8, p.w*p.h)
	for y := range p.h {
		for x := range p.w {
			p.ink[y*p.w+x] = inkLevel(float64(p.grey[y*p.w+x]), p.paperAt(float64(x)+0.5, float64(y)+0.5))
		}
	}
	g := &image.Gray{Pix: slices.Clone(p.ink), Stride: p.w, Rect: image.Rect(0, 0, p.w, p.h)}
	normalize.Bilevel(g, 0)
	p.bin = make([]bool, len(g.Pix))
	p.level = 255
	for k, v := range g.Pix {
		p.bin[k] = v != 0
		if v != 0 {
			p.level = min(p.level, p.ink[k])
		}
	}
}

// inkAt samples the working ink image bilinearly at (x, y) (pixel centres at i + 0.5); 0
// outside it.
func (p *page) inkAt(x, y float64) float64 {
	x -= 0.5
	y -= 0.5
	if x < 0 || y < 0 || x > float64(p.w-1) || y > float64(p.h-1) {
		return 0
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(p.w-1, x0+1), min(p.h-1, y0+1)
	fx, fy := x-float64(x0), y-float64(y0)
	a := float64(p.ink[y0*p.w+x0])*(1-fx) + float64(p.ink[y0*p.w+x1])*fx
	b := float64(p.ink[y1*p.w+x0])*(1-fx) + float64(p.ink[y1*p.w+x1])*fx
	return a*(1-fy) + b*fy
}

// inkNear returns the ink of the working pixel at (x, y); 0 outside the image.
func (p *page) inkNear(x, y float64) uint8 {
	if x < 0 || y < 0 {
		return 0
	}
	xi, yi := int(x), int(y)
	if xi >= p.w || yi >= p.h {
		return 0
	}
	return p.ink[yi*p.w+xi]
}

// binAt reports whether the working pixel nearest (x, y) is ink; false outside the image.
func (p *page) binAt(x, y float64) bool {
	if x < 0 || y < 0 {
		return false
	}
	xi, yi := int(x), int(y)
	if xi >= p.w || yi >= p.h {
		return false
	}
	return p.bin[yi*p.w+xi]
}
