package neardup

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/suspect/nn"
)

// TestShiftedDotIsTheDirectSum: shiftedDot (one run of bytes less the pixels between rows)
// equals the sum over the overlap pixel by pixel, for every shift that leaves an overlap and
// some that do not, on images of several sizes with random and saturated pixels.
func TestShiftedDotIsTheDirectSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sz := range [][2]int{{28, 28}, {1, 40}, {40, 1}, {5, 17}, {33, 31}} {
		h, w := sz[0], sz[1]
		a, b := make([]byte, h*w), make([]byte, h*w)
		for trial := range 3 {
			for i := range a {
				a[i], b[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
				if trial == 2 {
					a[i], b[i] = 255, 255
				}
			}
			for r := -h - 1; r <= h+1; r++ {
				for c := -w - 1; c <= w+1; c++ {
					var want int64
					for y := range h {
						for x := range w {
							if yb, xb := y-r, x-c; yb >= 0 && yb < h && xb >= 0 && xb < w {
								want += int64(a[y*w+x]) * int64(b[yb*w+xb])
							}
						}
					}
					if got := shiftedDot(a, b, h, w, Shift{r, c}); got != want {
						t.Fatalf("%d×%d shift (%d,%d): %d, want %d", h, w, r, c, got, want)
					}
				}
			}
		}
	}
}

// TestDotKernelIsDotGo: the kernel's sum is the Go one's for every length up to 300 and the
// longest run (dotRun bytes of 255).
func TestDotKernelIsDotGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a, b := make([]byte, dotRun), make([]byte, dotRun)
	for n := range 301 {
		for i := range n {
			a[i], b[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
		}
		if got, want := dotKernel(a[:n], b[:n]), dotGo(a[:n], b[:n]); got != want {
			t.Fatalf("%d bytes: %d, want %d", n, got, want)
		}
	}
	for i := range a {
		a[i], b[i] = 255, 255
	}
	if got, want := dotBytes(a, b), int64(dotRun)*255*255; got != want {
		t.Fatalf("%d bytes of 255: %d, want %d", dotRun, got, want)
	}
}

// BenchmarkSimilarity: one shift-aligned similarity of two noisy 28×28 images whose centres of
// mass differ (18 shifts tried), as the duplicates' verification computes it.
func BenchmarkSimilarity(b *testing.B) {
	rng := rand.New(rand.NewPCG(15, 16))
	a, c := make([]byte, 784), make([]byte, 784)
	for i := range a {
		a[i], c[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
	}
	var sc simScratch
	for b.Loop() {
		sc.similarity(a, c, 28, 28, Offset{}, Offset{Row: 2, Col: 2}, 0)
	}
}

// TestEnergyRectIsTheDirectSum: an image's energy over any rectangle, from its row and column
// sums, is the sum of its squared pixels there.
func TestEnergyRectIsTheDirectSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, sz := range [][2]int{{28, 28}, {1, 9}, {9, 1}, {6, 11}} {
		h, w := sz[0], sz[1]
		p := make([]byte, h*w)
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		var e energy
		e.fill(p, h, w)
		for y0 := 0; y0 <= h; y0++ {
			for y1 := y0; y1 <= h; y1++ {
				for x0 := 0; x0 <= w; x0++ {
					for x1 := x0; x1 <= w; x1++ {
						var want int64
						for y := y0; y < y1; y++ {
							for x := x0; x < x1; x++ {
								want += int64(p[y*w+x]) * int64(p[y*w+x])
							}
						}
						if got := e.rect(p, y0, y1, x0, x1); got != want {
							t.Fatalf("%d×%d rows %d–%d columns %d–%d: %d, want %d", h, w, y0, y1, x0, x1, got, want)
						}
					}
				}
			}
		}
	}
}

// TestDistinctPairsIsTheSortedSet: distinctPairs gives the sorted set of (min, max) pairs of a
// graph's slots within the distance (a graph with repeated, missing and far neighbours), and
// each such slot's place in it.
func TestDistinctPairsIsTheSortedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const n, k = 300, 6
	g := &nn.Graph{K: k, Idx: make([]int32, n*k), Dist: make([]float32, n*k)}
	for slot := range g.Idx {
		g.Idx[slot], g.Dist[slot] = int32(rng.IntN(n)), float32(rng.Float64())
		if rng.IntN(10) == 0 {
			g.Idx[slot] = -1
		}
	}
	const maxDist = 0.7
	cand, at := distinctPairs(g, maxDist)
	var want [][2]int32
	for slot, j := range g.Idx {
		if i := int32(slot / k); j >= 0 && g.Dist[slot] <= maxDist {
			want = append(want, [2]int32{min(i, j), max(i, j)})
		}
	}
	slices.SortFunc(want, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	want = slices.Compact(want)
	if !slices.Equal(cand, want) {
		t.Fatalf("%d pairs, want %d", len(cand), len(want))
	}
	for slot, j := range g.Idx {
		i := int32(slot / k)
		if j < 0 || g.Dist[slot] > maxDist {
			if at[slot] != -1 {
				t.Fatalf("slot %d (far or empty) at %d", slot, at[slot])
			}
			continue
		}
		if c := cand[at[slot]]; c != [2]int32{min(i, j), max(i, j)} {
			t.Fatalf("slot %d (%d, %d) at %v", slot, i, j, c)
		}
	}
}
