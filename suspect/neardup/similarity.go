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

// simScratch is one goroutine's buffers for Similarity: the summed-area tables of the two
// images, and which image the first one is of (so a run of pairs sharing their first image
// computes its table once).
type simScratch struct {
	ea, eb []int64
	keyA   int // the image whose table ea holds (−1: none)
}

// similarity is Similarity with sc's buffers; keyA names a's image so that its table is kept
// for the next pair with the same keyA (−1: a is not named, its table is computed).
func (sc *simScratch) similarity(a, b []byte, h, w int, oa, ob Offset, keyA int) (float64, Shift) {
	if n := (h + 1) * (w + 1); len(sc.ea) != n {
		sc.ea, sc.eb, sc.keyA = make([]int64, n), make([]int64, n), -1
	}
	if keyA < 0 || keyA != sc.keyA {
		energies(sc.ea, a, h, w)
		sc.keyA = keyA
	}
	energies(sc.eb, b, h, w)
	ea, eb := sc.ea, sc.eb
	na, nb := ea[h*(w+1)+w], eb[h*(w+1)+w]
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
		oa := rectEnergy(ea, w, y0, y1, x0, x1)
		ob := rectEnergy(eb, w, y0-s.Row, y1-s.Row, x0-s.Col, x1-s.Col)
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

// energies fills t ((h+1)×(w+1)) with the summed-area table of p's squared pixels: entry
// (y, x) is Σ p² over rows < y and columns < x.
func energies(t []int64, p []byte, h, w int) {
	for x := range w + 1 {
		t[x] = 0
	}
	for y := range h {
		t[(y+1)*(w+1)] = 0
		var row int64
		for x := range w {
			v := int64(p[y*w+x])
			row += v * v
			t[(y+1)*(w+1)+x+1] = t[y*(w+1)+x+1] + row
		}
	}
}

// rectEnergy is the energy of rows y0…y1−1 and columns x0…x1−1 from a summed-area table.
func rectEnergy(t []int64, w, y0, y1, x0, x1 int) int64 {
	s := w + 1
	return t[y1*s+x1] - t[y0*s+x1] - t[y1*s+x0] + t[y0*s+x0]
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
			g0, g1 := y*w+x1, (y+1)*w+x0 // the run's pixels past row y's overlap
			dot -= dotBytes(a[g0:g1], b[g0-off:g1-off])
		}
	}
	return dot
}
