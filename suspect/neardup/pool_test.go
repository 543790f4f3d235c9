package neardup

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// poolDirect is pool as its comment states it, pixel by pixel (the reference for the
// separable passes).
func poolDirect(b *Basis, px []byte) []float32 {
	h, w := b.H, b.W
	dy, dx, _ := centring(px, h, w)
	fy, fx := math.Floor(dy), math.Floor(dx)
	iy, ix := int(fy), int(fx)
	wy, wx := int32(math.Round((dy-fy)*16)), int32(math.Round((dx-fx)*16))
	at := func(y, x int) int32 {
		if y < 0 || y >= h || x < 0 || x >= w {
			return 0
		}
		return int32(px[y*w+x])
	}
	shifted := make([]int32, h*w)
	for y := range h {
		for x := range w {
			sy, sx := y-iy, x-ix
			top := (16-wx)*at(sy, sx) + wx*at(sy, sx-1)
			bot := (16-wx)*at(sy-1, sx) + wx*at(sy-1, sx-1)
			shifted[y*w+x] = (16-wy)*top + wy*bot
		}
	}
	blurred := make([]int32, h*w)
	for y := range h {
		for x := range w {
			for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
					blurred[y*w+x] += shifted[yy*w+xx]
				}
			}
		}
	}
	out := make([]float32, b.ph*b.pw)
	var norm float64
	for py := range b.ph {
		for qx := range b.pw {
			var s int64
			for yy := 2 * py; yy < min(h, 2*py+2); yy++ {
				for xx := 2 * qx; xx < min(w, 2*qx+2); xx++ {
					s += int64(blurred[yy*w+xx])
				}
			}
			out[py*b.pw+qx] = float32(s)
			norm += float64(s) * float64(s)
		}
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for k := range out {
			out[k] *= inv
		}
	}
	return out
}

// TestPoolIsTheDirectFormula checks pool's separable passes against the pixel-by-pixel
// formula, bit for bit: real t10k digits, copies of them shifted far and with noise
// (mnisttest.Augmented), blank, full and random images, and an odd size (27×13).
func TestPoolIsTheDirectFormula(t *testing.T) {
	images, labels := mnisttest.Load(t)
	aug, _, err := mnisttest.Augmented(images, labels, 12000, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(h, w int, imgs [][]byte) {
		d := sample.Set{N: len(imgs), H: h, W: w, Pixels: func(i int) []byte { return imgs[i] }}
		b, err := FitBasis(context.Background(), d, 1)
		if err != nil {
			t.Fatal(err)
		}
		sc := newScratch(b)
		for i, px := range imgs {
			b.pool(px, sc)
			want := poolDirect(b, px)
			for k := range want {
				if sc.pooled[k] != want[k] {
					t.Fatalf("%d×%d image %d: pooled value %d is %v, the formula gives %v", h, w, i, k, sc.pooled[k], want[k])
				}
			}
		}
	}
	var imgs [][]byte
	for i := 0; i < 12000; i += 7 {
		imgs = append(imgs, aug.Data[i*784:(i+1)*784])
	}
	corner := make([]byte, 784) // ink in one corner: the centring shift is clamped
	corner[0], corner[1], corner[28] = 255, 200, 90
	full := make([]byte, 784)
	for k := range full {
		full[k] = 255
	}
	imgs = append(imgs, make([]byte, 784), corner, full)
	check(28, 28, imgs)
	var odd [][]byte
	for range 200 {
		px := make([]byte, 27*13)
		for k := range px {
			if rng.IntN(3) == 0 {
				px[k] = byte(rng.IntN(256))
			}
		}
		odd = append(odd, px)
	}
	check(27, 13, odd)
}

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
