package mnisttest

import (
	"testing"

	"idxlabel/idx"
)

// shifts are the whole-pixel translations (dx, dy) applied on successive passes over the source
// when a larger dataset is built: pass 0 is the original, later passes are shifted copies, so the
// result is not a byte-for-byte repetition and every sample keeps its digit (a shift does not
// change the class, a flip would).
var shifts = [][2]int{{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}, {2, 0}, {0, 2}, {-2, 0}, {0, -2}}

// Load returns the real t10k images (10000×28×28) and labels (10000), skipping tb when the
// files are absent (see Dir).
func Load(tb testing.TB) (images, labels *idx.Array) {
	tb.Helper()
	images, labels, err := ReadPair(Path(tb, TestImages), Path(tb, TestLabels))
	if err != nil {
		tb.Fatal(err)
	}
	return images, labels
}

// LoadTrain returns the real training images (60000×28×28) and labels (60000), skipping tb
// when the files are absent (see Dir).
func LoadTrain(tb testing.TB) (images, labels *idx.Array) {
	tb.Helper()
	images, labels, err := ReadPair(Path(tb, TrainImages), Path(tb, TrainLabels))
	if err != nil {
		tb.Fatal(err)
	}
	return images, labels
}

// ReadPair reads an image file and a label file (the benchmark tools' input). Errors: those of
// idx.ReadFile.
func ReadPair(imagesPath, labelsPath string) (images, labels *idx.Array, err error) {
	if images, err = idx.ReadFile(imagesPath); err != nil {
		return nil, nil, err
	}
	if labels, err = idx.ReadFile(labelsPath); err != nil {
		return nil, nil, err
	}
	return images, labels, nil
}

// Build is Shifted for tests and benchmarks: it fails tb on error.
func Build(tb testing.TB, images, labels *idx.Array, n int) (*idx.Array, *idx.Array) {
	tb.Helper()
	outImages, outLabels, err := Shifted(images, labels, n)
	if err != nil {
		tb.Fatal(err)
	}
	return outImages, outLabels
}

// Shifted returns an n-sample pair made from images (N×H×W ubyte) and labels (N ubyte): sample
// i is source sample i mod N, translated by pass i/N's shift (pixels shifted in from outside are
// 0), with the source's label. Shapes: images n×H×W ubyte, labels n ubyte. Errors: those of
// idx.New for an impossible n.
func Shifted(images, labels *idx.Array, n int) (*idx.Array, *idx.Array, error) {
	src, h, w := images.Dims[0], images.Dims[1], images.Dims[2]
	outImages, err := idx.New(idx.UByte, n, h, w)
	if err != nil {
		return nil, nil, err
	}
	outLabels, err := idx.New(idx.UByte, n)
	if err != nil {
		return nil, nil, err
	}
	size := h * w
	for i := range n {
		s := i % src
		sh := shifts[(i/src)%len(shifts)]
		in, out := images.Data[s*size:(s+1)*size], outImages.Data[i*size:(i+1)*size]
		for y := range h {
			sy := y - sh[1]
			if sy < 0 || sy >= h {
				continue
			}
			for x := range w {
				if sx := x - sh[0]; sx >= 0 && sx < w {
					out[y*w+x] = in[sy*w+sx]
				}
			}
		}
		outLabels.Data[i] = labels.Data[s]
	}
	return outImages, outLabels, nil
}
