package cnn

import "golang.org/x/sys/cpu"

// avx2 tells whether the kernels of kernels_amd64.s run (the CPU has AVX2).
var avx2 = cpu.X86.HasAVX2

// poolReLUAVX2 is poolReLU for p a positive multiple of 8. Nothing is bounds-checked.
//
//go:noescape
func poolReLUAVX2(z *float32, p int, bias float32, a *float32, arg *int32)

// unpoolReLUAVX2 is unpoolReLU for p a positive multiple of 8. Nothing is bounds-checked.
//
//go:noescape
func unpoolReLUAVX2(da, a *float32, arg *int32, dz *float32, p int) float32

// im2colRunsAVX2 is im2colRuns for b > 0. Nothing is bounds-checked.
//
//go:noescape
func im2colRunsAVX2(dst, src *float32, b int)

// col2imRunsAVX2 is col2imRuns for b > 0. Nothing is bounds-checked.
//
//go:noescape
func col2imRunsAVX2(dst, src *float32, b int)

// im2colRuns6AVX2 is im2colRuns6 for b > 0. Nothing is bounds-checked.
//
//go:noescape
func im2colRuns6AVX2(dst, src *float32, b int)

// addAVX2 adds src to dst for n a positive multiple of 8. Nothing is bounds-checked.
//
//go:noescape
func addAVX2(dst, src *float32, n int)

// adamAVX2 is adamUpdate for n a positive multiple of 8, with the same operations in the same
// order (no fused multiply-adds). Nothing is bounds-checked.
//
//go:noescape
func adamAVX2(p, g0, g1, m, v *float32, n int, c *adamConsts)

// warpAVX2 is warp's AVX2 kernel: it writes src's pixels scaled to 0–1 into pad's interior
// (rows 1–28, columns 1–28 of 32), then for each output pixel i the source point
// (A·xs[i] + B·ys[i] + C1, −B·xs[i] + A·ys[i] + D1) in pad's coordinates (coef: A, B, C1, D1),
// sampled bilinearly by gathers, 0 where a tap would leave pad.
//
//go:noescape
func warpAVX2(dst *float32, src *byte, pad *float32, coef *[4]float32, xs, ys *[Pixels]float32)
