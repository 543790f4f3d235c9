package gemm

import "golang.org/x/sys/cpu"

// kernels tells whether gemm uses the AVX2+FMA assembly kernels of gemm_amd64.s.
var kernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA

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
