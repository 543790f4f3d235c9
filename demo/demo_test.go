package demo

import (
	"image"
	"slices"
	"testing"

	"idxlabel/normalize"
)

// The demo is 300 MNIST-like digits of every class, the same on every run.
func TestDemoDataset(t *testing.T) {
	images, labels, err := Arrays()
	if err != nil {
		t.Fatal(err)
	}
	if images.Header.String() != "0x00000803 ubyte 300×28×28" || labels.Dims[0] != 300 {
		t.Fatalf("demo %s", images.Header)
	}
	again, _, _ := Arrays()
	if !slices.Equal(images.Data, again.Data) {
		t.Fatal("the demo is not deterministic")
	}
	per := map[byte]int{}
	for _, l := range labels.Data {
		per[l]++
	}
	if len(per) != 10 {
		t.Fatalf("demo classes %v", per)
	}
	for k := range 300 {
		g := &image.Gray{Pix: images.Data[k*784 : (k+1)*784], Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
		box, ok := normalize.BoundingBox(g)
		if !ok || max(box.Dx(), box.Dy()) != 20 {
			t.Fatalf("demo sample %d: ink box %v", k, box)
		}
	}
}
