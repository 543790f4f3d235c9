package store

import (
	"fmt"
	"math"

	"idxlabel/idx"
)

// sampleShape returns the height and width of one image in an images array: N×H×W, N×H×W×1, or
// N×(H·W) when h and w are given with h·w = H·W or H·W is a perfect square. Errors name the file.
func sampleShape(name string, a *idx.Array, h, w int) (int, int, error) {
	switch {
	case a.Rank() == 3:
		return a.Dims[1], a.Dims[2], nil
	case a.Rank() == 4 && a.Dims[3] == 1:
		return a.Dims[1], a.Dims[2], nil
	case a.Rank() == 2:
		d := a.Dims[1]
		if h > 0 && w > 0 {
			if h*w != d {
				return 0, 0, fmt.Errorf("%s: images are %d×%d; %d×%d pixels per sample do not make %d", name, a.Dims[0], d, h, w, d)
			}
			return h, w, nil
		}
		side := int(math.Sqrt(float64(d)))
		for side*side < d {
			side++
		}
		if side*side != d {
			return 0, 0, fmt.Errorf("%s: images are %d×%d and %d is not a perfect square; give the height and width", name, a.Dims[0], d, d)
		}
		return side, side, nil
	}
	return 0, 0, fmt.Errorf("%s: images must be N×H×W (or N×(H·W), N×H×W×1), found %s", name, a.Header)
}

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
