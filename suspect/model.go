package suspect

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/disintegration/imaging"

	"idxlabel/internal/parallel"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/folds"
)

// Model is a trained classifier of samples: one or more networks whose class probabilities are
// averaged, then calibrated by temperature scaling (a temperature fitted on labelled samples the
// networks did not learn: see Temperature). It keeps no pixels. Safe for concurrent use.
type Model struct {
	nets        []*cnn.Net
	classes     []int   // the label of each output, ascending
	h, w        int     // the samples' size in pixels; resized to 28×28 when other
	labelled    int     // the labelled samples it learnt from
	temperature float64 // p becomes p^(1/temperature), renormalized; 1: as the networks say
}

// Classes returns the labels the model can predict, ascending.
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Labelled returns how many labelled samples the model learnt from (for ScanCNN's model: the
// labelled samples its fold models were dealt). With few (below FewLabels) its suggestions are
// often wrong, and its confidences, though calibrated, rest on few held-out samples: say so to
// the person.
func (m *Model) Labelled() int { return m.labelled }

// FewLabels is the number of labelled samples below which a model's suggestions deserve a
// warning. Measured on MNIST's test set (TrainModel on 3 or 10 labels a class, 2,000 held-out
// digits, 4 draws): 30 labels get 19% of the suggestions wrong, and the calibrated confidence
// misses the accuracy by 0.06 on average, 0.16 at worst (30 held-out labels fix a temperature
// only so well); 100 labels get 9% wrong, expected calibration error 0.03; 300, 5% and 0.01.
const FewLabels = 100

// Temperature returns the temperature of the model's calibration, above 0: its networks' mean
// probabilities p become p^(1/T), renormalized, so that on labelled samples held out from the
// networks the confidence matches the accuracy. T > 1 means the networks were overconfident;
// 1 means no calibration (too few labelled samples to hold any out).
func (m *Model) Temperature() float64 { return m.temperature }

// Predict returns the most probable label of one sample (H×W pixels as in the data the model was
// trained on, row-major, 0–255) and its calibrated probability, 0–1. Errors: pixels of the
// wrong length.
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

// probabilities returns the calibrated mean probabilities of the nets for the samples idx
// (len(idx)×classes).
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
	m.calibrate(sum)
	return sum, nil
}

// calibrate applies the model's temperature to rows of mean probabilities, in place.
func (m *Model) calibrate(p []float32) { temper(p, len(m.classes), m.temperature) }

// suggestChunk is how many samples Suggest predicts between progress reports and checks of
// its context.
const suggestChunk = 256

// Suggest predicts a label for each sample idx[k] of d (d.Labels is not read): one Suspect per
// sample, with Index idx[k], Label sample.NoLabel, Suggested the most probable class (the first on
// ties), Confidence its probability (0–1), Score 1 and Support the highest probability (as
// ScanCNN gives its unlabelled samples), most confident first, ties by lower index. Images other
// than 28×28 are resized for the model as in training. progress (may be nil) gets the share
// done, 0–1, from the calling goroutine. Errors: samples of another size than the model was
// trained on, an index outside 0…N−1, or the context's error when cancelled.
func (m *Model) Suggest(ctx context.Context, d sample.Set, idx []int, progress func(done float64)) ([]Suspect, error) {
	s, err := m.samples(d, idx)
	if err != nil {
		return nil, err
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

// samples returns d's samples as the model's networks read them (resized to 28×28 as in
// training when they are another size), after checking that d has the size the model was
// trained on and that every index of idx is a sample of d.
func (m *Model) samples(d sample.Set, idx []int) (cnn.Samples, error) {
	h, w := d.H, d.W
	if h != m.h || w != m.w || h*w != d.Dim() {
		return cnn.Samples{}, fmt.Errorf("samples of %d×%d pixels (%d), the model takes %d×%d", h, w, d.Dim(), m.h, m.w)
	}
	for _, i := range idx {
		if i < 0 || i >= d.N {
			return cnn.Samples{}, fmt.Errorf("sample %d of %d", i, d.N)
		}
	}
	s := cnn.Samples{Pixels: d.Pixels}
	if h != cnn.Side || w != cnn.Side {
		s.Pixels = func(i int) []byte { return resize28(d.Pixels(i), h, w, nil) }
	}
	return s, nil
}

// Features returns the penultimate activations (cnn.Features values per sample, len(idx) rows,
// row k for sample idx[k] of d) of the model's first network. For ScanCNN's Model that network is
// the first fold model of the first seed, whose space CNNResult.Features are mapped into: the
// features of samples added after a scan are comparable with the scan's (a map places them among
// its points). Images other than 28×28 are resized as in training. Growth: one forward pass per
// sample, O(len(idx)·cnn.Features) memory. Errors: samples of another size than the model was
// trained on, an index outside 0…N−1, or the context's error when cancelled.
func (m *Model) Features(ctx context.Context, d sample.Set, idx []int) ([]float32, error) {
	s, err := m.samples(d, idx)
	if err != nil {
		return nil, err
	}
	net := m.nets[0]
	probs := make([]float32, len(idx)*net.Classes)
	feats := make([]float32, len(idx)*cnn.Features)
	if err := net.Outputs(ctx, s, idx, probs, feats); err != nil {
		return nil, err
	}
	return feats, nil
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
		out[k] = verdict(i, sample.NoLabel, -1, p[k*nc:(k+1)*nc], m.classes)
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

// TrainModel trains one network on every labelled sample of d (the recipe of ScanCNN's networks,
// label smoothing included, without cross-validation, and by default at least 300 optimizer
// steps: modelEpochs), for predicting labels before any scan has run. Its confidences are
// calibrated by cross-fitting: the labelled samples (3,000 of them, drawn with the seed, when
// there are more) are dealt into 3 stratified folds, a network learns each two and predicts the
// third, and the model's temperature is fitted to those predictions (see Temperature; none below
// 20 labelled samples). The calibration networks train alongside the model, opts.Workers at a
// time, and cost up to about twice its training. Errors: as ScanCNN's.
func TrainModel(ctx context.Context, d sample.Set, opts CNNOptions, progress func(Progress)) (*Model, error) {
	in, err := prepare(d)
	if err != nil {
		return nil, err
	}
	epochs := opts.Epochs // 0: each network's follow modelEpochs of its own samples
	opts = opts.withDefaults(len(in.labelled))
	type job struct {
		train, held []int
		rng         *rand.Rand
		net         *cnn.Net
		epochs      int
	}
	jobs := []*job{{train: in.labelled, rng: rand.New(rand.NewPCG(opts.Seed, 0xfeed))}}
	if calib := calibrationSet(in.labelled, opts.Seed); len(calib) >= minCalibration {
		for f, held := range folds.Stratified(calib, in.cls, nil, calibrationFolds, opts.Seed^0xca1) {
			jobs = append(jobs, &job{train: folds.Rest(calib, held), held: held, rng: rand.New(rand.NewPCG(opts.Seed, 0xca1+uint64(f)))})
		}
	}
	total, steps := 0, make([]int, len(jobs))
	for k, j := range jobs {
		j.epochs = epochs
		if j.epochs <= 0 {
			j.epochs = modelEpochs(len(j.train))
		}
		steps[k] = cnn.Config{Epochs: j.epochs}.Steps(len(j.train))
		total += steps[k]
	}
	final := jobs[0]
	clock := newProgressClock()
	var mu sync.Mutex
	done, epoch := 0, 1
	report := func(k, step, n int) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if k == 0 {
			epoch = min((step-1)/((n+final.epochs-1)/final.epochs)+1, final.epochs)
		}
		if progress != nil && step%10 == 0 {
			progress(clock.progress(1, 1, epoch, final.epochs, float64(done)/float64(total)))
		}
	}
	err = parallel.For(ctx, len(jobs), parallel.Options{Workers: opts.Workers}, func(ctx context.Context) func(k, _ int) error {
		return func(k, _ int) error {
			j := jobs[k]
			cfg := cnn.Config{Epochs: j.epochs, LabelSmoothing: labelSmoothing}
			var err error
			j.net, err = cnn.Train(ctx, in.samples, j.train, len(in.classes), cfg, j.rng, func(step, n int) { report(k, step, n) })
			return err
		}
	})
	if err != nil {
		return nil, err
	}
	m := &Model{nets: []*cnn.Net{final.net}, classes: in.classes, h: in.h, w: in.w, labelled: len(in.labelled), temperature: 1}
	if len(jobs) > 1 {
		var oof []float32
		var y []int
		for _, j := range jobs[1:] {
			p := make([]float32, len(j.held)*len(in.classes))
			if err := j.net.Probabilities(ctx, in.samples, j.held, p); err != nil {
				return nil, err
			}
			oof = append(oof, p...)
			for _, i := range j.held {
				y = append(y, in.cls[i])
			}
		}
		m.temperature = fitTemperature(oof, y, len(in.classes))
	}
	if progress != nil {
		progress(clock.progress(1, 1, final.epochs, final.epochs, 1))
	}
	return m, nil
}

// Cross-fitted calibration of TrainModel: the folds, the most labelled samples it deals, and
// the fewest it fits a temperature to (with 6 held-out samples, 2 a fold, a temperature of 0.1
// came out: no calibration is better than that).
const (
	calibrationFolds   = 3
	calibrationSamples = 3000
	minCalibration     = 20
)

// calibrationSet returns the labelled samples TrainModel calibrates on: all of them, or a
// random calibrationSamples of them (drawn with the seed) when there are more, ascending.
func calibrationSet(labelled []int, seed uint64) []int {
	if len(labelled) <= calibrationSamples {
		return labelled
	}
	pick := slices.Clone(labelled)
	rng := rand.New(rand.NewPCG(seed, 0xca1))
	rng.Shuffle(len(pick), func(a, b int) { pick[a], pick[b] = pick[b], pick[a] })
	pick = pick[:calibrationSamples]
	slices.Sort(pick)
	return pick
}

// input is a dataset made ready for the CNN.
type input struct {
	samples  cnn.Samples // 28×28 pixels; Labels holds class indices (−1 for sample.NoLabel)
	labels   []int       // the given labels (sample.NoLabel for none)
	labelled []int       // indices of the labelled samples
	cls      []int       // each sample's class index, −1 for sample.NoLabel
	classes  []int       // the distinct labels, ascending
	h, w     int
}

// prepare checks d and maps its labels to class indices; images other than 28×28 are resized
// once into a buffer of N×784 bytes. Errors: fewer than 2 samples, labels or pixels of the wrong
// length, a size that does not match Dim, fewer than 2 classes or more than cnn.MaxClasses.
func prepare(d sample.Set) (*input, error) {
	if d.N < 2 {
		return nil, fmt.Errorf("suspects need at least 2 samples, the dataset has %d", d.N)
	}
	if len(d.Labels) != d.N {
		return nil, fmt.Errorf("%d labels for %d samples", len(d.Labels), d.N)
	}
	h, w := d.H, d.W
	if h <= 0 || w <= 0 || h*w != d.Dim() {
		return nil, fmt.Errorf("samples of %d×%d pixels do not have %d pixels", h, w, d.Dim())
	}
	if got := len(d.Pixels(0)); got != d.Dim() {
		return nil, fmt.Errorf("samples have %d pixels, not %d", got, d.Dim())
	}
	in := &input{h: h, w: w, cls: make([]int, d.N), labels: d.Labels}
	seen := map[int]bool{}
	for _, l := range d.Labels {
		if l != sample.NoLabel && !seen[l] {
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
		if l != sample.NoLabel {
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
