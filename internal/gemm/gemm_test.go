package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestGemmMatchesNaive checks gemm (assembly kernels where the CPU has them, gonum for the rest)
// against a float64 triple loop, for every transpose case and shapes with and without remainder
// rows and columns, with strides wider than the rows, and that it leaves C's padding alone.
func TestGemmMatchesNaive(t *testing.T) { bothPaths(t, testGemmNaive) }

// bothPaths runs test with gonum alone and, where the CPU has them, with the AVX2 kernels alone
// and with their AVX-512 versions.
func bothPaths(t *testing.T, test func(*testing.T)) {
	k, w := kernels, wide
	defer func() { kernels, wide = k, w }()
	if k {
		t.Run("gonum only", func(t *testing.T) {
			kernels, wide = false, false
			test(t)
		})
	}
	if w {
		t.Run("avx2 kernels", func(t *testing.T) {
			kernels, wide = true, false
			test(t)
		})
	}
	kernels, wide = k, w
	t.Run(fmt.Sprintf("kernels %v, avx-512 %v", k, w), test)
}

// TestWidthsAgree checks that the AVX-512 broadcast kernels (12×32 and 4×32 blocks) give every
// element the bits of the AVX2 one (the same chain of fused multiply-adds), and the 6×4 and 4×4
// dot kernels the bits of the 2×4.
func TestWidthsAgree(t *testing.T) {
	if !wide {
		t.Skip("the CPU has no AVX-512: one width only")
	}
	defer func() { wide = true }()
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sh := range [][3]int{{12, 4608, 25}, {24, 512, 300}, {7, 70, 33}, {300, 64, 24}, {384, 128, 8}, {27, 96, 9}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			a, lda := operand(rng, tA, m, k, 0)
			b, ldb := operand(rng, blas.NoTrans, k, n, 0)
			c16, c32 := make([]float32, m*n), make([]float32, m*n)
			wide = false
			Mul(tA, blas.NoTrans, m, n, k, a, lda, b, ldb, c16, n)
			wide = true
			Mul(tA, blas.NoTrans, m, n, k, a, lda, b, ldb, c32, n)
			for i := range c16 {
				if c16[i] != c32[i] {
					t.Fatalf("%v tA=%v: C[%d] is %g 16 wide, %g 32 wide", sh, tA == blas.Trans, i, c16[i], c32[i])
				}
			}
		}
	}
	for _, sh := range [][3]int{{24, 300, 512}, {12, 25, 4608}, {8, 12, 32}} {
		m, n, k := sh[0], sh[1], sh[2]
		a, _ := operand(rng, blas.NoTrans, m, k, 0)
		b, _ := operand(rng, blas.Trans, k, n, 0)
		c24 := make([]float32, 8)
		for _, kr := range []struct {
			rows int
			dot  func(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
		}{{6, dot6x4x16}, {4, dot4x4x16}} {
			block := make([]float32, kr.rows*4)
			for i := 0; i+kr.rows <= m; i += kr.rows {
				for j := 0; j+4 <= n; j += 4 {
					kr.dot(k, &a[i*k], k, &b[j*k], k, &block[0], 4)
					for h := range kr.rows / 2 {
						dot2x4x16(k, &a[(i+2*h)*k], k, &b[j*k], k, &c24[0], 4)
						for x := range 8 {
							if c24[x] != block[8*h+x] {
								t.Fatalf("%v: C(%d,%d) is %g from the 2×4 kernel, %g from the %d×4", sh, i+2*h+x/4, j+x%4, c24[x], block[8*h+x], kr.rows)
							}
						}
					}
				}
			}
		}
	}
}

func testGemmNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][3]int{{1, 1, 1}, {4, 16, 1}, {4, 16, 8}, {12, 4608, 25}, {24, 512, 300}, {8, 128, 384},
		{5, 17, 3}, {7, 33, 16}, {2, 4, 8}, {3, 5, 24}, {24, 300, 512}, {12, 25, 4608}, {300, 64, 24},
		{384, 128, 8}, {13, 31, 40}, {4, 16, 0}, {6, 75, 48}, {3, 33, 32}}
	for _, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				a, lda := operand(rng, tA, m, k, 3)
				b, ldb := operand(rng, tB, k, n, 1)
				ldc := n + 2
				c := make([]float32, max(m*ldc, 1))
				for i := range c {
					c[i] = 7 // padding sentinel
				}
				Mul(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
				for i := range m {
					for j := range ldc {
						got := float64(c[i*ldc+j])
						if j >= n {
							if got != 7 {
								t.Fatalf("%v: gemm wrote C's padding at (%d,%d)", sh, i, j)
							}
							continue
						}
						var want, mag float64
						for p := range k {
							x, y := at(a, tA, i, p, lda), at(b, tB, p, j, ldb)
							want += x * y
							mag += math.Abs(x * y)
						}
						if math.Abs(got-want) > 1e-5*mag+1e-6 {
							t.Fatalf("%v tA=%v tB=%v: C(%d,%d) = %g, want %g", sh, tA == blas.Trans, tB == blas.Trans, i, j, got, want)
						}
					}
				}
			}
		}
	}
}

// at returns element (i,j) of op(X) for X stored row-major with stride ld.
func at(x []float32, t blas.Transpose, i, j, ld int) float64 {
	if t == blas.Trans {
		i, j = j, i
	}
	return float64(x[i*ld+j])
}

// operand returns a random rows×cols matrix op(X) (uniform ±1), stored transposed when t is
// Trans, with pad unused values after each stored row, and its stride.
func operand(rng *rand.Rand, t blas.Transpose, rows, cols, pad int) ([]float32, int) {
	if t == blas.Trans {
		rows, cols = cols, rows
	}
	x := make([]float32, max(rows*(cols+pad), 1))
	for i := range x {
		x[i] = float32(2*rng.Float64() - 1)
	}
	return x, cols + pad
}

// BenchmarkGemm times the CNN's largest products (package suspect/cnn: one training chunk of 8
// samples), with gonum's Sgemm alone and with the assembly kernels where the CPU has them.
func BenchmarkGemm(b *testing.B) {
	// The network's shapes: 5×5 kernels, 12 then 24 channels, 24×24 then 8×8 outputs.
	const kk, c1, c2, s1, s2 = 25, 12, 24, 24, 8
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name    string
		tA, tB  blas.Transpose
		m, n, k int
	}{
		{"conv1", blas.NoTrans, blas.NoTrans, c1, 8 * s1 * s1, kk},
		{"conv2", blas.NoTrans, blas.NoTrans, c2, 8 * s2 * s2, c1 * kk},
		{"dcol2", blas.Trans, blas.NoTrans, c1 * kk, 8 * s2 * s2, c2},
		{"dw2", blas.NoTrans, blas.Trans, c2, c1 * kk, 8 * s2 * s2},
		{"dw1", blas.NoTrans, blas.Trans, c1, kk, 8 * s1 * s1},
	}
	for _, cs := range cases {
		b.Run(cs.name+"/gonum", func(b *testing.B) {
			saved := kernels
			kernels = false
			defer func() { kernels = saved }()
			benchGemm(b, rng, cs.tA, cs.tB, cs.m, cs.n, cs.k)
		})
		if wide {
			b.Run(cs.name+"/avx2", func(b *testing.B) {
				wide = false
				defer func() { wide = true }()
				benchGemm(b, rng, cs.tA, cs.tB, cs.m, cs.n, cs.k)
			})
		}
		b.Run(fmt.Sprintf("%s/kernels=%v,avx-512=%v", cs.name, kernels, wide), func(b *testing.B) {
			benchGemm(b, rng, cs.tA, cs.tB, cs.m, cs.n, cs.k)
		})
	}
}

// benchGemm times gemm on random matrices of the given shape and reports GFLOP/s (2·m·n·k a call).
func benchGemm(b *testing.B, rng *rand.Rand, tA, tB blas.Transpose, m, n, k int) {
	a, lda := operand(rng, tA, m, k, 0)
	x, ldx := operand(rng, tB, k, n, 0)
	c := make([]float32, m*n)
	for b.Loop() {
		Mul(tA, tB, m, n, k, a, lda, x, ldx, c, n)
	}
	b.ReportMetric(float64(2*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// TestGemmRowsIndependent checks that every element of C gets the same bits whether its row is
// computed with the others or alone, and its column likewise: what lets Predict on one image
// equal Probabilities on a batch.
func TestGemmRowsIndependent(t *testing.T) { bothPaths(t, testRowsIndependent) }

func testRowsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][3]int{{7, 37, 128}, {9, 128, 384}, {5, 10, 128}, {6, 25, 64}, {24, 301, 16}, {26, 45, 48}, {8, 10, 128}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				a, ac := operand(rng, tA, m, k, 0)
				b, bc := operand(rng, tB, k, n, 0)
				whole := make([]float32, m*n)
				Mul(tA, tB, m, n, k, a, ac, b, bc, whole, n)
				one := make([]float32, n)
				for i := range m {
					ai := a[i:]
					if tA == blas.NoTrans {
						ai = a[i*ac:]
					}
					Mul(tA, tB, 1, n, k, ai, ac, b, bc, one, n)
					for j := range n {
						if one[j] != whole[i*n+j] {
							t.Fatalf("%v tA=%v tB=%v: C(%d,%d) is %g alone, %g with the other rows", sh, tA == blas.Trans, tB == blas.Trans, i, j, one[j], whole[i*n+j])
						}
					}
				}
				col := make([]float32, m)
				for j := range n {
					bj := b[j:]
					if tB == blas.Trans {
						bj = b[j*bc:]
					}
					Mul(tA, tB, m, 1, k, a, ac, bj, bc, col, 1)
					for i := range m {
						if col[i] != whole[i*n+j] {
							t.Fatalf("%v tA=%v tB=%v: C(%d,%d) is %g in its column alone, %g with the others", sh, tA == blas.Trans, tB == blas.Trans, i, j, col[i], whole[i*n+j])
						}
					}
				}
			}
		}
	}
}
