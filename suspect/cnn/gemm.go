package cnn

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

var impl gonum.Implementation

// gemm computes C = op(A)·op(B): op(A) m×k, op(B) k×n, C m×n, all row-major float32 with the
// given strides (lda, ldb, ldc in elements); C is overwritten. Where the CPU has AVX2 and FMA
// (kernels), the blocks that fit the assembly kernels are computed by them: 4×16 blocks of C by
// broadcasting op(A) against rows of B when B is not transposed, 2×4 blocks by dot products along
// k when it is (A not transposed, k a multiple of 8). The remaining rows and columns, and every
// product elsewhere, are gonum's Sgemm. Summation order differs between the two, so results agree
// to float32 rounding, not bit for bit; each is deterministic. It panics if a slice is too short
// for its shape (a bug in the caller: the shapes are the network's, never the input's).
func gemm(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkLen("A", a, tA, m, k, lda)
	checkLen("B", b, tB, k, n, ldb)
	checkLen("C", c, blas.NoTrans, m, n, ldc)
	switch {
	case kernels && tB == blas.NoTrans:
		ai, ap := lda, 1 // A(i,p) = a[i·ai + p·ap]
		if tA == blas.Trans {
			ai, ap = 1, lda
		}
		m4, n16 := m&^3, n&^15
		for j := 0; j < n16; j += 16 {
			for i := 0; i < m4; i += 4 {
				axpy4x16(k, &a[i*ai], ai, ap, &b[j], ldb, &c[i*ldc+j], ldc)
			}
		}
		rest(tA, tB, m, n, k, m4, n16, a, lda, b, ldb, c, ldc)
	case kernels && tA == blas.NoTrans && k%8 == 0 && k > 0:
		m2, n4 := m&^1, n&^3
		for i := 0; i < m2; i += 2 {
			for j := 0; j < n4; j += 4 {
				dot2x4(k, &a[i*lda], lda, &b[j*ldb], ldb, &c[i*ldc+j], ldc)
			}
		}
		rest(tA, tB, m, n, k, m2, n4, a, lda, b, ldb, c, ldc)
	default:
		serial(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	}
}

// rest computes with gonum the parts of C outside its first m0 rows × n0 columns: the rows from
// m0 on (every column) and the columns from n0 on (the first m0 rows).
func rest(tA, tB blas.Transpose, m, n, k, m0, n0 int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m0 < m {
		var ai []float32
		if tA == blas.Trans {
			ai = a[m0:]
		} else {
			ai = a[m0*lda:]
		}
		serial(tA, tB, m-m0, n, k, ai, lda, b, ldb, c[m0*ldc:], ldc)
	}
	if n0 < n && m0 > 0 {
		var bj []float32
		if tB == blas.Trans {
			bj = b[n0*ldb:]
		} else {
			bj = b[n0:]
		}
		serial(tA, tB, m0, n-n0, k, a, lda, bj, ldb, c[n0:], ldc)
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
		panic(fmt.Sprintf("cnn: gemm: %s is %d values, too few for %d×%d with stride %d", name, len(x), rows, cols, ld))
	}
}
