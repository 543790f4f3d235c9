package neardup

import "math"

// Shift is a whole-pixel translation (rows down, columns right).
type Shift struct{ Row, Col int }

// Similarity returns the shift-aligned cosine similarity of two h×w images a and b and the
// shift of b that gives it: the largest cosine of a's pixels with b's pixels translated by one
// of the shifts tried. The cosine is taken over the pixels both images keep under the shift
// when each keeps at least 80% of its energy (Σ pixel²) there, so a copy shifted until ink left
// the field still scores 1; otherwise over the whole images (pixels shifted in are 0). The shifts
// tried are 0 and ±1 pixel in each direction, and the same nine around the shift that brings b's
// centre of mass onto a's (ob − oa, their Offsets), so a copy moved by 2 or more pixels is
// aligned too. 1 means the same image up to a shift and a change of intensity; copies of MNIST
// digits with Gaussian noise of σ 4 grey levels score 0.997 or more; on real MNIST a test
// digit's most similar training digit scores 0.99 or more for 5 of 10,000
// (bench/check/README.md). Two images without ink
// score 1, one without ink against one with 0.
func Similarity(a, b []byte, h, w int, oa, ob Offset) (float64, Shift) {
	var sc simScratch
	return sc.similarity(a, b, h, w, oa, ob, -1)
}

// simScratch is one goroutine's buffers for Similarity: the energies of the two images, and
// which image the first one is of (so a run of pairs sharing their first image computes its
// energies once).
type simScratch struct {
	ea, eb energy
	keyA   int // the image whose energies ea holds (−1: none)
}

// similarity is Similarity with sc's buffers; keyA names a's image so that its table is kept
// for the next pair with the same keyA (−1: a is not named, its table is computed).
func (sc *simScratch) similarity(a, b []byte, h, w int, oa, ob Offset, keyA int) (float64, Shift) {
	if len(sc.ea.rows) != h+1 || len(sc.ea.cols) != w+1 {
		sc.keyA = -1
	}
	if keyA < 0 || keyA != sc.keyA {
		sc.ea.fill(a, h, w)
		sc.keyA = keyA
	}
	sc.eb.fill(b, h, w)
	ea, eb := &sc.ea, &sc.eb
	na, nb := ea.total(), eb.total()
	if na == 0 || nb == 0 {
		if na == nb {
			return 1, Shift{}
		}
		return 0, Shift{}
	}
	best, at := -1.0, Shift{}
	try := func(s Shift) {
		dot := shiftedDot(a, b, h, w, s)
		// The overlap: a's rows y0…y1−1 and columns x0…x1−1, b's the same less the shift.
		y0, y1 := max(0, s.Row), min(h, h+s.Row)
		x0, x1 := max(0, s.Col), min(w, w+s.Col)
		if y0 >= y1 || x0 >= x1 {
			return
		}
		oa := ea.rect(a, y0, y1, x0, x1)
		ob := eb.rect(b, y0-s.Row, y1-s.Row, x0-s.Col, x1-s.Col)
		norm := float64(na) * float64(nb)
		if 5*oa >= 4*na && 5*ob >= 4*nb {
			norm = float64(oa) * float64(ob)
		}
		if c := float64(dot) / math.Sqrt(norm); c > best {
			best, at = c, s
		}
	}
	dr, dc := int(ob.Row)-int(oa.Row), int(ob.Col)-int(oa.Col)
	for r := -1; r <= 1; r++ {
		for c := -1; c <= 1; c++ {
			try(Shift{r, c})
		}
	}
	if dr != 0 || dc != 0 {
		for r := dr - 1; r <= dr+1; r++ {
			for c := dc - 1; c <= dc+1; c++ {
				if r < -1 || r > 1 || c < -1 || c > 1 {
					try(Shift{r, c})
				}
			}
		}
	}
	return max(best, 0), at
}

// energy is an image's energy (Σ pixel²) in prefix sums by row and by column: what the energy
// of a rectangle that leaves out a few rows and columns at the sides needs (rect).
type energy struct {
	rows, cols []int64 // rows[y]: the energy of rows < y (h+1 values); cols[x] of columns < x
}

// fill computes e for the h×w image p.
func (e *energy) fill(p []byte, h, w int) {
	if len(e.rows) != h+1 || len(e.cols) != w+1 {
		e.rows, e.cols = make([]int64, h+1), make([]int64, w+1)
	}
	clear(e.cols)
	cols := e.cols[1 : w+1]
	for y := range h {
		var row int64
		for x, v := range p[y*w : (y+1)*w] {
			sq := int64(v) * int64(v)
			row += sq
			cols[x] += sq
		}
		e.rows[y+1] = e.rows[y] + row
	}
	for x := range w {
		e.cols[x+1] += e.cols[x]
	}
}

// total returns the image's energy.
func (e *energy) total() int64 { return e.rows[len(e.rows)-1] }

// rect returns the energy of rows y0…y1−1 and columns x0…x1−1 of p (e filled from p): the
// total less the rows and the columns outside them, plus the pixels outside both (taken off
// twice), summed directly: a shift's overlap leaves out a few rows and columns, so those are few.
func (e *energy) rect(p []byte, y0, y1, x0, x1 int) int64 {
	h, w := len(e.rows)-1, len(e.cols)-1
	s := e.total() - e.rows[y0] - (e.rows[h] - e.rows[y1]) - e.cols[x0] - (e.cols[w] - e.cols[x1])
	for _, ry := range [2][2]int{{0, y0}, {y1, h}} {
		for y := ry[0]; y < ry[1]; y++ {
			for _, rx := range [2][2]int{{0, x0}, {x1, w}} {
				for _, v := range p[y*w+rx[0] : y*w+rx[1]] {
					s += int64(v) * int64(v)
				}
			}
		}
	}
	return s
}

// shiftedDot returns Σ a[y][x]·b[y−s.Row][x−s.Col] over the pixels where both exist. In the
// images' row-major bytes, b's pixel is a's less one offset (s.Row·w + s.Col), so the sum is
// one run from the overlap's first pixel to its last (dotBytes, AVX2 on amd64) less the
// pixels of that run outside the overlap's columns: |s.Col| between each two rows.
func shiftedDot(a, b []byte, h, w int, s Shift) int64 {
	y0, y1 := max(0, s.Row), min(h, h+s.Row)
	x0, x1 := max(0, s.Col), min(w, w+s.Col)
	if x0 >= x1 || y0 >= y1 {
		return 0
	}
	off := s.Row*w + s.Col
	first, end := y0*w+x0, (y1-1)*w+x1
	dot := dotBytes(a[first:end], b[first-off:end-off])
	if x1-x0 < w {
		for y := y0; y < y1-1; y++ {
			for i := y*w + x1; i < (y+1)*w+x0; i++ { // the run's pixels past row y's overlap
				dot -= int64(a[i]) * int64(b[i-off])
			}
		}
	}
	return dot
}
