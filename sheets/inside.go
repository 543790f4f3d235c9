package sheets

import (
	"image"
	"math"
	"slices"

	"idxlabel/normalize"
)

// The rules by which a box's ink is told from specks and from what is left of its lines, as
// shares of the box's side.
const (
	// speckShare: ink shapes smaller than (speckShare × side)² pixels are specks (dust, JPEG).
	speckShare = 0.02
	// hugShare: a shape lying wholly within this share of the box (at least 2 pixels) from
	// one edge of the inside is what is left of that ruled line's blurred edge.
	hugShare = 0.03
	// emptyShare: ink whose extent is under this share of the box is not a digit.
	emptyShare = 0.1
	// ownReach: the ink touching a line may be the box's own digit when its shape reaches at
	// least this far from the line (crossings).
	ownReach = 0.25
	// crossShare: how far past the grid's outline, as a share of the box, ink is looked for
	// where a stroke touches the outline from inside.
	crossShare = 0.05
	// touchPixels: ink this close to an edge of the inside touches that line.
	touchPixels = 2
)

// How a box's ink is taken on over the ruled lines it touches (overLines, divideLines).
const (
	// lineInset: the inside is read again to this share of a line's half-width (its width at
	// half its peak, halved) from the line's centre, within the line.
	lineInset = 0.25
	// lineFringe: a line's blurred edge reaches this many pixels (of the crop) past its
	// half-width; what is left of it up to there is divided out.
	lineFringe = 1.5
	// lineOpaque: where the line lets through less than this share of the paper's light,
	// nothing under it can be told: no ink there.
	lineOpaque = 0.15
)

// fineSample is how many times finer than the page a box's ink is read again for its sample
// (fineInk): its bounding box, and so the digit's scale and centre of mass, then depend less
// still on where the page's pixels fall (measured on 8 sheets of seeds 1 and 2: mean
// correlation with the digit imported alone 0.9664 → 0.9681 and 0.9681 → 0.9699 on scans,
// 0.9568 → 0.9590 and 0.9569 → 0.9565 on photos; 4 times finer: no better). A region larger
// than maxReadPixels allows is read less finely (readScale).
const fineSample = 3

// oversample is how many times finer than the page a box's inside is sampled: the digit's
// outline, and so its bounding box and centre of mass, then depend less on where the page's
// pixels fall (measured: mean correlation with the digit imported alone 0.953 → 0.962 on
// scans, bench/sheets). A box larger than maxReadPixels allows is sampled less finely
// (readScale).
const oversample = 2

// inside is what a box holds between its ruled lines, sampled f times finer than its crop
// (oversample, or less for a huge box).
type inside struct {
	x0, y0 int     // where the inside starts in its crop's pixels
	x1, y1 int     // where it ends (exclusive), crop pixels
	cw, ch int     // the crop's size
	w, h   int     // its size, in its own (finer) pixels
	f      float64 // its pixels per crop pixel, on each axis
	bin    []bool  // ink, w×h, specks and what is left of the lines removed (nil once read)
	digit  []byte  // the sample made of bin (nil for an empty box)
	// past[s]: ink lies just past side s's line where the box's ink touches it (crop.beyond),
	// the test for a line with no box read beyond it.
	past  [4]bool
	level int // the crop's ink at least this is ink (Otsu's threshold), deblurred (sampler.deblur)
	// pastLevel is the same threshold taken on the crop as captured, for what beyond reads
	// there (the deblurred inside's is about ten levels higher: a stroke's short stretch past
	// a line, blurred in the crop, would fall under it and a crossing go unflagged).
	pastLevel int
	empty     bool // no digit: no ink, or too little
	// touch[s][k] says kept ink lies within touchPixels of side s at position k along it;
	// near[s][k] is how far the nearest kept ink lies from side s there (w or h when none).
	touch [4][]bool
	near  [4][]int32
	// reach[s]: how far the box's largest shape reaches from side s, which it touches, in
	// the inside's pixels (0 when it does not touch s); mainN is that shape's size, pixels.
	reach [4]float64
	mainN int
	side  float64 // the box's side, in the inside's pixels
}

// analyse reads what lies inside a box's ruled lines and makes its sample (o), keeping what
// deciding crossings needs and not its pixels: the crop between them (each line taken
// where the crop shows it, at most 2.5 times the usual width, plus a pixel for its blurred
// edge), made bilevel by Otsu's threshold (normalize.Bilevel, the rule import binarizes by);
// rows or columns along an edge that are mostly ink (a line's edge the inset missed:
// clearLineRemnants)
// and shapes lying along an edge within hugShare of it are cleared, specks dropped. No ink
// left, or ink spanning less than emptyShare of the box, is an empty box. The sample is made of
// that ink read again finer and over the lines it touches (fineInk). Both reads, and the
// lines' light divided out there, are finer than the page and take it with the capture's blur
// undone over the box (sampler.deblur); the crop, which finds the lines and the ink past them
// (crop.beyond, at the threshold taken on the crop: pastLevel), is the page as captured.
func analyse(c *crop, usual float64, o Options) *inside {
	half := func(s int) float64 {
		w := c.width[s]
		if usual > 0 {
			if w == 0 {
				w = usual
			}
			w = max(0.6*usual, min(2.5*usual, w))
		}
		return w / 2
	}
	const pad = 0.5
	x0 := int(math.Ceil(c.centre[left] + half(left) + pad))
	x1 := int(math.Floor(c.centre[right] - half(right) - pad))
	y0 := int(math.Ceil(c.centre[top] + half(top) + pad))
	y1 := int(math.Floor(c.centre[bottom] - half(bottom) - pad))
	x0, y0 = max(0, x0), max(0, y0)
	x1, y1 = min(c.w, x1), min(c.h, y1)
	x1, y1 = max(x0, x1), max(y0, y1)
	f := readScale(float64(x1-x0), float64(y1-y0), oversample)
	in := &inside{x0: x0, y0: y0, x1: x1, y1: y1, cw: c.w, ch: c.h, f: f, level: 256, empty: true}
	in.w, in.h = int(float64(x1-x0)*f), int(float64(y1-y0)*f)
	w, h := in.w, in.h
	// The reads below are finer than the page: the capture's blur is undone over the box,
	// its ruled lines included (sampler.deblur).
	c.sm.deblur(c.centre[left], c.centre[top], c.centre[right], c.centre[bottom])
	side := c.side * f
	for s := range 4 {
		n, far := h, int32(w)
		if s == top || s == bottom {
			n, far = w, int32(h)
		}
		in.touch[s] = make([]bool, n)
		in.near[s] = make([]int32, n)
		for k := range in.near[s] {
			in.near[s][k] = far
		}
	}
	if float64(w) < 8*f || float64(h) < 8*f {
		return in
	}
	g := image.NewGray(image.Rect(0, 0, w, h))
	c.sm.fill(g.Pix, w, h, float64(x0), float64(y0), 1/f, false)
	inkLevels := append([]uint8(nil), g.Pix...)
	normalize.Bilevel(g, 0)
	in.bin = make([]bool, w*h)
	for k, v := range g.Pix {
		if v != 0 {
			in.bin[k] = true
			in.level = min(in.level, int(inkLevels[k]))
		}
	}
	if in.level > 255 {
		return in
	}
	in.pastLevel = capturedLevel(c, x0, y0, x1, y1)
	clearLineRemnants(in.bin, w, h, int(2*f), max(2, int(0.03*side)))
	comps, lab := components(in.bin, w, h)
	speck := max(3, int(math.Pow(speckShare*side, 2)))
	hug := max(2, int(math.Round(hugShare*side)))
	keep := make([]bool, len(comps))
	main := -1
	for k, cp := range comps {
		hugs := cp.maxY < hug || cp.minY >= h-hug || cp.maxX < hug || cp.minX >= w-hug
		keep[k] = cp.n >= speck && !hugs
		if keep[k] && (main < 0 || cp.n > comps[main].n) {
			main = k
		}
	}
	minX, minY, maxX, maxY := w, h, -1, -1
	for k, v := range in.bin {
		if !v {
			continue
		}
		if !keep[lab[k]] {
			in.bin[k] = false
			continue
		}
		x, y := k%w, k/w
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
		in.near[top][x] = min(in.near[top][x], int32(y))
		in.near[bottom][x] = min(in.near[bottom][x], int32(h-1-y))
		in.near[left][y] = min(in.near[left][y], int32(x))
		in.near[right][y] = min(in.near[right][y], int32(w-1-x))
	}
	for s := range 4 {
		for k, d := range in.near[s] {
			in.touch[s][k] = d < touchPixels
		}
	}
	if maxX < 0 || float64(max(maxX-minX+1, maxY-minY+1)) < emptyShare*side {
		return in
	}
	in.empty = false
	m := comps[main]
	in.mainN, in.side = m.n, side
	if m.minY < touchPixels {
		in.reach[top] = float64(m.maxY + 1)
	}
	if m.maxX >= w-touchPixels {
		in.reach[right] = float64(w - m.minX)
	}
	if m.maxY >= h-touchPixels {
		in.reach[bottom] = float64(h - m.minY)
	}
	if m.minX < touchPixels {
		in.reach[left] = float64(m.maxX + 1)
	}
	for s := range 4 {
		in.past[s] = c.beyond(in, s)
	}
	bin, bw, bh := c.fineInk(in, [4]float64{half(top), half(right), half(bottom), half(left)}, minX, minY, maxX, maxY)
	in.digit = sample(bin, bw, bh, o)
	in.bin = nil
	return in
}

// fineInk returns the box's ink read again for its sample, finer (fineSample times the
// crop's pixels, less when that would take more than maxReadPixels: readScale) over the ink analyse kept
// (in.bin, its bounding box minX … maxY in the inside's pixels) and a margin, and reaching
// over the ruled lines that ink touches: into each such line to lineInset of its half-width
// (halves, by side) from its centre, what is left of the line there divided out
// (divideLines), so a stroke that touches a line keeps the ink over the line's blurred edge
// instead of ending where the inside did. The page is interpolated there by the Catmull–Rom
// cubic, which follows a blurred stroke's profile between the page's pixels where bilinear
// interpolation cuts straight across it (measured on 50 sheets of each of 3 seeds: mean
// correlation with the digit imported alone +0.0009, +0.0000, +0.0002 on scans, +0.0006,
// −0.0002, +0.0013 on photos, for 0.07 s more CPU a sheet). It is made bilevel at the
// inside's level, and the shapes holding ink analyse kept are kept; read three times finer
// than the page, its extent along its shorter side is made a fine pixel longer, so normalize's
// square crop leaves it where it leaves a digit on the page's pixels (asOnPagePixels). The
// image's size is returned beside it. Memory: at most maxReadPixels × 10 bytes.
func (c *crop) fineInk(in *inside, halves [4]float64, minX, minY, maxX, maxY int) ([]bool, int, int) {
	var touched [4]bool
	for s := range 4 {
		touched[s] = slices.Contains(in.touch[s], true)
	}
	const margin = 2 // crop pixels around the ink
	ix1, iy1 := in.x1, in.y1
	x0 := max(in.x0, in.x0+in.cropAt(minX)-margin)
	y0 := max(in.y0, in.y0+in.cropAt(minY)-margin)
	x1 := min(ix1, in.x0+in.cropAt(maxX)+1+margin)
	y1 := min(iy1, in.y0+in.cropAt(maxY)+1+margin)
	var depth [4]float64 // crop pixels
	if touched[top] {
		y0 = min(y0, max(0, int(math.Ceil(c.centre[top]+halves[top]*lineInset))))
		depth[top] = c.centre[top] + halves[top] + lineFringe - float64(y0)
	}
	if touched[bottom] {
		y1 = max(y1, min(c.h, int(math.Floor(c.centre[bottom]-halves[bottom]*lineInset))))
		depth[bottom] = float64(y1) - (c.centre[bottom] - halves[bottom] - lineFringe)
	}
	if touched[left] {
		x0 = min(x0, max(0, int(math.Ceil(c.centre[left]+halves[left]*lineInset))))
		depth[left] = c.centre[left] + halves[left] + lineFringe - float64(x0)
	}
	if touched[right] {
		x1 = max(x1, min(c.w, int(math.Floor(c.centre[right]-halves[right]*lineInset))))
		depth[right] = float64(x1) - (c.centre[right] - halves[right] - lineFringe)
	}
	f := readScale(float64(x1-x0), float64(y1-y0), fineSample)
	w, h := int(float64(x1-x0)*f), int(float64(y1-y0)*f)
	pix := make([]uint8, w*h)
	step := 1 / f
	c.sm.fill(pix, w, h, float64(x0), float64(y0), step, true)
	// Each line's light, row by row (column by column) of these pixels, measured along the
	// middle 70% of the inside's side, which a stroke touching the line does not cover.
	var light [4][]float64
	across := func(a0, a1 int) (float64, int) { // the span measured: its start, its pixels
		n := float64(a1 - a0)
		return float64(a0) + 0.15*n, int(0.7 * n * f)
	}
	if d := min(int(math.Ceil(depth[top]*f)), h/2); d > 0 {
		from, n := across(in.x0, ix1)
		light[top] = c.lineLight(from, float64(y0), n, d, f, true)
	}
	if d := min(int(math.Ceil(depth[bottom]*f)), h/2); d > 0 {
		from, n := across(in.x0, ix1)
		light[bottom] = c.lineLight(from, float64(y0)+float64(h-d)*step, n, d, f, true)
	}
	if d := min(int(math.Ceil(depth[left]*f)), w/2); d > 0 {
		from, n := across(in.y0, iy1)
		light[left] = c.lineLight(float64(x0), from, n, d, f, false)
	}
	if d := min(int(math.Ceil(depth[right]*f)), w/2); d > 0 {
		from, n := across(in.y0, iy1)
		light[right] = c.lineLight(float64(x0)+float64(w-d)*step, from, n, d, f, false)
	}
	divideLines(pix, w, h, light)
	bin := make([]bool, w*h)
	for k, v := range pix {
		bin[k] = int(v) >= in.level
	}
	comps, lab := components(bin, w, h)
	keep := make([]bool, len(comps))
	// The inside's pixel holding each of these pixels' centres.
	at := func(k, origin, from int) int {
		return int(math.Floor((float64(from-origin) + (float64(k)+0.5)*step) * in.f))
	}
	for y := range h {
		iy := at(y, in.y0, y0)
		if iy < 0 || iy >= in.h {
			continue
		}
		for x := range w {
			l := lab[y*w+x]
			if l < 0 || keep[l] {
				continue
			}
			if ix := at(x, in.x0, x0); ix >= 0 && ix < in.w && in.bin[iy*in.w+ix] {
				keep[l] = true
			}
		}
	}
	for k, l := range lab {
		bin[k] = l >= 0 && keep[l]
	}
	if f == fineSample && c.sm.scale == 1 {
		asOnPagePixels(bin, w, h)
	}
	return bin, w, h
}

// lineLight returns, for each of depth rows (horizontal) or columns of pixels f times finer
// than the crop's starting at crop point (x, y), the light a ruled line lets through there (1 − ink/255): the median over
// n pixels along it, which a stroke touching the line covers less than half of.
func (c *crop) lineLight(x, y float64, n, depth int, f float64, horizontal bool) []float64 {
	if n < 1 {
		return nil
	}
	w, h := n, depth
	if !horizontal {
		w, h = depth, n
	}
	pix := make([]uint8, w*h)
	c.sm.fill(pix, w, h, x, y, 1/f, true)
	light := make([]float64, depth)
	vals := make([]uint8, n)
	for d := range depth {
		for k := range n {
			if horizontal {
				vals[k] = pix[d*w+k]
			} else {
				vals[k] = pix[k*w+d]
			}
		}
		slices.Sort(vals)
		light[d] = 1 - float64(vals[n/2])/255
	}
	return light
}

// divideLines divides out what is left of the ruled lines in a box's ink levels (w×h, 0
// paper … 255 black), along side s over len(light[s]) rows or columns, light[s][d] being the
// light the line lets through d pixels from that side (lineLight). A printed line and a pen's
// stroke over the paper let light through as a product, so dividing the light by the line's
// keeps the stroke's ink and takes the line away. Where the line lets through less than
// lineOpaque, nothing under it can be told and the row is cleared.
func divideLines(pix []uint8, w, h int, light [4][]float64) {
	divide := func(n int, line float64, at func(k int) *uint8) {
		if line >= 1 {
			return
		}
		for k := range n {
			p := at(k)
			if line < lineOpaque {
				*p = 0
				continue
			}
			t := (1 - float64(*p)/255) / line
			*p = uint8(max(0, min(255, math.Round(255*(1-t)))))
		}
	}
	for d, l := range light[top] {
		divide(w, l, func(k int) *uint8 { return &pix[d*w+k] })
	}
	for d, l := range light[bottom] {
		divide(w, l, func(k int) *uint8 { return &pix[(h-len(light[bottom])+d)*w+k] })
	}
	for d, l := range light[left] {
		divide(h, l, func(k int) *uint8 { return &pix[k*w+d] })
	}
	for d, l := range light[right] {
		divide(h, l, func(k int) *uint8 { return &pix[k*w+w-len(light[right])+d] })
	}
}

// clearLineRemnants clears, near each edge of the bilevel inside (w×h), the rows or columns
// that are what is left of a ruled line's blurred edge the inset did not reach: within thin of
// the edge, those more than half ink; further, up to depth, those more than three quarters ink
// (a line a little off the rectified axis leaves its edge over two or three of them, the
// nearest not always the fullest). A digit's stroke along the edge is shorter than the deeper
// rule: a digit is at most about 60% of its box.
func clearLineRemnants(bin []bool, w, h, thin, depth int) {
	rowInk := func(y int) int {
		n := 0
		for _, v := range bin[y*w : (y+1)*w] {
			if v {
				n++
			}
		}
		return n
	}
	colInk := func(x int) int {
		n := 0
		for y := range h {
			if bin[y*w+x] {
				n++
			}
		}
		return n
	}
	line := func(ink, length, k int) bool {
		if k < thin {
			return 2*ink > length
		}
		return 4*ink > 3*length
	}
	for k := range min(depth, h) {
		for _, y := range []int{k, h - 1 - k} {
			if line(rowInk(y), w, k) {
				clear(bin[y*w : (y+1)*w])
			}
		}
	}
	for k := range min(depth, w) {
		for _, x := range []int{k, w - 1 - k} {
			if line(colInk(x), h, k) {
				for y := range h {
					bin[y*w+x] = false
				}
			}
		}
	}
}

// beyond reports whether, past side s's line (beyond its outer edge and 2 pixels more, up to
// crossShare of the box further), the crop shows ink at in's threshold on the crop as captured
// (pastLevel) within 3 crop pixels along
// the line of where in's ink touches it (at least 3 such pixels).
func (c *crop) beyond(in *inside, s int) bool {
	half := c.width[s] / 2
	if half == 0 {
		half = 1
	}
	depth := max(3, crossShare*c.side)
	var from, to float64
	switch s {
	case top, left:
		to = c.centre[s] - half - 2
		from = to - depth
	default:
		from = c.centre[s] + half + 2
		to = from + depth
	}
	// The touches, in crop pixels along the line.
	n := c.h
	origin := in.y0
	if s == top || s == bottom {
		n, origin = c.w, in.x0
	}
	near := make([]bool, n)
	for k, t := range in.touch[s] {
		if t {
			a := origin + in.cropAt(k)
			for d := max(0, a-3); d <= min(n-1, a+3); d++ {
				near[d] = true
			}
		}
	}
	hits := 0
	for a, ok := range near {
		if !ok {
			continue
		}
		for q := int(math.Floor(from)); q < int(math.Ceil(to)); q++ {
			x, y := q, a
			if s == top || s == bottom {
				x, y = a, q
			}
			if x >= 0 && x < c.w && y >= 0 && y < c.h && int(c.ink[y*c.w+x]) >= in.pastLevel {
				hits++
			}
		}
	}
	return hits >= 3
}

// capturedLevel returns Otsu's threshold (normalize.Bilevel's) over the crop's pixels x0 … x1
// across and y0 … y1 down, as captured (crop.ink): the least ink made ink, 256 when none is.
func capturedLevel(c *crop, x0, y0, x1, y1 int) int {
	g := image.NewGray(image.Rect(0, 0, x1-x0, y1-y0))
	for y := y0; y < y1; y++ {
		copy(g.Pix[(y-y0)*g.Stride:], c.ink[y*c.w+x0:y*c.w+x1])
	}
	levels := append([]uint8(nil), g.Pix...)
	normalize.Bilevel(g, 0)
	level := 256
	for k, v := range g.Pix {
		if v != 0 {
			level = min(level, int(levels[k]))
		}
	}
	return level
}

// cropAt returns the crop pixel, counted from the inside's start, that holds the centre of the
// inside's pixel k (across or down).
func (in *inside) cropAt(k int) int { return int(math.Floor((float64(k) + 0.5) / in.f)) }

// sample makes a box's ink (bin, w×h) an MNIST sample (normalize.Digit on the bilevel ink,
// the path every image import takes): H×W bytes, or nil when it has none.
func sample(bin []bool, w, h int, o Options) []byte {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for k, v := range bin {
		if v {
			g.Pix[k] = 255
		}
	}
	width, height := o.size()
	d, err := normalize.Digit(g, normalize.Options{Polarity: normalize.InkLight, Threshold: 128, Width: width, Height: height, Centering: o.Centering})
	if err != nil {
		return nil
	}
	return d.Pix
}
