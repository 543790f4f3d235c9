package formats_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"idxlabel/export"
	"idxlabel/fixture/mnisttest"
	"idxlabel/formats"
	"idxlabel/idx"
	"idxlabel/sample"
)

// fromArrays returns the samples of an IDX pair as a sample.Set (labels column 0; int32's
// −2147483648 is no label), with names for the classes named.
func fromArrays(images, labels *idx.Array, names map[int]string) sample.Set {
	n, h, w := images.Dims[0], images.Dims[1], images.Dims[2]
	s := sample.Set{N: n, H: h, W: w, Labels: make([]int, n)}
	s.Pixels = func(k int) []byte { return images.Data[k*h*w : (k+1)*h*w] }
	for k := range n {
		s.Labels[k] = int(labels.Int(k))
	}
	if names != nil {
		s.ClassName = func(c int) string { return names[c] }
	}
	return s
}

// generated returns n samples of side×side random pixels with labels 0–9, every seventh
// unlabelled, and, with big, one label above 255.
func generated(seed uint64, n, side int, big bool) (*idx.Array, *idx.Array) {
	rng := rand.New(rand.NewPCG(seed, 1))
	images, _ := idx.New(idx.UByte, n, side, side)
	for i := range images.Data {
		images.Data[i] = byte(rng.IntN(256))
	}
	labels, _ := idx.New(idx.Int32, n)
	for k := range n {
		l := int64(rng.IntN(10))
		if k%7 == 3 {
			l = sample.NoLabel
		}
		if big && k == 5 {
			l = 300
		}
		labels.SetInt(k, l)
	}
	return images, labels
}

// roundTrip exports the pair in format f and reads it back.
func roundTrip(t *testing.T, images, labels *idx.Array, names map[int]string, f export.Format) *formats.Set {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out."+string(f))
	if err := export.Write(context.Background(), fromArrays(images, labels, names), out, export.Options{Format: f, Made: "idxlabel test"}); err != nil {
		t.Fatal(err)
	}
	in := out
	if f == export.Parquet {
		in = filepath.Join(out, export.ParquetFile("train"))
	}
	got, err := formats.Read(context.Background(), in, formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sameArrays fails t unless got holds exactly images and labels (their values: the label dtype
// may differ) and the names.
func sameArrays(t *testing.T, what string, got *formats.Set, images, labels *idx.Array) {
	t.Helper()
	if !bytes.Equal(got.Images.Data, images.Data) || fmt.Sprint(got.Images.Dims) != fmt.Sprint(images.Dims) {
		t.Fatalf("%s: images differ (dims %v, want %v)", what, got.Images.Dims, images.Dims)
	}
	if got.Labels.Len() != labels.Len() {
		t.Fatalf("%s: %d labels, want %d", what, got.Labels.Len(), labels.Len())
	}
	for k := range labels.Len() {
		if got.Labels.Int(k) != labels.Int(k) {
			t.Fatalf("%s: label %d is %d, want %d", what, k, got.Labels.Int(k), labels.Int(k))
		}
	}
}

// Every format reads back what export wrote: pixels, labels (no label included, and a label
// above 255) and, in Parquet, the class names.
func TestRoundTripGenerated(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		images, labels := generated(seed, 1100, 12, true)
		names := map[int]string{0: "zero", 3: "three, with a comma"}
		for _, f := range []export.Format{export.Parquet, export.KaggleCSV, export.NPZ} {
			got := roundTrip(t, images, labels, names, f)
			sameArrays(t, fmt.Sprintf("%s seed %d", f, seed), got, images, labels)
			if got.Labels.Type != idx.Int32 {
				t.Fatalf("%s: labels %v, want int32 (a label above 255, samples without one)", f, got.Labels.Type)
			}
			// The ClassLabel names classes 1, 2, 4… by their numbers, which name nothing.
			if f == export.Parquet && fmt.Sprint(got.Names) != "map[0:zero 3:three, with a comma]" {
				t.Fatalf("parquet: class names %v", got.Names)
			}
		}
	}
}

// MNIST's test set goes IDX → Parquet → IDX, IDX → Kaggle CSV → IDX and IDX → .npz → IDX
// byte-identical: the IDX files encoded from what is read equal the originals.
func TestRoundTripT10k(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and writes MNIST's test set three times (a few seconds)")
	}
	images, labels := mnisttest.Load(t)
	var want bytes.Buffer
	if err := idx.Encode(&want, images); err != nil {
		t.Fatal(err)
	}
	var wantLabels bytes.Buffer
	if err := idx.Encode(&wantLabels, labels); err != nil {
		t.Fatal(err)
	}
	for _, f := range []export.Format{export.Parquet, export.KaggleCSV, export.NPZ} {
		got := roundTrip(t, images, labels, nil, f)
		var gi, gl bytes.Buffer
		if err := idx.Encode(&gi, got.Images); err != nil {
			t.Fatal(err)
		}
		if err := idx.Encode(&gl, got.Labels); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gi.Bytes(), want.Bytes()) || !bytes.Equal(gl.Bytes(), wantLabels.Bytes()) {
			t.Fatalf("%s: the IDX files differ from t10k's (images %d bytes, labels %d and %v)", f, gi.Len(), gl.Len(), got.Labels.Header)
		}
	}
}
