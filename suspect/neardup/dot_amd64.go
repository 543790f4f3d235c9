package neardup

import "golang.org/x/sys/cpu"

// avx2 tells whether dotKernel runs the assembly of dot_amd64.s.
var avx2 = cpu.X86.HasAVX2

// dotKernel is dotBytes's kernel: Σ a[i]·b[i] for at most dotRun bytes (b as long as a).
func dotKernel(a, b []byte) uint32 {
	if !avx2 || len(a) < 16 {
		return dotGo(a, b)
	}
	_ = b[len(a)-1]
	return dotAVX2(len(a), &a[0], &b[0])
}

// dotAVX2 is dotKernel's AVX2 version over n ≥ 16 bytes; nothing is bounds-checked.
//
//go:noescape
func dotAVX2(n int, a, b *byte) uint32
