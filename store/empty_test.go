package store

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// writeArrays writes images and labels (nil: none) into a new folder under MNIST's names and
// returns their paths.
func writeArrays(t *testing.T, images, labels *idx.Array) (ip, lp string) {
	t.Helper()
	dir := t.TempDir()
	ip, lp = filepath.Join(dir, "e-images-idx3-ubyte"), filepath.Join(dir, "e-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if labels != nil {
		if err := idx.WriteFile(lp, labels); err != nil {
			t.Fatal(err)
		}
	}
	return ip, lp
}

// An empty pair (0×28×28 images, 0 labels) is valid: the window's path (ClassifyPair, then Open)
// opens it, for reading and for editing, with the classes a new dataset has; a person adds a
// sample, saves, and finds it when the pair is opened again.
func TestEmptyPairOpensAndGrows(t *testing.T) {
	images, _ := idx.New(idx.UByte, 0, 28, 28)
	labels, _ := idx.New(idx.UByte, 0)
	ip, lp := writeArrays(t, images, labels)
	for _, paths := range [][]string{{ip}, {lp}, {lp, ip}} {
		gi, gl, err := pairfile.ClassifyPair(paths)
		if err != nil || gi != ip || gl != lp {
			t.Fatalf("pairfile.ClassifyPair(%v) = %s, %s, %v", paths, gi, gl, err)
		}
	}
	if s, err := pairfile.CheckPair(ip, images, lp, labels, 0, 0); err != nil || s != (pairfile.Shape{N: 0, H: 28, W: 28}) {
		t.Fatalf("CheckPair: %v %v", s, err)
	}
	r, err := Open(ip, lp, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 0 || len(r.Snapshot().Index) != 0 {
		t.Fatalf("read-only: %d samples", r.Len())
	}
	r.Close()

	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h, w := d.Size(); d.Len() != 0 || h != 28 || w != 28 {
		t.Fatalf("open: %d samples of %d×%d", d.Len(), h, w)
	}
	if got := d.Classes(); len(got) != 10 || got[0] != 0 || got[9] != 9 {
		t.Fatalf("classes of an empty label file: %v, want 0–9 as for a new dataset", got)
	}
	px := bytes.Repeat([]byte{200}, 784)
	if _, err := d.Append([]Sample{{Pixels: px, Label: 4}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 1 || d.Label(0) != 4 || !bytes.Equal(d.Pixels(0), px) {
		t.Fatalf("reopened: %d samples", d.Len())
	}
	d.Close()
}

// An empty image file's header alone declares the sample size, with no bytes behind it: sides
// above pairfile.MaxSide are refused (as New refuses them), before anything is allocated per pixel.
func TestEmptyImagesSampleSizeBounded(t *testing.T) {
	h := idx.Header{Type: idx.UByte, Dims: []int{0, pairfile.MaxSide + 1, 28}}
	if _, err := pairfile.CheckImages("big", h, 0, 0); err == nil || !strings.Contains(err.Error(), "big") {
		t.Fatalf("0×%d×28: %v", pairfile.MaxSide+1, err)
	}
	h.Dims = []int{0, 65536 * 65536}
	if _, err := pairfile.CheckImages("flat", h, 0, 0); err == nil {
		t.Fatal("0×(65536·65536) accepted")
	}
	h.Dims = []int{1, pairfile.MaxSide + 1, 28} // backed by its bytes: the file's size bounds it
	if _, err := pairfile.CheckImages("one", h, 0, 0); err != nil {
		t.Fatal(err)
	}
}

// Samples of 1×1 pixel: an N×1×1 image file holds as many values per sample as its N label file,
// so which is which follows from their shapes (labels are 1-D or N×K, images N×H×W), whether
// the person opens both, the images alone or the labels alone.
func TestOneByOnePair(t *testing.T) {
	for _, n := range []int{0, 1, 5} {
		images, _ := idx.New(idx.UByte, n, 1, 1)
		labels, _ := idx.New(idx.UByte, n)
		for i := range n {
			images.Data[i], labels.Data[i] = byte(40*i), byte(i)
		}
		ip, lp := writeArrays(t, images, labels)
		for _, paths := range [][]string{{ip, lp}, {lp, ip}, {ip}, {lp}} {
			gi, gl, err := pairfile.ClassifyPair(paths)
			if err != nil || gi != ip || gl != lp {
				t.Fatalf("n=%d: pairfile.ClassifyPair(%v) = %q, %q, %v", n, paths, gi, gl, err)
			}
		}
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if h, w := d.Size(); d.Len() != n || h != 1 || w != 1 {
			t.Fatalf("n=%d: %d samples of %d×%d", n, d.Len(), h, w)
		}
		d.Close()
	}
}
