package store

import (
	"math"

	"idxlabel/idx"
)

// valueMap maps an image dtype's values to display pixels 0–255 and back. For ubyte it is the
// identity; for other types it is linear from [lo, hi] (the data's range, or [0, 255] when the
// data lies within it, or [0, 1] for floats within it) to [0, 255].
type valueMap struct {
	identity bool
	lo, hi   float64
}

// newValueMap measures a's range and chooses the mapping.
func newValueMap(a *idx.Array) valueMap {
	if a.Type == idx.UByte {
		return valueMap{identity: true, lo: 0, hi: 255}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range a.Len() {
		v := a.Float(i)
		if v != v {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case lo > hi: // all NaN
		return valueMap{lo: 0, hi: 1}
	case !a.Type.IsInteger() && lo >= 0 && hi <= 1:
		return valueMap{lo: 0, hi: 1}
	case lo >= 0 && hi <= 255:
		return valueMap{lo: 0, hi: 255}
	case lo == hi:
		return valueMap{lo: lo - 1, hi: hi}
	}
	return valueMap{lo: lo, hi: hi}
}

// display converts one stored value to a display pixel.
func (m valueMap) display(v float64) byte {
	if v != v {
		return 0
	}
	p := math.Round((v - m.lo) / (m.hi - m.lo) * 255)
	return byte(max(0, min(255, p)))
}

// stored converts a display pixel back to the dtype's value range.
func (m valueMap) stored(p byte) float64 { return m.lo + float64(p)/255*(m.hi-m.lo) }

// displayPixels returns a's data as display pixels: a.Data itself for ubyte (no copy), a new
// buffer of a.Len() bytes otherwise.
func (m valueMap) displayPixels(a *idx.Array) []byte {
	if m.identity {
		return a.Data
	}
	out := make([]byte, a.Len())
	for i := range out {
		out[i] = m.display(a.Float(i))
	}
	return out
}
