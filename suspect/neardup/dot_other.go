//go:build !amd64

package neardup

// dotKernel is dotGo off amd64 (see dot_amd64.go).
func dotKernel(a, b []byte) uint32 { return dotGo(a, b) }
