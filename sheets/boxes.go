package sheets

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// readBoxes cuts every box the layout reads out of the page and finds its lines, reads what
// lies inside each (analyse), decides which boxes' ink crosses into a neighbour (crossings),
// and makes the rest samples or empty boxes, on every CPU. The lines' usual width is the
// median over the sheet, so a box whose line merges with a stroke keeps its stroke.
func readBoxes(ctx context.Context, s *Sheet, p *page, gr *grid, full func(u, v float64) Point, o Options) error {
	l := s.Layout
	s.Boxes = make([]Box, l.Boxes())
	for r := range l.Rows {
		for c := range l.Cols {
			b := &s.Boxes[r*l.Cols+c]
			b.Row, b.Col, b.Label = r, c, l.Label(r, c)
			s0, s1, t0, t1 := gr.us[c], gr.us[c+1], gr.vs[r], gr.vs[r+1]
			b.Corners = [4]Point{full(s0, t0), full(s1, t0), full(s1, t1), full(s0, t1)}
			b.State = Empty
			if b.Label == Skip {
				b.State = Skipped
			}
		}
	}
	crops := make([]*crop, len(s.Boxes))
	err := parallel(ctx, len(s.Boxes), func(i int) {
		b := &s.Boxes[i]
		if b.State == Skipped {
			return
		}
		s0, s1, t0, t1 := gr.us[b.Col], gr.us[b.Col+1], gr.vs[b.Row], gr.vs[b.Row+1]
		crops[i] = cropBox(p, full, s0, s1, t0, t1)
		crops[i].findLines()
	})
	if err != nil {
		return err
	}
	var widths []float64
	for _, c := range crops {
		if c != nil {
			for _, w := range c.width {
				if w > 0 {
					widths = append(widths, w)
				}
			}
		}
	}
	usual := 0.0
	if len(widths) > 0 {
		slices.Sort(widths)
		usual = widths[len(widths)/2]
	}
	// Each box read and made a sample at once, its crop released: what is kept for deciding
	// crossings is a few bytes a pixel of its sides.
	ins := make([]*inside, len(s.Boxes))
	if err := parallel(ctx, len(s.Boxes), func(i int) {
		if crops[i] != nil {
			ins[i] = analyse(crops[i], usual, o)
			crops[i] = nil
		}
	}); err != nil {
		return err
	}
	for i := range s.Boxes {
		in := ins[i]
		if in == nil || in.empty {
			continue
		}
		b := &s.Boxes[i]
		if b.State == Flagged { // flagged already, from its neighbour's side
			continue
		}
		note, side := crossings(s, i, ins)
		if note == "" {
			if in.digit != nil {
				b.State, b.Sample = Filled, in.digit
			}
			continue
		}
		b.State, b.Sample, b.Note = Flagged, nil, note
		// The stroke crossing the line is in both boxes: the neighbour's ink is cut too.
		if j, ok := beside(b, side, s.Layout); ok && ins[j] != nil && !ins[j].empty && s.Boxes[j].State != Flagged {
			nb := &s.Boxes[j]
			nb.State, nb.Sample = Flagged, nil
			nb.Note = fmt.Sprintf("ink crosses its %s line (from row %d, column %d)", sideName[opposite(side)], b.Row, b.Col)
		}
	}
	for _, b := range s.Boxes {
		switch b.State {
		case Filled:
			s.Counts.Filled++
		case Empty:
			s.Counts.Empty++
		case Flagged:
			s.Counts.Flagged++
		}
		if b.State != Skipped {
			s.Counts.Read++
		}
	}
	return nil
}

// parallel calls work(i) for i in 0 … n−1 on every CPU; ctx's error when it was cancelled.
func parallel(ctx context.Context, n int, work func(i int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				work(i)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// opposite returns the side facing s across a line.
func opposite(s int) int { return (s + 2) % 4 }

// crossings decides whether the ink of box i crosses one of its lines and returns a note
// saying which, and the side, or "". Across a line between two boxes read, the ink of both touching the line
// at the same place (within 3 pixels) is a stroke crossing it, unless it is two digits that
// happen to touch the line at one place (twoDigits); so is ink just past the line where this
// box's ink touches it (crop.beyond) when the neighbour holds none there (a short overshoot,
// cleared on its side as the line's edge), or when what touches the line is a piece apart from
// this box's digit (the end of a stroke from beyond). Across the grid's outline, or into a box
// the layout skips, ink just past the line is a crossing.
func crossings(s *Sheet, i int, ins []*inside) (string, int) {
	l := s.Layout
	b := &s.Boxes[i]
	a := ins[i]
	for side := range 4 {
		if !slices.Contains(a.touch[side], true) {
			continue
		}
		j, inGrid := beside(b, side, l)
		if !inGrid || ins[j] == nil {
			if a.past[side] {
				return fmt.Sprintf("ink crosses its %s line%s", sideName[side], neighbour(b, side, l)), side
			}
			continue
		}
		nb := ins[j]
		// A piece of ink at the line that is not part of the box's digit, with ink going on
		// past the line: the end of a stroke from beyond (its body may hide at the line on the
		// far side, cleared there as the line's edge).
		if a.past[side] && a.reach[side] == 0 {
			return fmt.Sprintf("ink crosses its %s line%s", sideName[side], neighbour(b, side, l)), side
		}
		other := nb.touch[opposite(side)]
		if !slices.Contains(other, true) {
			// Ink past the line where the neighbour holds none near it: a short stroke beyond
			// the line, cleared on that side as the line's edge or a speck.
			if a.past[side] && !holdsNear(a, side, nb) {
				return fmt.Sprintf("ink crosses its %s line%s", sideName[side], neighbour(b, side, l)), side
			}
			continue
		}
		// The neighbour's touches, in this box's positions along the line.
		contact := false
		for k, t := range a.touch[side] {
			if !t {
				continue
			}
			kk := alongIn(a, nb, side, k)
			near := int(3 * nb.f) // 3 crop pixels, in the neighbour's inside's pixels
			for d := -near; d <= near && !contact; d++ {
				if q := kk + d; q >= 0 && q < len(other) && other[q] {
					contact = true
				}
			}
			if contact {
				break
			}
		}
		if !contact {
			continue
		}
		if twoDigits(a, side, nb) {
			continue
		}
		return fmt.Sprintf("ink crosses its %s line%s", sideName[side], neighbour(b, side, l)), side
	}
	return "", 0
}

// twoDigits reports whether the ink of box a touching its side and that of its neighbour b
// touching the same line are each its own box's digit: each box's largest shape, reaching at
// least ownReach of the box away from the line, the two at least half each other's reach and
// size. A stroke that crosses the line leaves a smaller piece on the far side.
func twoDigits(a *inside, side int, b *inside) bool {
	ra, rb := a.reach[side], b.reach[opposite(side)]
	if ra < ownReach*a.side || rb < ownReach*b.side {
		return false
	}
	return 2*min(ra, rb) >= max(ra, rb) && 2*min(a.mainN, b.mainN) >= max(a.mainN, b.mainN)
}

// holdsNear reports whether the neighbour nb holds ink of its own within the reach of a's test
// for ink past their line (crop.beyond: crossShare of the box, and a few pixels for the line's
// edge), within that distance too along the line of where a's ink touches it: then the ink
// past the line may be nb's digit, leaning toward a's stroke, rather than a's stroke going on.
func holdsNear(a *inside, side int, nb *inside) bool {
	span := crossShare*nb.side + 8*nb.f // the neighbour's inside's pixels
	reach, along := int32(span), int(span)
	near := nb.near[opposite(side)]
	for k, t := range a.touch[side] {
		if !t {
			continue
		}
		kk := alongIn(a, nb, side, k)
		for q := max(0, kk-along); q <= min(len(near)-1, kk+along); q++ {
			if near[q] < reach {
				return true
			}
		}
	}
	return false
}

var sideName = [4]string{"top", "right", "bottom", "left"}

// alongIn converts position k along side of box a's inside to the same place along the facing
// side of its neighbour's inside (crops of one row, or of one column, cover the same span of
// the grid, so a fraction of one crop is the same fraction of the other).
func alongIn(a, b *inside, side, k int) int {
	pos := (float64(k) + 0.5) / a.f // crop pixels from the inside's start
	if side == top || side == bottom {
		f := (float64(a.x0) + pos) / float64(a.cw)
		return int(math.Floor((f*float64(b.cw) - float64(b.x0)) * b.f))
	}
	f := (float64(a.y0) + pos) / float64(a.ch)
	return int(math.Floor((f*float64(b.ch) - float64(b.y0)) * b.f))
}

// beside returns the index of the box beyond side s of b (row-major), and false when that is
// outside the grid.
func beside(b *Box, s int, l *Layout) (int, bool) {
	r, c := b.Row, b.Col
	switch s {
	case top:
		r--
	case bottom:
		r++
	case left:
		c--
	default:
		c++
	}
	return r*l.Cols + c, r >= 0 && c >= 0 && r < l.Rows && c < l.Cols
}

// neighbour names the box beyond side s of b, or the grid's edge.
func neighbour(b *Box, s int, l *Layout) string {
	j, ok := beside(b, s, l)
	if !ok {
		return " out of the grid"
	}
	return fmt.Sprintf(" into row %d, column %d", j/l.Cols, j%l.Cols)
}
