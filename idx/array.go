package idx

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Array is a decoded IDX array: its header and all of its data in one contiguous buffer, in C
// order (last dimension fastest) and in the file's byte order (big-endian for multi-byte types),
// so decoding and encoding are plain copies. MNIST images are an Array of UByte with Dims
// [N, 28, 28] whose Data holds N·784 pixels, 0 = background, 255 = ink.
type Array struct {
	Header
	Data []byte // Elements() × Type.Size() bytes
}

// New returns a zero-filled array of type t and the given dimensions (outermost first).
// Errors: those of Header.Validate.
func New(t DType, dims ...int) (*Array, error) {
	h := Header{Type: t, Dims: append([]int(nil), dims...)}
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return &Array{Header: h, Data: make([]byte, h.DataSize())}, nil
}

// Check returns a *FormatError wrapping ErrShape when len(Data) differs from the size the header
// declares, or the header's own validation error.
func (a *Array) Check() error {
	if err := a.Header.Validate(); err != nil {
		return err
	}
	if int64(len(a.Data)) != a.DataSize() {
		return &FormatError{Err: ErrShape, Detail: fmt.Sprintf("header %s declares %d bytes, data holds %d", a.Header, a.DataSize(), len(a.Data))}
	}
	return nil
}

// Len returns the number of elements (the product of the dimensions).
func (a *Array) Len() int { return len(a.Data) / a.Type.Size() }

// Int returns element i (flat index, C order) as an int64. Floats are truncated toward zero,
// NaN gives 0 and out-of-range values saturate. It panics if i is out of range, like a slice.
func (a *Array) Int(i int) int64 {
	switch a.Type {
	case UByte:
		return int64(a.Data[i])
	case SByte:
		return int64(int8(a.Data[i]))
	case Int16:
		return int64(int16(binary.BigEndian.Uint16(a.Data[2*i:])))
	case Int32:
		return int64(int32(binary.BigEndian.Uint32(a.Data[4*i:])))
	}
	f := a.Float(i)
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// Float returns element i (flat index, C order) as a float64; integer types convert exactly.
// It panics if i is out of range, like a slice.
func (a *Array) Float(i int) float64 {
	switch a.Type {
	case Float32:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(a.Data[4*i:])))
	case Float64:
		return math.Float64frombits(binary.BigEndian.Uint64(a.Data[8*i:]))
	}
	return float64(a.Int(i))
}

// SetInt stores v as element i, converting to the array's type: integers wrap to the type's
// width like a Go conversion, floats take the nearest value.
func (a *Array) SetInt(i int, v int64) {
	switch a.Type {
	case UByte, SByte:
		a.Data[i] = byte(v)
	case Int16:
		binary.BigEndian.PutUint16(a.Data[2*i:], uint16(v))
	case Int32:
		binary.BigEndian.PutUint32(a.Data[4*i:], uint32(v))
	default:
		a.SetFloat(i, float64(v))
	}
}

// SetFloat stores v as element i, converting to the array's type: integer types truncate
// toward zero and wrap like SetInt.
func (a *Array) SetFloat(i int, v float64) {
	switch a.Type {
	case Float32:
		binary.BigEndian.PutUint32(a.Data[4*i:], math.Float32bits(float32(v)))
	case Float64:
		binary.BigEndian.PutUint64(a.Data[8*i:], math.Float64bits(v))
	default:
		a.SetInt(i, int64(v))
	}
}

// Ints returns every element as an int64 (see Int), in C order.
func (a *Array) Ints() []int64 {
	out := make([]int64, a.Len())
	for i := range out {
		out[i] = a.Int(i)
	}
	return out
}

// Floats returns every element as a float64 (see Float), in C order.
func (a *Array) Floats() []float64 {
	out := make([]float64, a.Len())
	for i := range out {
		out[i] = a.Float(i)
	}
	return out
}

// Stride returns the number of elements in one entry of the first dimension (for MNIST images
// H·W = 784, for labels 1).
func (a *Array) Stride() int {
	s := 1
	for _, d := range a.Dims[1:] {
		s *= d
	}
	return s
}
