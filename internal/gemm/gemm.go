// Package gemm multiplies float32 matrices for the CNN and the nearest-neighbour searches: AVX2+FMA
// assembly kernels (gemm_amd64.s) where the CPU has them, gonum's Sgemm elsewhere. It never
// imports Fyne.
package gemm

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

var impl gonum.Implementation

// Mul computes C = op(A)·op(B): op(A) m×k, op(B) k×n, C m×n, all row-major float32 with the
// given strides (lda, ldb, ldc in elements); C is overwritten. Where the CPU has AVX2 and FMA
// (kernels), the assembly kernels compute it: 4×16 blocks of C (12×32 and 4×32 with AVX-512) by
// broadcasting op(A) against rows of B when B is not transposed, 2×4 blocks by dot products
// along k when it is (A not transposed, k a multiple of 8; with AVX-512 and k a multiple of 16,
// sixteen values of k at a time, in 6×4 and 4×4 blocks); everything else is gonum's Sgemm.
// Each element of C is computed by the same sequence of operations wherever it sits (4×16,
// 4×32 and 12×32 blocks run the same chain of fused multiply-adds, 2×4, 4×4 and 6×4 dot blocks
// the same sums; edge blocks run the kernel on a zero-padded copy of B's last columns, overlap
// the block before them, or run with a row stride of 0 into a scratch block), so a row of C
// does not depend on the other rows of A it is computed with: a network's output for one
// sample has the same bits alone as in a batch. Kernels and gonum round differently; each is
// deterministic. ConjTrans is Trans (the matrices are real). It panics if a slice is too short
// for its shape (a bug in the caller: shapes come from the program, never from input).
func Mul(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	tA, tB = realTrans(tA), realTrans(tB)
	checkLen("A", a, tA, m, k, lda)
	checkLen("B", b, tB, k, n, ldb)
	checkLen("C", c, blas.NoTrans, m, n, ldc)
	switch {
	case kernels && k > 0 && tB == blas.NoTrans:
		axpyBlocks(tA, m, n, k, a, lda, b, ldb, c, ldc)
	case kernels && k > 0 && k%8 == 0 && tA == blas.NoTrans:
		dotBlocks(m, n, k, a, lda, b, ldb, c, ldc)
	default:
		serial(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	}
}

// axpyBlocks computes C = op(A)·B with axpy12x32 and then axpy4x32 (where wide) on panels of
// 32 columns, and axpy4x16 on the rest. The last panel, when it has fewer than 16 columns, is
// copied into a zero-padded k×16 panel, and its blocks are computed into a scratch block (a
// 16-wide store would run past C's row); the last rows, when fewer than 4 are left, one at a
// time (row stride 0: the kernel computes the row four times).
func axpyBlocks(tA blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ai, ap := lda, 1 // A(i,p) = a[i·ai + p·ap]
	if tA == blas.Trans {
		ai, ap = 1, lda
	}
	var tmp [4 * 32]float32
	for j := 0; j < n; {
		if wide && n-j >= 32 {
			i := 0
			for ; i+12 <= m; i += 12 { // B's panel is loaded a third as often as by 4 rows
				axpy12x32(k, &a[i*ai], ai, ap, &b[j], ldb, &c[i*ldc+j], ldc)
			}
			for ; i < m; i += 4 {
				if i+4 <= m {
					axpy4x32(k, &a[i*ai], ai, ap, &b[j], ldb, &c[i*ldc+j], ldc)
					continue
				}
				for r := i; r < m; r++ {
					axpy4x32(k, &a[r*ai], 0, ap, &b[j], ldb, &tmp[0], 32)
					copy(c[r*ldc+j:r*ldc+j+32], tmp[:32])
				}
			}
			j += 32
			continue
		}
		cols := min(16, n-j)
		bj, ldbj := b[j:], ldb
		if cols < 16 {
			bj, ldbj = make([]float32, k*16), 16
			for p := range k {
				copy(bj[p*16:p*16+cols], b[p*ldb+j:])
			}
		}
		for i := 0; i < m; i += 4 {
			if i+4 <= m && cols == 16 {
				axpy4x16(k, &a[i*ai], ai, ap, &bj[0], ldbj, &c[i*ldc+j], ldc)
				continue
			}
			if i+4 <= m { // four rows into the scratch block, then their first cols columns
				axpy4x16(k, &a[i*ai], ai, ap, &bj[0], ldbj, &tmp[0], 16)
				for r := range 4 {
					copy(c[(i+r)*ldc+j:(i+r)*ldc+j+cols], tmp[r*16:r*16+cols])
				}
				continue
			}
			for r := i; r < m; r++ {
				axpy4x16(k, &a[r*ai], 0, ap, &bj[0], ldbj, &tmp[0], 16)
				copy(c[r*ldc+j:r*ldc+j+cols], tmp[:cols])
			}
		}
		j += 16
	}
}

// dotBlocks computes C = A·Bᵀ (k a multiple of 8) with dot2x4 in 2×4 blocks or, when wide and
// k is a multiple of 16, with dot6x4x16 in 6×4 blocks, then dot4x4x16 in 4×4 blocks, and
// dot2x4x16 (the same bits) for the rest. When n is not a multiple of 4, the wide blocks' last
// one overlaps the one before it (recomputing some columns, to the same bits). An edge block
// is computed a column at a time, and a lone last row with row stride 0, into a scratch block.
func dotBlocks(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	dot := dot2x4
	i0 := 0 // the rows done by 6×4 and 4×4 blocks
	if wide && k%16 == 0 && n >= 4 {
		dot = dot2x4x16
		block := func(kernel func(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)) {
			for j := 0; j < n; j += 4 {
				j = min(j, n-4)
				kernel(k, &a[i0*lda], lda, &b[j*ldb], ldb, &c[i0*ldc+j], ldc)
			}
		}
		for ; i0+6 <= m; i0 += 6 {
			block(dot6x4x16)
		}
		for ; i0+4 <= m; i0 += 4 {
			block(dot4x4x16)
		}
	} else if wide && k%16 == 0 {
		dot = dot2x4x16
	}
	if i0 < m {
		dotEdge(dot, m-i0, 0, n, k, a[i0*lda:], lda, b, ldb, c[i0*ldc:], ldc)
	}
}

// dotEdge computes C = A·Bᵀ for the first m rows and columns j0…n−1 with dot (2×4 blocks).
func dotEdge(dot func(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int), m, j0, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	var tmp [2 * 4]float32
	for i := 0; i < m; i += 2 {
		rows, sa := min(2, m-i), lda
		if rows < 2 {
			sa = 0
		}
		for j := j0; j < n; j += 4 {
			if rows == 2 && j+4 <= n {
				dot(k, &a[i*lda], lda, &b[j*ldb], ldb, &c[i*ldc+j], ldc)
				continue
			}
			for q := j; q < min(j+4, n); q++ {
				dot(k, &a[i*lda], sa, &b[q*ldb], 0, &tmp[0], 4)
				for r := range rows {
					c[(i+r)*ldc+q] = tmp[r*4]
				}
			}
		}
	}
}

// serial calls gonum's Sgemm in column panels (row panels for the transposed-A case) narrow
// enough that gonum runs each serially: the parallelism is the caller's (a batch's two shards),
// and gonum's per-call goroutines would only add scheduling.
func serial(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	const panel = 3 * 64 // gonum goes parallel from 4 blocks of 64×64
	if m > panel {
		for i := 0; i < m; i += panel {
			rows := min(panel, m-i)
			var ai []float32
			if tA == blas.Trans {
				ai = a[i:]
			} else {
				ai = a[i*lda:]
			}
			serial(tA, tB, rows, n, k, ai, lda, b, ldb, c[i*ldc:], ldc)
		}
		return
	}
	const width = 64 // with m ≤ 192: at most 3 blocks
	for j := 0; j < n; j += width {
		cols := min(width, n-j)
		var bj []float32
		if tB == blas.Trans {
			bj = b[j*ldb:]
		} else {
			bj = b[j:]
		}
		impl.Sgemm(tA, tB, m, cols, k, 1, a, lda, bj, ldb, 0, c[j:], ldc)
	}
}

// realTrans maps ConjTrans to Trans, which it is for real matrices (and panics on anything but
// the three transpose values, which would otherwise index the matrix as if not transposed).
func realTrans(t blas.Transpose) blas.Transpose {
	switch t {
	case blas.NoTrans, blas.Trans:
		return t
	case blas.ConjTrans:
		return blas.Trans
	}
	panic(fmt.Sprintf("gemm: transpose %d", t))
}

// checkLen panics unless x holds a rows×cols matrix (cols×rows stored, when t is Trans) with row
// stride ld: the assembly kernels do not check bounds, so gemm checks them once per call.
func checkLen(name string, x []float32, t blas.Transpose, rows, cols, ld int) {
	if t == blas.Trans {
		rows, cols = cols, rows
	}
	if rows == 0 || cols == 0 {
		return
	}
	if ld < cols || len(x) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("gemm: %s is %d values, too few for %d×%d with stride %d", name, len(x), rows, cols, ld))
	}
}
