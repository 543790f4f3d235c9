package builder

import (
	"fmt"
	"math"
	"slices"

	"idxlabel/idx"
)

// holds reports whether every value of dtype b is a value of dtype a (IEEE 754: float32 holds
// integers of up to 24 bits, float64 up to 53).
func holds(a, b idx.DType) bool {
	if a == b {
		return true
	}
	switch a {
	case idx.Int16:
		return b == idx.UByte || b == idx.SByte
	case idx.Int32:
		return b == idx.UByte || b == idx.SByte || b == idx.Int16
	case idx.Float32:
		return b == idx.UByte || b == idx.SByte || b == idx.Int16
	case idx.Float64:
		return true
	}
	return false
}

// imageLayout returns the header of the output images for inputs: the first input's dimensions
// after N, and the dtype of the first input that holds every input's values (holds). Errors,
// naming the file: an input whose image dimensions (rank, height, width) differ from the
// first's, or whose dtype no input's dtype holds together with the others.
func imageLayout(inputs []*Input) (idx.Header, error) {
	first := inputs[0]
	for _, in := range inputs[1:] {
		if !slices.Equal(in.ImageHeader.Dims[1:], first.ImageHeader.Dims[1:]) {
			return idx.Header{}, fmt.Errorf("%s: images are %s, %s's are %s: merged images must have the same rank, height and width",
				in.Files.Images, dimsOf(in.ImageHeader), first.Files.Images, dimsOf(first.ImageHeader))
		}
	}
	for _, cand := range inputs {
		t := cand.ImageHeader.Type
		ok := true
		for _, in := range inputs {
			ok = ok && holds(t, in.ImageHeader.Type)
		}
		if ok {
			return idx.Header{Type: t, Dims: slices.Clone(first.ImageHeader.Dims)}, nil
		}
	}
	for _, in := range inputs[1:] {
		if !holds(first.ImageHeader.Type, in.ImageHeader.Type) {
			return idx.Header{}, fmt.Errorf("%s: images are %s, %s's are %s, and neither dtype holds the other's values; convert one first",
				in.Files.Images, in.ImageHeader.Type, first.Files.Images, first.ImageHeader.Type)
		}
	}
	return idx.Header{}, fmt.Errorf("%s: no input's image dtype holds every input's values", first.Files.Images)
}

// dimsOf formats a header's dimensions after N: "28×28 ubyte samples".
func dimsOf(h idx.Header) string {
	s := ""
	for k, d := range h.Dims[1:] {
		if k > 0 {
			s += "×"
		}
		s += fmt.Sprint(d)
	}
	return s + " " + h.Type.String() + " samples"
}

// labelType returns the smallest integer dtype (ubyte, sbyte, int16, int32, in that order of
// preference) that holds every value of the dtypes given and the values in extra: ubyte and int32
// labels merged are int32, ubyte and sbyte int16.
func labelType(types []idx.DType, extra []int64) idx.DType {
	lo, hi := int64(0), int64(0)
	widen := func(a, b int64) { lo, hi = min(lo, a), max(hi, b) }
	for _, t := range types {
		widen(intRange(t))
	}
	for _, v := range extra {
		widen(v, v)
	}
	for _, t := range []idx.DType{idx.UByte, idx.SByte, idx.Int16} {
		if a, b := intRange(t); a <= lo && hi <= b {
			return t
		}
	}
	return idx.Int32
}

// intRange returns the least and greatest values of an integer dtype.
func intRange(t idx.DType) (int64, int64) {
	switch t {
	case idx.UByte:
		return 0, math.MaxUint8
	case idx.SByte:
		return math.MinInt8, math.MaxInt8
	case idx.Int16:
		return math.MinInt16, math.MaxInt16
	}
	return math.MinInt32, math.MaxInt32
}
