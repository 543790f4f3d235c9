package pairfile

import (
	"fmt"
	"math"

	"idxlabel/idx"
)

// The one rule for a valid pair of IDX files, used by the store (opening a pair, or arrays in
// memory), the builder and the command line
// (verify, suspects, import), so that what one accepts the others accept too.
//
// Images: any IDX dtype, of rank 2 to 4, N samples of H×W pixels (N ≥ 0: an empty pair is valid):
//   - N×H×W (MNIST and its siblings);
//   - N×1×H×W (one channel first, PyTorch's layout) and N×H×W×1 (one channel last, NumPy's and
//     TensorFlow's), both read as N×H×W: with one channel the bytes are the same in C order;
//   - N×(H·W) (flattened rows), with H and W given, or inferred when H·W is a perfect square.
//
// Anything else (colour images N×3×H×W, N×H×W×3, rank 1 or above 4) is refused.
//
// Labels: an integer dtype (ubyte, sbyte, int16, int32), N of them (1-D), or N×K with the class
// in column 0 (QMNIST's N×8 int32); N equal to the images' N. Every class must fit the label
// file's dtype (it does by construction) and must not be −2147483648 (math.MinInt32), which
// idxlabel reserves as sample.NoLabel, "no label". Negative classes are valid in signed dtypes.

// Shape is the shape CheckImages finds: N samples of H×W pixels (rows × columns).
type Shape struct {
	N, H, W int
}

// MaxSide is the largest height or width, in pixels, of the samples of a dataset whose sample
// size no bytes back: one made with New, or an empty image file (N = 0), whose header alone
// declares it. (A file with samples holds H·W values per sample, so its size bounds them.)
const MaxSide = 4096

// CheckImages checks an image file's header against the pair rule above and returns its shape.
// height and width, when both > 0, give H and W for N×(H·W) files whose H·W is not a perfect
// square (they must multiply to the second dimension); otherwise they are ignored. N may be 0
// (an empty file: idx.Header.Validate), with H and W at most MaxSide. name names the file in
// errors ("" reads "the images"). Errors: a message naming the file, what was found and what is
// accepted.
func CheckImages(name string, h idx.Header, height, width int) (Shape, error) {
	name = orDefault(name, "the images")
	s, err := imageShape(name, h, height, width)
	if err == nil && s.N == 0 && (s.H > MaxSide || s.W > MaxSide) {
		return Shape{}, fmt.Errorf("%s: an empty image file of %d×%d-pixel samples; without samples, their height and width may be at most %d pixels", name, s.H, s.W, MaxSide)
	}
	return s, err
}

// imageShape is CheckImages without the bound on an empty file's sample size.
func imageShape(name string, h idx.Header, height, width int) (Shape, error) {
	d := h.Dims
	switch {
	case len(d) == 3:
		return Shape{d[0], d[1], d[2]}, nil
	case len(d) == 4 && d[1] == 1:
		return Shape{d[0], d[2], d[3]}, nil
	case len(d) == 4 && d[3] == 1:
		return Shape{d[0], d[1], d[2]}, nil
	case len(d) == 2:
		if height > 0 && width > 0 {
			if int64(height)*int64(width) != int64(d[1]) {
				return Shape{}, fmt.Errorf("%s: images are %d×%d; %d×%d pixels per sample do not make %d", name, d[0], d[1], height, width, d[1])
			}
			return Shape{d[0], height, width}, nil
		}
		side := int(math.Sqrt(float64(d[1])))
		for side*side < d[1] {
			side++
		}
		if side*side != d[1] {
			return Shape{}, fmt.Errorf("%s: images are %d×%d and %d is not a perfect square; give the height and width", name, d[0], d[1], d[1])
		}
		return Shape{d[0], side, side}, nil
	}
	return Shape{}, fmt.Errorf("%s: images must be N×H×W (or N×1×H×W, N×H×W×1, N×(H·W)), found %s", name, h)
}

// CheckLabels checks a label file's header against the pair rule above, for n images: integer
// dtype, N or N×K, N = n. labelsName and imagesName name the files in errors ("" reads "the
// labels", "the images"). Errors: a message naming the file(s), what was found and what is
// accepted.
func CheckLabels(labelsName string, h idx.Header, imagesName string, n int) error {
	labelsName = orDefault(labelsName, "the labels")
	if !h.Type.IsInteger() {
		return fmt.Errorf("%s: labels must be integers (ubyte, sbyte, int16 or int32), found dtype %s", labelsName, h.Type)
	}
	if h.Rank() > 2 {
		return fmt.Errorf("%s: labels must be N (or N×K with the class in column 0), found %s", labelsName, h)
	}
	if h.Dims[0] != n {
		return fmt.Errorf("%s has %d labels, but %s has %d images: the counts must match", labelsName, h.Dims[0], orDefault(imagesName, "the images"), n)
	}
	return nil
}

// CheckLabel checks one class value v, of sample i (0-based), read from the label file name:
// it must fit in 32 bits. sample.NoLabel (−2147483648, int32's least value) is accepted: it marks a
// sample without a label, which idxlabel writes for samples not yet labelled (see
// store.Dataset.SaveAsContext). Errors: a message naming the file, the sample and the value.
func CheckLabel(name string, i int, v int64) error {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return fmt.Errorf("%s: label %d of sample %d is outside the 32-bit classes idxlabel accepts (%d to %d; %d means \"no label\")",
			orDefault(name, "the labels"), v, i, math.MinInt32+1, math.MaxInt32, math.MinInt32)
	}
	return nil
}

// CheckPair checks an image array and a label array (nil: images alone) read from the files
// imagesName and labelsName against the pair rule above, every label included, and returns the
// images' shape. height and width are as for CheckImages. Errors: those of CheckImages,
// CheckLabels and CheckLabel.
func CheckPair(imagesName string, images *idx.Array, labelsName string, labels *idx.Array, height, width int) (Shape, error) {
	s, err := CheckImages(imagesName, images.Header, height, width)
	if err != nil || labels == nil {
		return s, err
	}
	if err := CheckLabels(labelsName, labels.Header, imagesName, s.N); err != nil {
		return Shape{}, err
	}
	stride := labels.Stride()
	for i := range s.N {
		if err := CheckLabel(labelsName, i, labels.Int(i*stride)); err != nil {
			return Shape{}, err
		}
	}
	return s, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
