package cnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bothKernels runs test with the Go kernels and, where the CPU has them, with the AVX2 ones.
func bothKernels(t *testing.T, test func(*testing.T)) {
	if avx2 {
		t.Run("go kernels", func(t *testing.T) {
			avx2 = false
			defer func() { avx2 = true }()
			test(t)
		})
	}
	t.Run(fmt.Sprintf("avx2 %v", avx2), test)
}

// kernelData returns n values drawn from a few levels (so the pooling windows have ties), half
// of them negative.
func kernelData(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.IntN(9)-4) / 4
	}
	return out
}

// TestKernelsAgree holds each AVX2 kernel to its Go version, bit for bit, on data with ties and
// lengths of one to many steps, and checks both against their definitions.
func TestKernelsAgree(t *testing.T) {
	if !avx2 {
		t.Log("no AVX2 on this CPU: checking the Go kernels alone")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range []int{8, 16, 144, 8 * 144} {
		z := kernelData(rng, 4*p)
		a1, a2 := make([]float32, p), make([]float32, p)
		g1, g2 := make([]int32, p), make([]int32, p)
		poolReLUGo(z, p, 0.25, a1, g1)
		for i := range p {
			m := max(z[i], z[p+i], z[2*p+i], z[3*p+i])
			first := int32(slices.Index([]float32{z[i], z[p+i], z[2*p+i], z[3*p+i]}, m))
			if a1[i] != max(m+0.25, 0) || g1[i] != first {
				t.Fatalf("p %d, position %d: pooled %v at %d, want %v at %d", p, i, a1[i], g1[i], max(m+0.25, 0), first)
			}
		}
		da := kernelData(rng, p)
		dz1, dz2 := make([]float32, 4*p), kernelData(rng, 4*p) // the kernel must overwrite every value
		s1 := unpoolReLUGo(da, a1, g1, dz1, p)
		var want float32
		for i := range p {
			for q := range int32(4) {
				v := float32(0)
				if q == g1[i] && a1[i] > 0 {
					v = da[i]
				}
				if dz1[int(q)*p+i] != v {
					t.Fatalf("p %d, position %d, plane %d: %v, want %v", p, i, q, dz1[int(q)*p+i], v)
				}
			}
			if a1[i] > 0 {
				want += da[i]
			}
		}
		if d := s1 - want; d > 1e-3 || d < -1e-3 {
			t.Fatalf("p %d: bias gradient %v, want %v", p, s1, want)
		}
		if !avx2 {
			continue
		}
		poolReLUAVX2(&z[0], p, 0.25, &a2[0], &g2[0])
		if !slices.Equal(a1, a2) || !slices.Equal(g1, g2) {
			t.Fatalf("p %d: poolReLU's AVX2 and Go versions differ", p)
		}
		if s2 := unpoolReLUAVX2(&da[0], &a1[0], &g1[0], &dz2[0], p); s1 != s2 || !slices.Equal(dz1, dz2) {
			t.Fatalf("p %d: unpoolReLU's AVX2 and Go versions differ (sums %v, %v)", p, s1, s2)
		}
	}
	bothKernels(t, testRuns)
}

// testRuns checks the im2col and col2im runs against their definitions.
func testRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, b := range []int{1, 3, 8} {
		src := kernelData(rng, b*l1)
		want := make([]float32, b*l2)
		for s := range b {
			for y := range q2 {
				copy(want[s*l2+y*4:s*l2+y*4+4], src[s*l1+y*runStride:])
			}
		}
		got := make([]float32, b*l2)
		im2colRuns(got, src, b)
		if !slices.Equal(got, want) {
			t.Fatalf("b %d: im2colRuns %v, want %v", b, got, want)
		}
		img := kernelData(rng, b*Pixels)
		want6 := make([]float32, b*l1)
		for s := range b {
			for y := range q1 {
				copy(want6[s*l1+y*q1:s*l1+y*q1+6], img[s*Pixels+y*2*Side:])
			}
		}
		got6 := make([]float32, b*l1)
		im2colRuns6(got6, img, b)
		if !slices.Equal(got6, want6) {
			t.Fatalf("b %d: im2colRuns6 differs from its definition", b)
		}
		acc, sum := kernelData(rng, b*l1), kernelData(rng, b*l2)
		ref := slices.Clone(acc)
		for s := range b {
			for y := range q2 {
				for x := range 4 {
					ref[s*l1+y*runStride+x] += sum[s*l2+y*4+x]
				}
			}
		}
		col2imRuns(acc, sum, b)
		if !slices.Equal(acc, ref) {
			t.Fatalf("b %d: col2imRuns differs from its definition", b)
		}
	}
}

// TestAdamAndAdd holds the Adam step and the gradient sum to their definitions (float64
// arithmetic, relative error below 1e-5) on both paths, with lengths that leave a remainder.
func TestAdamAndAdd(t *testing.T) { bothKernels(t, testAdamAndAdd) }

func testAdamAndAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 8*5 + 3
	rnd := func() []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(rng.NormFloat64())
		}
		return out
	}
	p, g0, g1, m, v := rnd(), rnd(), rnd(), rnd(), rnd()
	for i := range v {
		v[i] *= v[i]
	}
	c := adamConsts{b1: 0.9, c1: 0.1, b2: 0.999, c2: 0.001, step: 0.01, sqrtBC2: 0.3, eps: 1e-8}
	want := make([]float64, n)
	for i := range n {
		g := float64(g0[i]) + float64(g1[i])
		mi := 0.9*float64(m[i]) + 0.1*g
		vi := 0.999*float64(v[i]) + 0.001*g*g
		want[i] = float64(p[i]) - 0.01*mi/(math.Sqrt(vi)/0.3+1e-8)
	}
	adamUpdate(p, g0, g1, m, v, &c)
	for i := range n {
		if d := math.Abs(float64(p[i]) - want[i]); d > 1e-5*(1+math.Abs(want[i])) {
			t.Fatalf("parameter %d: %v, want %v", i, p[i], want[i])
		}
	}
	sum := slices.Clone(g0)
	addTo(sum, g1)
	for i := range n {
		if sum[i] != g0[i]+g1[i] {
			t.Fatalf("sum %d: %v, want %v", i, sum[i], g0[i]+g1[i])
		}
	}
}
