package gemm

import "golang.org/x/sys/cpu"

// kernels tells whether gemm uses the AVX2+FMA assembly kernels of gemm_amd64.s; wide whether,
// with them, it uses their AVX-512 versions (axpy12x32, axpy4x32, dot2x4x16, dot6x4x16,
// dot4x4x16) where the shapes allow.
var (
	kernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	wide    = kernels && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL
)

// axpy4x16 computes a 4×16 block of C = A·B: C[r·ldc+j] = Σ_p A(r,p)·b[p·ldb+j] for r < 4,
// j < 16, p < k, where A(r,p) = a[r·ai + p·ap] (so A may be stored transposed). Strides are in
// elements; nothing is bounds-checked (gemm checks the whole matrices).
//
//go:noescape
func axpy4x16(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int)

// dot2x4 computes a 2×4 block of C = A·Bᵀ: C[r·ldc+s] = Σ_p a[r·lda+p]·b[s·ldb+p] for r < 2,
// s < 4, p < k; k must be a positive multiple of 8. Strides are in elements; nothing is
// bounds-checked (gemm checks the whole matrices).
//
//go:noescape
func dot2x4(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)

// axpy4x32 is axpy4x16 for a 4×32 block (AVX-512), each element computed by the same sequence
// of fused multiply-adds.
//
//go:noescape
func axpy4x32(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int)

// dot2x4x16 is dot2x4 sixteen values of k at a time (AVX-512); k must be a positive multiple of
// 16. Its sums are ordered differently from dot2x4's.
//
//go:noescape
func dot2x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)

// dot4x4x16 computes a 4×4 block of C = A·Bᵀ as dot2x4x16 computes its 2×4 blocks (the same
// bits for each element); k must be a positive multiple of 16.
//
//go:noescape
func dot4x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)

// axpy12x32 is axpy4x32 for a 12×32 block (AVX-512), each element computed by the same
// sequence of fused multiply-adds.
//
//go:noescape
func axpy12x32(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int)

// dot6x4x16 computes a 6×4 block of C = A·Bᵀ as dot2x4x16 computes its 2×4 blocks (the same
// bits for each element); k must be a positive multiple of 16.
//
//go:noescape
func dot6x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
