//go:build !amd64

package nn

// belowMask is belowGo off amd64 (see below_amd64.go).
func belowMask(dots, norms []float32, lim float32, mask []uint8) bool {
	return belowGo(dots, norms, lim, mask)
}
