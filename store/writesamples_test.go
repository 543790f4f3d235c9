package store

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
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
// is a copy in the new order (the rows' shortcut only for the span).
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

// WriteSamples streams the images from the dataset's own buffers, in the order given: the file
// holds exactly the bytes of the samples' array (planImages), for samples of the files and
// appended ones, in any order, while what it allocates does not grow with the images' size (a
// reordered 20,001 samples of 28×28, 15.7 MB: before, a copy of all of them).
func TestWriteSamplesStreams(t *testing.T) {
	ip, lp := writeTestPair(t, 20000, 28, 28)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Append([]Sample{{Pixels: bytes.Repeat([]byte{9}, 784), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	order := make([]int, 0, d.Len())
	for i := d.Len() - 1; i >= 0; i-- {
		order = append(order, i)
	}
	dir := t.TempDir()
	oi, ol := filepath.Join(dir, "o-images-idx3-ubyte"), filepath.Join(dir, "o-labels-idx1-ubyte")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := writeSamples(t, d, context.Background(), order, oi, ol, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	d.mu.RLock()
	want := d.planImages(order).array()
	d.mu.RUnlock()
	got, err := idx.ReadFile(oi)
	if err != nil || !bytes.Equal(got.Data, want.Data) || got.Header.String() != want.Header.String() {
		t.Fatalf("the file is not the samples' array: %v", err)
	}
	// Its buffers (the writers', 2 MiB a file; the read-back's, 1 MiB a file) and 16 bytes a
	// sample (rows, labels, indices checked).
	if alloc, bound := after.TotalAlloc-before.TotalAlloc, uint64(6<<20+16*len(order)); alloc > bound {
		t.Errorf("WriteSamples allocated %d bytes for %d bytes of images, above %d", alloc, len(want.Data), bound)
	}
}

// The same for float32 images with an appended sample (mapped back to the dtype's values): the
// bytes written are the array's.
func TestWriteSamplesStreamsFloats(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.Float32, 5, 2, 2)
	for i := range images.Len() {
		images.SetFloat(i, float64(i)/20)
	}
	labels, _ := idx.New(idx.UByte, 5)
	ip, lp := filepath.Join(dir, "f-images-idx3-float"), filepath.Join(dir, "f-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Append([]Sample{{Pixels: []byte{0, 85, 170, 255}, Label: 1}}); err != nil {
		t.Fatal(err)
	}
	order := []int{5, 3, 0, 4}
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	if err := writeSamples(t, d, context.Background(), order, oi, ol, nil); err != nil {
		t.Fatal(err)
	}
	d.mu.RLock()
	want := d.planImages(order).array()
	d.mu.RUnlock()
	got, err := idx.ReadFile(oi)
	if err != nil || !bytes.Equal(got.Data, want.Data) || got.Type != idx.Float32 {
		t.Fatalf("the file is not the samples' array: %v", err)
	}
}
