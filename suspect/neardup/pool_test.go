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
