package suspect

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"
	"slices"

	"github.com/disintegration/imaging"

	"idxlabel/suspect/cnn"
)

// Model is a trained classifier of samples: one or more networks whose class probabilities are
// averaged. It keeps no pixels. Safe for concurrent use.
type Model struct {
	nets    []*cnn.Net
	classes []int // the label of each output, ascending
	h, w    int   // the samples' size in pixels; resized to 28×28 when other
}

// Classes returns the labels the model can predict, ascending.
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Predict returns the most probable label of one sample (H×W pixels as in the data the model was
// trained on, row-major, 0–255) and its probability, 0–1. Errors: pixels of the wrong length.
func (m *Model) Predict(pixels []byte) (label int, confidence float64, err error) {
	if len(pixels) != m.h*m.w {
		return 0, 0, fmt.Errorf("a sample of %d pixels, the model takes %d×%d", len(pixels), m.h, m.w)
	}
	x := pixels
	if m.h != cnn.Side || m.w != cnn.Side {
		x = resize28(pixels, m.h, m.w, nil)
	}
	p, err := m.probabilities(context.Background(), cnn.Samples{Pixels: func(int) []byte { return x }}, []int{0})
	if err != nil {
		return 0, 0, err
	}
	best := argmax(p)
	return m.classes[best], float64(p[best]), nil
}

// probabilities returns the mean probabilities of the nets for the samples idx (len(idx)×classes).
func (m *Model) probabilities(ctx context.Context, s cnn.Samples, idx []int) ([]float32, error) {
	nc := len(m.classes)
	sum := make([]float32, len(idx)*nc)
	one := make([]float32, len(idx)*nc)
	for _, n := range m.nets {
		if err := n.Probabilities(ctx, s, idx, one); err != nil {
			return nil, err
		}
		for j, v := range one {
			sum[j] += v / float32(len(m.nets))
		}
	}
	return sum, nil
}

// TrainModel trains one network on every labelled sample of d (the recipe of ScanCNN, without
// cross-validation), for predicting labels before any scan has run. Errors: as ScanCNN's.
func TrainModel(ctx context.Context, d Data, opts CNNOptions, progress func(Progress)) (*Model, error) {
	in, err := prepare(d)
	if err != nil {
		return nil, err
	}
	opts = opts.withDefaults(len(in.labelled))
	cfg := cnn.Config{Epochs: opts.Epochs}
	steps := cfg.Steps(len(in.labelled))
	perEpoch := (steps + opts.Epochs - 1) / opts.Epochs
	rng := rand.New(rand.NewPCG(opts.Seed, 0xfeed))
	start := newProgressClock()
	net, err := cnn.Train(ctx, in.samples, in.labelled, len(in.classes), cfg, rng, func(step, steps int) {
		if progress != nil && (step%10 == 0 || step == steps) {
			progress(start.progress(1, 1, min((step-1)/perEpoch+1, opts.Epochs), opts.Epochs, float64(step)/float64(steps)))
		}
	})
	if err != nil {
		return nil, err
	}
	return &Model{nets: []*cnn.Net{net}, classes: in.classes, h: in.h, w: in.w}, nil
}

// input is a dataset made ready for the CNN.
type input struct {
	samples  cnn.Samples // 28×28 pixels; Labels holds class indices (−1 for NoLabel)
	labelled []int       // indices of the labelled samples
	cls      []int       // each sample's class index, −1 for NoLabel
	classes  []int       // the distinct labels, ascending
	h, w     int
}

// prepare checks d and maps its labels to class indices; images other than 28×28 are resized
// once into a buffer of N×784 bytes. Errors: fewer than 2 samples, labels or pixels of the wrong
// length, a size that does not match Dim, fewer than 2 classes or more than cnn.MaxClasses.
func prepare(d Data) (*input, error) {
	if d.N < 2 {
		return nil, fmt.Errorf("suspects need at least 2 samples, the dataset has %d", d.N)
	}
	if len(d.Labels) != d.N {
		return nil, fmt.Errorf("%d labels for %d samples", len(d.Labels), d.N)
	}
	h, w := d.H, d.W
	if h == 0 && w == 0 && d.Dim == cnn.Pixels {
		h, w = cnn.Side, cnn.Side
	}
	if h <= 0 || w <= 0 || h*w != d.Dim {
		return nil, fmt.Errorf("samples of %d×%d pixels do not have %d pixels", h, w, d.Dim)
	}
	if got := len(d.Pixels(0)); got != d.Dim {
		return nil, fmt.Errorf("samples have %d pixels, not %d", got, d.Dim)
	}
	in := &input{h: h, w: w, cls: make([]int, d.N)}
	seen := map[int]bool{}
	for _, l := range d.Labels {
		if l != NoLabel && !seen[l] {
			seen[l] = true
			in.classes = append(in.classes, l)
			if len(in.classes) > cnn.MaxClasses {
				return nil, fmt.Errorf("more than %d classes", cnn.MaxClasses)
			}
		}
	}
	if len(in.classes) < 2 {
		return nil, fmt.Errorf("the labelled samples have %d classes, a classifier needs 2", len(in.classes))
	}
	slices.Sort(in.classes)
	for i, l := range d.Labels {
		in.cls[i] = -1
		if l != NoLabel {
			in.cls[i], _ = slices.BinarySearch(in.classes, l)
			in.labelled = append(in.labelled, i)
		}
	}
	in.samples = cnn.Samples{Pixels: d.Pixels, Labels: in.cls}
	if h != cnn.Side || w != cnn.Side {
		buf := make([]byte, d.N*cnn.Pixels)
		for i := range d.N {
			resize28(d.Pixels(i), h, w, buf[i*cnn.Pixels:(i+1)*cnn.Pixels])
		}
		in.samples.Pixels = func(i int) []byte { return buf[i*cnn.Pixels : (i+1)*cnn.Pixels] }
	}
	return in, nil
}

// resize28 resizes an h×w grey image to 28×28 (bilinear) into dst (allocated when nil).
func resize28(px []byte, h, w int, dst []byte) []byte {
	img := &image.Gray{Pix: px, Stride: w, Rect: image.Rect(0, 0, w, h)}
	out := imaging.Resize(img, cnn.Side, cnn.Side, imaging.Linear)
	if dst == nil {
		dst = make([]byte, cnn.Pixels)
	}
	for i := range cnn.Pixels {
		dst[i] = out.Pix[4*i]
	}
	return dst
}
