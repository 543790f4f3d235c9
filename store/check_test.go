package store

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/sample"
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

// TestOpenChannelFirstAndNoLabel: Open follows CheckPair. Before it, Open refused N×1×H×W images
// (which verify accepted). The label −2147483648 (sample.NoLabel) opens as a sample without a label.
func TestOpenChannelFirstAndNoLabel(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 4, 1, 3, 2)
	for i := range images.Data {
		images.Data[i] = byte(i)
	}
	labels, _ := idx.New(idx.Int32, 4)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("N×1×H×W: %v", err)
	}
	if h, w := d.Size(); h != 3 || w != 2 || d.Len() != 4 {
		t.Fatalf("N×1×3×2 opened as %d samples of %d×%d", d.Len(), h, w)
	}
	d.Close()
	labels.SetInt(3, math.MinInt32)
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil || d.Label(3) != sample.NoLabel || d.Label(2) != 0 {
		t.Fatalf("label -2147483648: %v", err)
	}
	d.Close()
}

// TestOpenCeiling: Open refuses, before reading the data, a file that declares more than
// idx.MaxData, and says how big it is and how to raise the limit.
func TestOpenCeiling(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 10, 28, 28)
	labels, _ := idx.New(idx.UByte, 10)
	ip, lp := filepath.Join(dir, "i.gz"), filepath.Join(dir, "l")
	if err := WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	t.Setenv(idx.MaxDataEnv, "7000")
	_, err := Open(ip, lp, Options{})
	if err == nil || !strings.Contains(err.Error(), ip+": IDX dimensions too large: header 0x00000803 ubyte 10×28×28 declares 7840 bytes (7.8 kB) of data, above the limit of 7000 bytes") ||
		!strings.Contains(err.Error(), idx.MaxDataEnv) {
		t.Fatalf("over the ceiling: %v", err)
	}
	t.Setenv(idx.MaxDataEnv, "7840")
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("at the ceiling: %v", err)
	}
	d.Close()
}
