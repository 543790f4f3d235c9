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

// suggestChunk is how many samples Suggest predicts between progress reports and checks of
// its context.
const suggestChunk = 256

// Suggest predicts a label for each sample idx[k] of d (d.Labels is not read): one Suspect per
// sample, with Index idx[k], Label NoLabel, Suggested the most probable class (the first on
// ties), Confidence its probability (0–1), Score 1 and Support the highest probability (as
// ScanCNN gives its unlabelled samples), most confident first, ties by lower index. Images other
// than 28×28 are resized for the model as in training. progress (may be nil) gets the share
// done, 0–1, from the calling goroutine. Errors: samples of another size than the model was
// trained on, an index outside 0…N−1, or the context's error when cancelled.
func (m *Model) Suggest(ctx context.Context, d Data, idx []int, progress func(done float64)) ([]Suspect, error) {
	h, w := d.H, d.W
	if h == 0 && w == 0 && d.Dim == cnn.Pixels {
		h, w = cnn.Side, cnn.Side
	}
	if h != m.h || w != m.w || h*w != d.Dim {
		return nil, fmt.Errorf("samples of %d×%d pixels (%d), the model takes %d×%d", h, w, d.Dim, m.h, m.w)
	}
	for _, i := range idx {
		if i < 0 || i >= d.N {
			return nil, fmt.Errorf("sample %d of %d", i, d.N)
		}
	}
	s := cnn.Samples{Pixels: d.Pixels}
	if h != cnn.Side || w != cnn.Side {
		s.Pixels = func(i int) []byte { return resize28(d.Pixels(i), h, w, nil) }
	}
	var out []Suspect
	for at := 0; at < len(idx); at += suggestChunk {
		part, err := m.suggest(ctx, s, idx[at:min(at+suggestChunk, len(idx))])
		if err != nil {
			return nil, err
		}
		out = append(out, part...)
		if progress != nil {
			progress(float64(min(at+suggestChunk, len(idx))) / float64(len(idx)))
		}
	}
	sortSuggestions(out)
	return out, nil
}

// suggest predicts samples idx of s (28×28), unsorted.
func (m *Model) suggest(ctx context.Context, s cnn.Samples, idx []int) ([]Suspect, error) {
	p, err := m.probabilities(ctx, s, idx)
	if err != nil {
		return nil, err
	}
	nc := len(m.classes)
	out := make([]Suspect, len(idx))
	for k, i := range idx {
		out[k] = verdict(i, NoLabel, -1, p[k*nc:(k+1)*nc], m.classes)
	}
	return out, nil
}

// sortSuggestions orders suggestions most confident first, ties by lower index.
func sortSuggestions(out []Suspect) {
	slices.SortStableFunc(out, func(a, b Suspect) int {
		if a.Confidence != b.Confidence {
			return cmpDesc(a.Confidence, b.Confidence)
		}
		return a.Index - b.Index
	})
}

// minModelSteps is the fewest optimizer steps TrainModel takes by default. Few labelled samples
// (a dataset being labelled from scratch) need more epochs than the scan's 12: measured on t10k,
// error on 2,000 held-out digits with 12 epochs, then with 300 steps (then 600): 100 labelled
// 49.6% → 14.3% (13.9%); 300 labelled 18.1% → 5.7% (4.7%); 1,000 labelled 4.3% → 2.6%.
const minModelSteps = 300

// modelEpochs returns the epochs TrainModel uses by default for n labelled samples: the scan's
// (DefaultEpochs), or more so that it takes at least minModelSteps (300) optimizer steps of 64.
func modelEpochs(n int) int {
	perEpoch := max(1, cnn.Config{Epochs: 1}.Steps(n))
	return max(DefaultEpochs(n), (minModelSteps+perEpoch-1)/perEpoch)
}

// TrainModel trains one network on every labelled sample of d (the recipe of ScanCNN, without
// cross-validation, and by default at least 300 optimizer steps: modelEpochs), for predicting
// labels before any scan has run. Errors: as ScanCNN's.
func TrainModel(ctx context.Context, d Data, opts CNNOptions, progress func(Progress)) (*Model, error) {
	in, err := prepare(d)
	if err != nil {
		return nil, err
	}
	if opts.Epochs <= 0 {
		opts.Epochs = modelEpochs(len(in.labelled))
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
