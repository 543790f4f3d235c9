//go:build !amd64

package gemm

// kernels and wide are false off amd64: gemm is gonum's Sgemm throughout.
var kernels, wide = false, false

func axpy4x16(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func dot2x4(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func axpy4x32(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func dot2x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func dot4x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func axpy12x32(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}

func dot6x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int) {
	panic("gemm: no assembly kernels on this architecture")
}
