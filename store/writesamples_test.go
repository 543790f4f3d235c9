package store

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// WriteSamples writes the samples given, in that order, with their edits (a relabel, an
// appended sample), and leaves the dataset as it was; a deleted sample is refused.
func TestWriteSamples(t *testing.T) {
	ip, lp := copyPair(t, 100, true)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Relabel([]int{3}, 7); err != nil {
		t.Fatal(err)
	}
	px := bytes.Repeat([]byte{200}, 28*28)
	if _, err := d.Append([]Sample{{Pixels: px, Label: 4}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Delete([]int{5}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	oi, ol := filepath.Join(dir, "out-images-idx3-ubyte.gz"), filepath.Join(dir, "out-labels-idx1-ubyte.gz")
	keep := []int{100, 3, 0, 99}
	if err := writeSamples(t, d, context.Background(), keep, oi, ol, nil); err != nil {
		t.Fatal(err)
	}
	images, err := idx.ReadFile(oi)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := idx.ReadFile(ol)
	if err != nil {
		t.Fatal(err)
	}
	if images.Dims[0] != 4 || labels.Dims[0] != 4 {
		t.Fatalf("wrote %v images and %v labels", images.Dims, labels.Dims)
	}
	for k, i := range keep {
		if !bytes.Equal(images.Data[k*784:(k+1)*784], d.Pixels(i)) {
			t.Fatalf("output sample %d is not sample %d's pixels", k, i)
		}
		if got := int(labels.Int(k)); got != d.Label(i) {
			t.Fatalf("output sample %d has label %d, sample %d has %d", k, got, i, d.Label(i))
		}
	}
	if labels.Int(1) != 7 || labels.Int(0) != 4 {
		t.Fatalf("labels %d, %d: the edits were not written", labels.Int(0), labels.Int(1))
	}
	if d.Len() != 101 || !d.Dirty() {
		t.Fatalf("the dataset changed: %d samples, dirty %v", d.Len(), d.Dirty())
	}
	if err := writeSamples(t, d, context.Background(), []int{5}, oi, ol, nil); err == nil {
		t.Fatal("a deleted sample was written")
	}
	if err := writeSamples(t, d, context.Background(), []int{1, 1}, oi, ol, nil); err == nil {
		t.Fatal("a sample given twice was written")
	}
	if err := writeSamples(t, d, context.Background(), []int{1}, oi, "", nil); err == nil {
		t.Fatal("labelled samples were written without their labels")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := writeSamples(t, d, ctx, []int{1}, oi, ol, nil); err == nil {
		t.Fatal("a cancelled write succeeded")
	}
	if again, _ := idx.ReadFile(oi); again == nil || again.Dims[0] != 4 {
		t.Fatal("a cancelled write replaced the output")
	}
}

// writeSamples calls d.WriteSamples under a claim of the outputs made for it (with force) and
// released after it.
func writeSamples(t *testing.T, d *Dataset, ctx context.Context, indices []int, images, labels string, progress func(float64)) error {
	t.Helper()
	outs := []string{images}
	if labels != "" {
		outs = append(outs, labels)
	}
	c, err := pairfile.ClaimOutputs(nil, outs, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	return d.WriteSamples(ctx, c, indices, images, labels, progress)
}

// The whole base, in order and unchanged, is written from the base's data; a reordering of it
// is a copy in the new order (buildImages' shortcut only for the span).
func TestWriteSamplesReordered(t *testing.T) {
	ip, lp := copyPair(t, 3, false)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dir := t.TempDir()
	oi, ol := filepath.Join(dir, "o-images-idx3-ubyte"), filepath.Join(dir, "o-labels-idx1-ubyte")
	if err := writeSamples(t, d, context.Background(), []int{2, 1, 0}, oi, ol, nil); err != nil {
		t.Fatal(err)
	}
	images, err := idx.ReadFile(oi)
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range []int{2, 1, 0} {
		if !bytes.Equal(images.Data[k*784:(k+1)*784], d.Pixels(i)) {
			t.Fatalf("output sample %d is not sample %d", k, i)
		}
	}
}
