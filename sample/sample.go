// Package sample is the set of samples every part of idxlabel hands around: N images of H×W
// pixels, their labels, the mark of "no label", and the one rule that turns EMNIST's
// transposed storage upright. The store's snapshots, the scans (suspect), the file formats
// (export), the health report and the dataset-building commands all take a Set. It imports
// nothing of the program.
package sample

import "math"

// NoLabel is the label of a sample that has none: a dataset opened from images alone, a sample
// drawn before its class is chosen. It is int32's least value (−2147483648), which no class
// uses and which an int32 label file stores for it.
const NoLabel = math.MinInt32

// Set is N samples, each H×W pixels as stored (0 = background, 255 = ink), with their labels.
// Pixels returns buffers that never change, so a Set can be read from any goroutine while the
// dataset it was taken from goes on being edited.
type Set struct {
	N int
	// H and W are each sample's height and width as stored: Pixels(k) holds H rows of W
	// pixels. A transposed set (EMNIST) is shown W×H: see Shown.
	H, W int
	// Transposed reports that the samples are stored transposed, as EMNIST stores them.
	Transposed bool
	// Pixels returns sample k's H·W pixels as stored, row-major (k in 0…N−1). It may be called
	// concurrently; the slice must not be modified.
	Pixels func(k int) []byte
	// Labels holds the N labels (NoLabel for none).
	Labels []int
	// Index holds the number each sample has in its dataset (its 0-based sample number in the
	// files); nil numbers them 0…N−1.
	Index []int
	// ClassName returns class c's name ("" for none); nil: the classes have no names.
	ClassName func(c int) string
}

// Dim returns the number of pixels of one sample, H·W.
func (s Set) Dim() int { return s.H * s.W }

// Number returns sample k's number in its dataset: Index[k], or k when Index is nil.
func (s Set) Number(k int) int {
	if s.Index == nil {
		return k
	}
	return s.Index[k]
}

// ShownSize returns the height and width a viewer shows each sample at: H×W, or W×H for a
// transposed set.
func (s Set) ShownSize() (h, w int) {
	if s.Transposed {
		return s.W, s.H
	}
	return s.H, s.W
}

// Shown returns sample k's pixels upright, as a viewer shows them (ShownSize, row-major): the
// stored pixels themselves for a set that is not transposed, otherwise their transpose written
// into buf (grown when shorter).
func (s Set) Shown(k int, buf []byte) []byte {
	h, w := s.ShownSize()
	return Upright(s.Pixels(k), h, w, s.Transposed, buf)
}

// Labelled reports whether any sample has a label.
func (s Set) Labelled() bool {
	for _, l := range s.Labels {
		if l != NoLabel {
			return true
		}
	}
	return false
}

// Subset returns the samples at positions keep (0…N−1, in that order) as a Set of their own:
// its Index names them by their numbers in the dataset, its Pixels reads through s.
func (s Set) Subset(keep []int) Set {
	out := s
	out.N = len(keep)
	out.Labels = make([]int, len(keep))
	out.Index = make([]int, len(keep))
	for k, p := range keep {
		out.Labels[k] = s.Labels[p]
		out.Index[k] = s.Number(p)
	}
	out.Pixels = func(k int) []byte { return s.Pixels(keep[k]) }
	return out
}

// Upright returns one sample's pixels upright: height×width as a viewer shows them, row-major.
// px are the pixels as stored: row-major height×width, or, when transposed (EMNIST), the
// width×height transpose. For a transposed sample it writes the transpose into buf (grown when
// shorter than height·width) and returns it; otherwise it returns px[:height·width] itself,
// not a copy. It panics if px holds fewer than height·width pixels.
//
// This and AppendStored are the one place that handles EMNIST's transposed storage.
func Upright(px []byte, height, width int, transposed bool, buf []byte) []byte {
	n := height * width
	px = px[:n]
	if !transposed {
		return px
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	return appendTranspose(buf[:0], px, width, height)
}

// AppendStored appends an upright height×width image (row-major) to dst as a set stores it:
// unchanged, or transposed (width×height) when transposed is true. It is Upright's inverse.
func AppendStored(dst, upright []byte, height, width int, transposed bool) []byte {
	if !transposed {
		return append(dst, upright[:height*width]...)
	}
	return appendTranspose(dst, upright, height, width)
}

// appendTranspose appends the transpose of a rows×cols row-major image to dst.
func appendTranspose(dst, src []byte, rows, cols int) []byte {
	for c := range cols {
		for r := range rows {
			dst = append(dst, src[r*cols+c])
		}
	}
	return dst
}
