package cnn

import "math"

// The layers' elementwise loops. Each has a Go version, and an AVX2 version (kernels_amd64.s)
// that the wrappers call where the CPU has AVX2 and the lengths suit it; both are
// deterministic, and the tests hold them to the same results.

// poolReLU max-pools the four window planes of z (4×p values, plane stride p) into a (p values):
// a[i] = max(m + bias, 0), m the largest of the four z values at i, and arg[i] its plane (0–3,
// the first on ties). Adding the bias after the maximum gives what pooling after it would.
func poolReLU(z []float32, p int, bias float32, a []float32, arg []int32) {
	z, a, arg = z[:4*p], a[:p], arg[:p]
	if avx2 && p%8 == 0 && p > 0 {
		poolReLUAVX2(&z[0], p, bias, &a[0], &arg[0])
		return
	}
	poolReLUGo(z, p, bias, a, arg)
}

func poolReLUGo(z []float32, p int, bias float32, a []float32, arg []int32) {
	z0, z1, z2, z3 := z[:p], z[p:2*p], z[2*p:3*p], z[3*p:4*p]
	for i := range a {
		m, at := z0[i], int32(0)
		if v := z1[i]; v > m {
			m, at = v, 1
		}
		if v := z2[i]; v > m {
			m, at = v, 2
		}
		if v := z3[i]; v > m {
			m, at = v, 3
		}
		a[i], arg[i] = max(m+bias, 0), at
	}
}

// unpoolReLU routes the pooled gradient da (p values) back through poolReLU: dz (4 planes of p)
// gets da[i] in plane arg[i] where a[i] > 0, and 0 elsewhere. It returns the sum of what it
// routed (the gradient of the bias), summed in 8 interleaved partial sums (lane i mod 8) added
// pairwise at the end, as the AVX2 version does.
func unpoolReLU(da, a []float32, arg []int32, dz []float32, p int) float32 {
	da, a, arg, dz = da[:p], a[:p], arg[:p], dz[:4*p]
	if avx2 && p%8 == 0 && p > 0 {
		return unpoolReLUAVX2(&da[0], &a[0], &arg[0], &dz[0], p)
	}
	return unpoolReLUGo(da, a, arg, dz, p)
}

func unpoolReLUGo(da, a []float32, arg []int32, dz []float32, p int) float32 {
	z0, z1, z2, z3 := dz[:p], dz[p:2*p], dz[2*p:3*p], dz[3*p:4*p]
	var lanes [8]float32
	for i, v := range da {
		if !(a[i] > 0) {
			v = 0
		}
		lanes[i%8] += v
		z0[i], z1[i], z2[i], z3[i] = 0, 0, 0, 0
		switch arg[i] {
		case 0:
			z0[i] = v
		case 1:
			z1[i] = v
		case 2:
			z2[i] = v
		case 3:
			z3[i] = v
		}
	}
	return sum8(lanes)
}

// sum8 adds 8 partial sums as the AVX2 kernels fold a vector: halves, then pairs, then the two.
func sum8(l [8]float32) float32 {
	h := [4]float32{l[0] + l[4], l[1] + l[5], l[2] + l[6], l[3] + l[7]}
	return (h[0] + h[1]) + (h[2] + h[3])
}

// Runs of the second convolution's im2col: for each of b samples, 4 rows of 4 values, read from
// (or summed into) a1's layout (a sample every l1 values, a row every 2·q1 values).
const (
	runStride = 2 * q1 // a1 values between the runs of successive output rows Y
)

// im2colRuns copies, for each of b samples s, the 4 runs src[s·l1 + y·24 …+4] (y < 4) into
// dst[s·16 + y·4 …+4].
func im2colRuns(dst, src []float32, b int) {
	if b <= 0 {
		return
	}
	dst, src = dst[:b*l2], src[:(b-1)*l1+3*runStride+4]
	if avx2 {
		im2colRunsAVX2(&dst[0], &src[0], b)
		return
	}
	for s := range b {
		d, v := dst[s*l2:], src[s*l1:]
		for y := range q2 {
			*(*[4]float32)(d[y*4:]) = *(*[4]float32)(v[y*runStride:])
		}
	}
}

// col2imRuns is im2colRuns' sum: dst[s·l1 + y·24 …+4] += src[s·16 + y·4 …+4], one float32
// addition per value, in the same order on every path.
func col2imRuns(dst, src []float32, b int) {
	if b <= 0 {
		return
	}
	dst, src = dst[:(b-1)*l1+3*runStride+4], src[:b*l2]
	if avx2 {
		col2imRunsAVX2(&dst[0], &src[0], b)
		return
	}
	for s := range b {
		d, v := dst[s*l1:], src[s*l2:]
		for y := range q2 {
			dd, vv := (*[4]float32)(d[y*runStride:]), (*[4]float32)(v[y*4:])
			dd[0] += vv[0]
			dd[1] += vv[1]
			dd[2] += vv[2]
			dd[3] += vv[3]
		}
	}
}

// im2colRuns6 copies, for each of b samples s, the 12 runs src[s·784 + y·56 …+6] (y < 12: every
// other input row) into dst[s·144 + y·12 …+6]: one window plane's half of the first
// convolution's im2col row.
func im2colRuns6(dst, src []float32, b int) {
	if b <= 0 {
		return
	}
	dst, src = dst[:(b-1)*l1+11*q1+6], src[:(b-1)*Pixels+11*2*Side+6]
	if avx2 {
		im2colRuns6AVX2(&dst[0], &src[0], b)
		return
	}
	for s := range b {
		d, v := dst[s*l1:], src[s*Pixels:]
		for y := range q1 {
			*(*[6]float32)(d[y*q1:]) = *(*[6]float32)(v[y*2*Side:])
		}
	}
}

// addTo adds src to dst, elementwise (len(src) values).
func addTo(dst, src []float32) {
	n := len(src)
	dst = dst[:n]
	done := 0
	if avx2 && n >= 8 {
		done = n / 8 * 8
		addAVX2(&dst[0], &src[0], done)
	}
	for i := done; i < n; i++ {
		dst[i] += src[i]
	}
}

// adamConsts are one Adam step's factors: β1 and c1 = 1 − β1, β2 and c2 = 1 − β2, the step
// size (learning rate / (1 − β1^t)), √(1 − β2^t) and ε. The AVX2 kernel reads them in this order.
type adamConsts struct {
	b1, c1, b2, c2, step, sqrtBC2, eps float32
}

// adamUpdate applies one Adam step to each parameter i with gradient g = g0[i] + g1[i]:
// m = β1·m + (1−β1)·g, v = β2·v + (1−β2)·g·g, p −= step·m / (√v/√(1−β2^t) + ε).
func adamUpdate(p, g0, g1, m, v []float32, c *adamConsts) {
	n := len(p)
	g0, g1, m, v = g0[:n], g1[:n], m[:n], v[:n]
	done := 0
	if avx2 && n >= 8 {
		done = n / 8 * 8
		adamAVX2(&p[0], &g0[0], &g1[0], &m[0], &v[0], done, c)
	}
	for i := done; i < n; i++ {
		g := g0[i] + g1[i]
		mi := c.b1*m[i] + c.c1*g
		vi := c.b2*v[i] + c.c2*g*g
		m[i], v[i] = mi, vi
		p[i] -= c.step * mi / (float32(math.Sqrt(float64(vi)))/c.sqrtBC2 + c.eps)
	}
}
