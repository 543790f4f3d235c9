package nn

// belowGo is belowMask in Go: bit i of mask[b] is set when norms[8b+i] − 2·dots[8b+i] ≤ lim
// (computed as below_amd64.s computes it, so both give the same bits), for every value
// (mask holds ⌈len(dots)/8⌉ bytes); it reports whether any bit was set. NaN compares false.
func belowGo(dots, norms []float32, lim float32, mask []uint8) bool {
	var any uint8
	for b := range (len(dots) + 7) / 8 {
		var m uint8
		for s := 8 * b; s < min(len(dots), 8*b+8); s++ {
			if norms[s]-(dots[s]+dots[s]) <= lim {
				m |= 1 << (s - 8*b)
			}
		}
		mask[b] = m
		any |= m
	}
	return any != 0
}
