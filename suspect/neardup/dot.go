package neardup

// dotRun is the largest run of bytes dotBytes hands to its kernel at once, so that the
// kernel's sum (at most dotRun·255², 2.1·10⁹) fits its 32 bits.
const dotRun = 1 << 15

// dotBytes returns Σ a[i]·b[i] over i < len(a) (b holds at least len(a) bytes).
func dotBytes(a, b []byte) int64 {
	b = b[:len(a)]
	var dot int64
	for len(a) > 0 {
		n := min(len(a), dotRun)
		dot += int64(dotKernel(a[:n], b[:n]))
		a, b = a[n:], b[n:]
	}
	return dot
}

// dotGo is dotBytes's kernel in Go, for at most dotRun bytes (b as long as a).
func dotGo(a, b []byte) uint32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 uint32
	x := 0
	for ; x+4 <= len(a); x += 4 {
		s0 += uint32(a[x]) * uint32(b[x])
		s1 += uint32(a[x+1]) * uint32(b[x+1])
		s2 += uint32(a[x+2]) * uint32(b[x+2])
		s3 += uint32(a[x+3]) * uint32(b[x+3])
	}
	for ; x < len(a); x++ {
		s0 += uint32(a[x]) * uint32(b[x])
	}
	return s0 + s1 + s2 + s3
}
