package nn

import "golang.org/x/sys/cpu"

// maskKernel tells whether belowMask runs the AVX2 assembly of below_amd64.s.
var maskKernel = cpu.X86.HasAVX2

// belowMask sets bit i of mask[b] when norms[8b+i] − 2·dots[8b+i] ≤ lim, for every value
// (mask holds ⌈len(dots)/8⌉ bytes), and reports whether any bit was set: search's first pass
// over a block of distances, which lets it skip the points that cannot be among a query's k
// nearest without looking at each. NaN compares false. norms must hold len(dots) values.
func belowMask(dots, norms []float32, lim float32, mask []uint8) bool {
	n := len(dots) &^ 7 // whole blocks of 8 for the kernel, the rest in Go
	if !maskKernel {
		n = 0
	}
	any := false
	if n > 0 {
		_, _ = norms[n-1], mask[n/8-1]
		any = belowAVX2(n, &dots[0], &norms[0], lim, &mask[0])
	}
	if n < len(dots) {
		any = belowGo(dots[n:], norms[n:len(dots)], lim, mask[n/8:]) || any
	}
	return any
}

// belowAVX2 is belowMask's AVX2 kernel over n values (a positive multiple of 8); nothing is
// bounds-checked.
//
//go:noescape
func belowAVX2(n int, dots, norms *float32, lim float32, mask *uint8) bool
