package idx

import (
	"fmt"
	"math"
)

// DType is the IDX element type: the third byte of the magic number (IDX spec).
type DType byte

// The six element types the IDX spec defines. Every multi-byte type is stored big-endian.
const (
	UByte   DType = 0x08 // unsigned byte, 1 byte (MNIST images and labels)
	SByte   DType = 0x09 // signed byte, 1 byte
	Int16   DType = 0x0B // signed 16-bit integer ("short"), 2 bytes
	Int32   DType = 0x0C // signed 32-bit integer ("int"), 4 bytes (QMNIST labels)
	Float32 DType = 0x0D // IEEE 754 single precision, 4 bytes
	Float64 DType = 0x0E // IEEE 754 double precision, 8 bytes
)

// DTypes lists every valid DType in type-byte order.
var DTypes = []DType{UByte, SByte, Int16, Int32, Float32, Float64}

// Valid reports whether t is one of the six type bytes the IDX spec defines.
func (t DType) Valid() bool { return t.Size() != 0 }

// Size returns the size of one element in bytes (1, 2, 4 or 8), or 0 for an unknown type byte.
func (t DType) Size() int {
	switch t {
	case UByte, SByte:
		return 1
	case Int16:
		return 2
	case Int32, Float32:
		return 4
	case Float64:
		return 8
	}
	return 0
}

// IsInteger reports whether t holds integers (ubyte, sbyte, int16, int32).
func (t DType) IsInteger() bool {
	return t == UByte || t == SByte || t == Int16 || t == Int32
}

// IntRange returns the least and greatest values an integer dtype holds (ubyte 0–255, sbyte
// −128–127, int16 −32768–32767, int32 −2147483648–2147483647); ok is false for the float
// dtypes and unknown type bytes.
func (t DType) IntRange() (lo, hi int64, ok bool) {
	switch t {
	case UByte:
		return 0, math.MaxUint8, true
	case SByte:
		return math.MinInt8, math.MaxInt8, true
	case Int16:
		return math.MinInt16, math.MaxInt16, true
	case Int32:
		return math.MinInt32, math.MaxInt32, true
	}
	return 0, 0, false
}

// String returns the name the IDX spec uses ("ubyte", "sbyte", "int16", "int32", "float32",
// "float64"), or "unknown(0xNN)" for an invalid type byte.
func (t DType) String() string {
	switch t {
	case UByte:
		return "ubyte"
	case SByte:
		return "sbyte"
	case Int16:
		return "int16"
	case Int32:
		return "int32"
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("unknown(0x%02x)", byte(t))
}
