// Package formats reads the dataset files other tools write into the arrays an IDX pair gives:
// Hugging Face's Parquet (an image column of PNG or JPEG files and an integer label column, the
// class names in its "huggingface" metadata), Kaggle's CSV (label,pixel0,…) and NumPy's .npy and
// .npz (uint8 N×H×W images, integer N labels). Read returns images N×H×W ubyte and labels N
// (ubyte, or int32 when a label is above 255 or missing: sample.NoLabel), the class names, and
// notes for the person; the window opens them as it opens an IDX pair (store.FromArrays) and the
// command line turns them into IDX (convert). Detect tells the formats apart by their first
// bytes, IDX included.
//
// Every byte read is untrusted. Nothing is allocated from a size a file declares before it is
// checked against the file's size and the limits here (idx.MaxData for the samples, MaxRows,
// MaxPage, MaxFooter, normalize.MaxPixels for one image); compressed data is held to what its
// header declares, so a small file claiming huge sizes is refused within bounded memory. A
// malformed file gets an error naming it and, where there is one, the row. formats never
// imports Fyne or the store.
package formats

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// Format is a dataset file format.
type Format string

// The formats Detect tells apart. Read reads all but IDX, which store.Open reads.
const (
	IDX       Format = "idx"        // an IDX file, plain or gzip
	Parquet   Format = "parquet"    // Apache Parquet (Hugging Face datasets)
	KaggleCSV Format = "kaggle-csv" // a CSV whose header is label,pixel0,… or pixel0,…
	NPY       Format = "npy"        // one NumPy array
	NPZ       Format = "npz"        // a zip of NumPy arrays (numpy.savez, savez_compressed)
)

// ErrUnknown: a file that is none of the formats (Detect).
var ErrUnknown = errors.New("not a dataset file idxlabel reads (IDX, Parquet, Kaggle CSV, .npy, .npz)")

// ErrTooLarge: a file declares more than idxlabel reads (rows, pages, arrays, samples beyond the
// limits, or sizes beyond the file's own). The error wrapping it names the file and the figure.
var ErrTooLarge = errors.New("more than idxlabel reads")

// ErrMalformed: a file is damaged or not what its format says. The error wrapping it names the
// file and what was wrong.
var ErrMalformed = errors.New("malformed")

// Limits on what Read accepts, beside idx.MaxData on the samples' pixels.
const (
	// MaxRows is the most samples a file may hold (2^28, 268 million).
	MaxRows = 1 << 28
	// MaxPage is the most bytes one Parquet page may hold, compressed or not (128 MiB: a page
	// holds whole images, and normalize.MaxDecodeBytes bounds one decoded image at 192 MiB).
	MaxPage = 128 << 20
	// MaxFooter is the most bytes a Parquet file's footer (its metadata) may hold: 64 MiB,
	// more than 32,767 row groups of a few columns need.
	MaxFooter = 64 << 20
	// MaxPageValues is the most values one Parquet page may declare (2^22): the reader
	// allocates a few bytes per value, whatever their encoding.
	MaxPageValues = 1 << 22
)

// Options adjust Read. The zero value reads a file as its format's tools write it.
type Options struct {
	// ImageColumn and LabelColumn name a Parquet file's image and label columns (top-level
	// fields); "" finds them by type (ParquetColumns' rule).
	ImageColumn, LabelColumn string
	// ImagesKey and LabelsKey name an .npz file's arrays ("" is "x" and "y", as export writes
	// them).
	ImagesKey, LabelsKey string
	// Width and Height give the samples' size in pixels for files of encoded images (Parquet);
	// 0 takes the first image's size when it is at most DefaultMaxSide on each side, else
	// 28×28. Images of that size are taken as they are (grey by luminance); others go through
	// Normalize as import does.
	Width, Height int
	// Normalize is the preprocessing of images of another size (normalize.Sample): MNIST's,
	// with its centring, ink and threshold options.
	Normalize normalize.Options
	// NoNormalize only resizes images of another size to the field (import's --no-normalize).
	NoNormalize bool
	// Workers decode images (0: one per CPU).
	Workers int
	// Progress (may be nil) is called with the samples read so far and the total (0 when not
	// known yet), from one goroutine at a time.
	Progress func(done, total int)
}

// DefaultMaxSide is the largest side, in pixels, of a first image whose size Read takes for the
// samples when Options.Width and Height are 0: small images (MNIST's 28, CIFAR's 32) are the
// samples; larger ones (photos) are preprocessed to 28×28.
const DefaultMaxSide = 64

// Set is what Read returns: the samples as an IDX pair gives them, and what the file said
// about them.
type Set struct {
	Format Format
	// Images is N×H×W ubyte, upright, 0 = background as the file stores it.
	Images *idx.Array
	// Labels is N labels: ubyte when every label is 0–255, else int32 with sample.NoLabel
	// (−2147483648) for a sample without one (a Kaggle test.csv, a null Parquet label, −1 in
	// a Parquet or NumPy file).
	Labels *idx.Array
	// Names holds the class names the file gives (a Parquet ClassLabel), or nil.
	Names map[int]string
	// Notes are sentences for the person about what Read did (images preprocessed, labels
	// missing); nil when there is nothing to say.
	Notes []string
}

// N returns the number of samples.
func (s *Set) N() int { return s.Images.Dims[0] }

// Detect returns the format of the file at path, from its first bytes: Parquet's "PAR1", NumPy's
// "\x93NUMPY", a zip's "PK\x03\x04" (.npz), IDX's magic number or gzip's (an IDX file), or a first
// line that begins "label," or "pixel" (Kaggle CSV). Errors: the file cannot be opened or is not
// a regular file, or ErrUnknown (wrapped, naming it).
func Detect(path string) (Format, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	head = head[:n]
	s := string(head)
	switch {
	case strings.HasPrefix(s, "PAR1"):
		return Parquet, nil
	case strings.HasPrefix(s, "\x93NUMPY"):
		return NPY, nil
	case strings.HasPrefix(s, "PK\x03\x04"), strings.HasPrefix(s, "PK\x05\x06"):
		return NPZ, nil
	case idx.IsGzip(head), len(head) >= 4 && head[0] == 0 && head[1] == 0 && idx.DType(head[2]).Valid():
		return IDX, nil
	case strings.HasPrefix(strings.TrimPrefix(s, "\ufeff"), "label,"), strings.HasPrefix(strings.TrimPrefix(s, "\ufeff"), "pixel"):
		return KaggleCSV, nil
	}
	return "", fmt.Errorf("%s: %w", path, ErrUnknown)
}

// Read reads the dataset file at path (Parquet, Kaggle CSV, .npy or .npz, by Detect) whole.
// Memory: the samples (N·H·W bytes) and their labels, and, while reading, one Parquet page per
// column or one NumPy array. Errors, each naming the file: Detect's; IDX (read it with
// store.Open); ErrTooLarge and ErrMalformed (wrapped); an image that does not decode (naming its
// row); the context's error when cancelled (checked between batches of Parquet images and of CSV
// lines; a NumPy array is read whole).
func Read(ctx context.Context, path string, opts Options) (*Set, error) {
	f, err := Detect(path)
	if err != nil {
		return nil, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Progress == nil {
		opts.Progress = func(int, int) {}
	}
	var s *Set
	switch f {
	case Parquet:
		s, err = readParquet(ctx, path, opts)
	case KaggleCSV:
		s, err = readKaggle(ctx, path, opts)
	case NPY:
		s, err = readNPY(path)
	case NPZ:
		s, err = readNPZ(path, opts)
	default:
		return nil, fmt.Errorf("%s: an IDX file: open it as a pair (IMAGES LABELS), not through this reader", path)
	}
	if err != nil {
		return nil, err
	}
	s.Format = f
	return s, nil
}

// IDXNames returns the IDX pair a dataset file is saved as beside it: its name without the
// extension, then "-images-idx3-ubyte.gz" and "-labels-idx1-ubyte.gz", in its folder (MNIST's
// naming, so the window pairs them again: store.FindLabels). "train.csv" gives
// "train-images-idx3-ubyte.gz" and "train-labels-idx1-ubyte.gz".
func IDXNames(path string) (images, labels string) {
	base := strings.TrimSuffix(path, filepath.Ext(path))
	return base + "-images-idx3-ubyte.gz", base + "-labels-idx1-ubyte.gz"
}

// samples gathers samples as they are read: their pixels (H·W each, bounded by idx.MaxData) and
// labels.
type samples struct {
	name   string // the file, for errors
	h, w   int
	pixels []byte
	labels []int
}

// reserve checks that n samples of h×w pixels fit idx.MaxData and MaxRows and sets the size.
// It allocates nothing: pixels grow as samples are added (add), so memory follows what the
// file holds, not what it declares.
func (s *samples) reserve(n int64, h, w int) error {
	if n < 0 || n > MaxRows {
		return fmt.Errorf("%s: %d samples: %w (at most %d)", s.name, n, ErrTooLarge, MaxRows)
	}
	if h < 1 || w < 1 || h > MaxSide || w > MaxSide {
		return fmt.Errorf("%s: samples of %d×%d pixels: %w (1 to %d pixels a side)", s.name, h, w, ErrTooLarge, MaxSide)
	}
	if need := n * int64(h) * int64(w); need > idx.MaxData() {
		return fmt.Errorf("%s: %d samples of %d×%d pixels are %d bytes: %w (the limit is %d bytes; %s raises it)",
			s.name, n, h, w, need, ErrTooLarge, idx.MaxData(), idx.MaxDataEnv)
	}
	s.h, s.w = h, w
	return nil
}

// MaxSide is the largest height or width of a sample, in pixels: pairfile's, whose shape checks
// refuse larger samples.
const MaxSide = pairfile.MaxSide

// add appends one sample (H·W pixels) and its label.
func (s *samples) add(px []byte, label int) {
	s.pixels = append(s.pixels, px...)
	s.labels = append(s.labels, label)
}

// set returns the gathered samples as a Set.
func (s *samples) set() (*Set, error) {
	images, labels, err := Arrays(s.pixels, s.labels, s.h, s.w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return &Set{Images: images, Labels: labels}, nil
}

// Arrays wraps samples as IDX arrays: images N×h×w ubyte (pixels, not copied: len(labels)·h·w
// bytes) and labels N ubyte, or int32 when a label is outside 0–255 (sample.NoLabel included).
// Errors: pixels of another length, a label outside int32, or a shape idx refuses.
func Arrays(pixels []byte, labels []int, h, w int) (images, labelArr *idx.Array, err error) {
	n := len(labels)
	if len(pixels) != n*h*w {
		return nil, nil, fmt.Errorf("%d bytes of pixels for %d samples of %d×%d", len(pixels), n, h, w)
	}
	images = &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: []int{n, h, w}}, Data: pixels}
	if err := images.Check(); err != nil {
		return nil, nil, err
	}
	dt := idx.UByte
	for i, l := range labels {
		if l < math.MinInt32 || l > math.MaxInt32 {
			return nil, nil, fmt.Errorf("label %d of sample %d is outside the 32-bit labels IDX holds", l, i)
		}
		if l < 0 || l > 255 {
			dt = idx.Int32
		}
	}
	if labelArr, err = idx.New(dt, n); err != nil {
		return nil, nil, err
	}
	for i, l := range labels {
		labelArr.SetInt(i, int64(l))
	}
	return images, labelArr, nil
}

// noLabelValue is how Parquet (Hugging Face's ClassLabel) and our NumPy export write a sample
// without a label: −1.
const noLabelValue = -1

// labelOf maps a label read from a Parquet, NumPy or CSV file to the sample's label: −1 (no
// label in Hugging Face's ClassLabel and in export's .npz) and −2147483648 (an int32 IDX label
// file's mark) are sample.NoLabel. Errors: a value outside int32.
func labelOf(v int64) (int, error) {
	if v == noLabelValue || v == sample.NoLabel {
		return sample.NoLabel, nil
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("label %d is outside the 32-bit labels IDX holds", v)
	}
	return int(v), nil
}
