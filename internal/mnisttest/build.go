package mnisttest

import (
	"math"
	"math/rand/v2"
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
	outImages, outLabels, err := newPair(n, h, w)
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

// Augmented returns an n-sample pair made from images (N×H×W ubyte) and labels (N ubyte) as an
// augmented dataset is: sample i is source sample i mod N with its label, the first N as they
// are, each later one shifted by a random whole pixel or none in each direction (pixels shifted
// in are 0) with Gaussian noise of σ sigma grey levels added to every pixel (rounded, clipped to
// 0–255), drawn with seed. Every source sample then has n/N − 1 near-copies. Errors: those of
// idx.New for an impossible n.
func Augmented(images, labels *idx.Array, n int, seed uint64, sigma float64) (*idx.Array, *idx.Array, error) {
	src, h, w := images.Dims[0], images.Dims[1], images.Dims[2]
	outImages, outLabels, err := newPair(n, h, w)
	if err != nil {
		return nil, nil, err
	}
	size := h * w
	rng := rand.New(rand.NewPCG(seed, 0xa06))
	for i := range n {
		s := i % src
		in, out := images.Data[s*size:(s+1)*size], outImages.Data[i*size:(i+1)*size]
		outLabels.Data[i] = labels.Data[s]
		if i < src {
			copy(out, in)
			continue
		}
		dy, dx := rng.IntN(3)-1, rng.IntN(3)-1
		for y := range h {
			for x := range w {
				v := 0.0
				if sy, sx := y-dy, x-dx; sy >= 0 && sy < h && sx >= 0 && sx < w {
					v = float64(in[sy*w+sx])
				}
				out[y*w+x] = byte(max(0, min(255, math.Round(v+sigma*rng.NormFloat64()))))
			}
		}
	}
	return outImages, outLabels, nil
}

// newPair allocates an n×h×w ubyte image array and n ubyte labels. Errors: those of idx.New.
func newPair(n, h, w int) (*idx.Array, *idx.Array, error) {
	images, err := idx.New(idx.UByte, n, h, w)
	if err != nil {
		return nil, nil, err
	}
	labels, err := idx.New(idx.UByte, n)
	return images, labels, err
}

// Distorted returns an n-sample pair made from images (N×H×W ubyte) and labels (N ubyte), like
// Shifted, but each later pass's copy of a sample is elastically distorted (in the spirit of
// Simard et al. 2003: a smooth random displacement field, here bilinear between random
// displacements of up to ±1.5 pixels on a 5×5 grid over the field; drawn with seed), so that a
// large set tiled from a small one is not mostly near-duplicates of it (1–2 pixel shifts are;
// these copies are new handwriting of the same digit). Errors: those of idx.New.
func Distorted(images, labels *idx.Array, n int, seed uint64) (*idx.Array, *idx.Array, error) {
	src, h, w := images.Dims[0], images.Dims[1], images.Dims[2]
	outImages, outLabels, err := newPair(n, h, w)
	if err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x64697374))
	size := h * w
	const grid, amp = 5, 1.5
	var gy, gx [grid * grid]float64
	for i := range n {
		s := i % src
		in, out := images.Data[s*size:(s+1)*size], outImages.Data[i*size:(i+1)*size]
		outLabels.Data[i] = labels.Data[s]
		if i < src {
			copy(out, in)
			continue
		}
		for k := range gy {
			gy[k], gx[k] = amp*(2*rng.Float64()-1), amp*(2*rng.Float64()-1)
		}
		for y := range h {
			// The grid coordinates of (y, x): 0…grid−1 across the field.
			py := float64(y) * (grid - 1) / float64(max(1, h-1))
			for x := range w {
				px := float64(x) * (grid - 1) / float64(max(1, w-1))
				dy, dx := gridAt(gy[:], grid, py, px), gridAt(gx[:], grid, py, px)
				out[y*w+x] = bilinear(in, h, w, float64(y)+dy, float64(x)+dx)
			}
		}
	}
	return outImages, outLabels, nil
}

// gridAt interpolates a grid×grid table bilinearly at (y, x), grid coordinates.
func gridAt(g []float64, grid int, y, x float64) float64 {
	y0, x0 := min(int(y), grid-2), min(int(x), grid-2)
	fy, fx := y-float64(y0), x-float64(x0)
	at := func(r, c int) float64 { return g[r*grid+c] }
	return (1-fy)*((1-fx)*at(y0, x0)+fx*at(y0, x0+1)) + fy*((1-fx)*at(y0+1, x0)+fx*at(y0+1, x0+1))
}

// bilinear samples the h×w image p at (y, x), 0 outside.
func bilinear(p []byte, h, w int, y, x float64) byte {
	y0, x0 := math.Floor(y), math.Floor(x)
	fy, fx := y-y0, x-x0
	at := func(yy, xx int) float64 {
		if yy < 0 || yy >= h || xx < 0 || xx >= w {
			return 0
		}
		return float64(p[yy*w+xx])
	}
	iy, ix := int(y0), int(x0)
	v := (1-fy)*((1-fx)*at(iy, ix)+fx*at(iy, ix+1)) + fy*((1-fx)*at(iy+1, ix)+fx*at(iy+1, ix+1))
	return byte(math.Round(v))
}
