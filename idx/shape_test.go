package idx

import (
	"bytes"
	"strings"
	"testing"
)

// A header may declare up to 255 dimensions; the messages naming its shape stay one short line.
func TestShapeOfManyDimensions(t *testing.T) {
	for _, c := range []struct {
		dims []int
		want string
	}{
		{[]int{10000, 28, 28}, "10000×28×28"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8}, "1×2×3×4×5×6×7×8"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, "1×2×3×4×5×6×7×…×9 (9 dimensions)"},
	} {
		if got := (Header{Type: UByte, Dims: c.dims}).Shape(); got != c.want {
			t.Errorf("Shape of %v = %q, want %q", c.dims, got, c.want)
		}
	}

	// 255 dimensions of 1 and then a 0, read from bytes: the error names the shape briefly.
	dims := make([]uint32, 255)
	for i := range dims {
		dims[i] = 1
	}
	dims[254] = 0
	_, err := Decode(bytes.NewReader(header([]byte{0, 0, 8, 255}, dims...)))
	checkFormatError(t, err, ErrEmpty, "dimension 255 of 1×1×1×1×1×1×1×…×0 (255 dimensions) is 0", "")
	if len(err.Error()) > 200 {
		t.Errorf("the error is %d bytes long: %q", len(err.Error()), err)
	}

	// 255 dimensions of 1 and no data: the truncation message too.
	dims[254] = 1
	_, err = Decode(bytes.NewReader(header([]byte{0, 0, 8, 255}, dims...)))
	checkFormatError(t, err, ErrTruncated, "(255 dimensions)", "")
	if len(err.Error()) > 200 || strings.Count(err.Error(), "×") > 8 {
		t.Errorf("the error is %d bytes long: %q", len(err.Error()), err)
	}
}
