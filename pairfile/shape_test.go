package pairfile

import (
	"math"
	"strings"
	"testing"

	"idxlabel/idx"
)

func TestCheckImagesShapes(t *testing.T) {
	cases := []struct {
		dims []int
		h, w int
		want Shape
		err  string
	}{
		{[]int{5, 28, 28}, 0, 0, Shape{5, 28, 28}, ""},
		{[]int{5, 1, 28, 28}, 0, 0, Shape{5, 28, 28}, ""},
		{[]int{5, 28, 28, 1}, 0, 0, Shape{5, 28, 28}, ""},
		{[]int{5, 1, 7, 1}, 0, 0, Shape{5, 7, 1}, ""},
		{[]int{5, 784}, 0, 0, Shape{5, 28, 28}, ""},
		{[]int{5, 12}, 3, 4, Shape{5, 3, 4}, ""},
		{[]int{5, 12}, 0, 0, Shape{}, "not a perfect square"},
		{[]int{5, 12}, 5, 5, Shape{}, "do not make 12"},
		{[]int{5, 3, 28, 28}, 0, 0, Shape{}, "N×1×H×W"},
		{[]int{5, 28, 28, 3}, 0, 0, Shape{}, "found 0x00000804 ubyte 5×28×28×3"},
		{[]int{5}, 0, 0, Shape{}, "must be N×H×W"},
		{[]int{5, 1, 2, 3, 1}, 0, 0, Shape{}, "must be N×H×W"},
	}
	for _, c := range cases {
		got, err := CheckImages("imgs", idx.Header{Type: idx.UByte, Dims: c.dims}, c.h, c.w)
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("%v: %v, %v; want %v", c.dims, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "imgs: ")) {
			t.Errorf("%v: error %v, want one containing %q", c.dims, err, c.err)
		}
	}
}

func TestCheckPairLabels(t *testing.T) {
	images, _ := idx.New(idx.UByte, 3, 2, 2)
	labels, _ := idx.New(idx.Int32, 3)
	labels.SetInt(0, math.MaxInt32)
	labels.SetInt(1, -5)
	if _, err := CheckPair("i", images, "l", labels, 0, 0); err != nil {
		t.Fatalf("valid int32 labels: %v", err)
	}
	labels.SetInt(2, math.MinInt32)
	if _, err := CheckPair("i", images, "l", labels, 0, 0); err != nil {
		t.Fatalf("sample.NoLabel (a sample without a label): %v", err)
	}
	if err := CheckLabel("l", 2, math.MinInt32-1); err == nil || !strings.Contains(err.Error(), "l: label -2147483649 of sample 2") {
		t.Fatalf("a label below 32 bits: %v", err)
	}
	floats, _ := idx.New(idx.Float32, 3)
	if _, err := CheckPair("i", images, "l", floats, 0, 0); err == nil || !strings.Contains(err.Error(), "integers") {
		t.Fatalf("float labels: %v", err)
	}
	few, _ := idx.New(idx.UByte, 2)
	if _, err := CheckPair("i", images, "l", few, 0, 0); err == nil || !strings.Contains(err.Error(), "l has 2 labels, but i has 3 images") {
		t.Fatalf("count mismatch: %v", err)
	}
	cube, _ := idx.New(idx.UByte, 3, 1, 1)
	if _, err := CheckPair("i", images, "l", cube, 0, 0); err == nil || !strings.Contains(err.Error(), "N×K") {
		t.Fatalf("3-D labels: %v", err)
	}
}
