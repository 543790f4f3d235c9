//go:build !amd64

package cnn

// avx2 is false off amd64: the kernels are Go throughout.
var avx2 = false

func poolReLUAVX2(z *float32, p int, bias float32, a *float32, arg *int32) {
	panic("cnn: no assembly kernels on this architecture")
}

func unpoolReLUAVX2(da, a *float32, arg *int32, dz *float32, p int) float32 {
	panic("cnn: no assembly kernels on this architecture")
}

func im2colRunsAVX2(dst, src *float32, b int) { panic("cnn: no assembly kernels on this architecture") }

func col2imRunsAVX2(dst, src *float32, b int) { panic("cnn: no assembly kernels on this architecture") }

func im2colRuns6AVX2(dst, src *float32, b int) {
	panic("cnn: no assembly kernels on this architecture")
}

func addAVX2(dst, src *float32, n int) { panic("cnn: no assembly kernels on this architecture") }

func adamAVX2(p, g0, g1, m, v *float32, n int, c *adamConsts) {
	panic("cnn: no assembly kernels on this architecture")
}

func warpAVX2(dst *float32, src *byte, pad *float32, coef *[4]float32, xs, ys *[Pixels]float32) {
	panic("cnn: no assembly kernels on this architecture")
}
