//go:build linux

package gemm

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"
)

// TestGemmStaysInBounds places every matrix so that it ends against a page the process may not
// read or write, and multiplies: an assembly kernel (or an edge path handing it a stride) that
// touched one value past A, B or C would crash the test instead of reading whatever lies there.
func TestGemmStaysInBounds(t *testing.T) { bothPaths(t, testInBounds) }

func testInBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][3]int{{1, 1, 8}, {5, 17, 3}, {7, 33, 16}, {3, 5, 24}, {13, 31, 40}, {9, 10, 128}, {6, 25, 64}, {5, 70, 48}, {3, 33, 32}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				a0, lda := operand(rng, tA, m, k, 0)
				b0, ldb := operand(rng, tB, k, n, 0)
				a, b, c := guarded(t, len(a0)), guarded(t, len(b0)), guarded(t, m*n)
				copy(a, a0)
				copy(b, b0)
				Mul(tA, tB, m, n, k, a, lda, b, ldb, c, n)
				want := make([]float32, m*n)
				Mul(tA, tB, m, n, k, a0, lda, b0, ldb, want, n)
				for i := range want {
					if c[i] != want[i] {
						t.Fatalf("%v: C[%d] = %g against a guard page, %g elsewhere", sh, i, c[i], want[i])
					}
				}
			}
		}
	}
}

// guarded returns n float32s that end where a PROT_NONE page begins; the mapping is removed when
// the test ends.
func guarded(t *testing.T, n int) []float32 {
	page := syscall.Getpagesize()
	size := (n*4 + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[size-n*4])), n)
}
