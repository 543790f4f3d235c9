package suspect

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
)

// TestStratifiedFolds checks the deal: every labelled sample in exactly one fold, fold sizes
// within one of each other, each class spread evenly, and the same seed giving the same folds.
func TestStratifiedFolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 1003
	cls := make([]int, n)
	var labelled []int
	for i := range cls {
		cls[i] = -1
		if i%17 != 0 {
			cls[i] = rng.IntN(4)
			labelled = append(labelled, i)
		}
	}
	folds := stratifiedFolds(labelled, cls, 5, 7)
	seen := map[int]bool{}
	for f, fold := range folds {
		perClass := map[int]int{}
		for _, i := range fold {
			if seen[i] || cls[i] < 0 {
				t.Fatalf("sample %d dealt twice or unlabelled", i)
			}
			seen[i] = true
			perClass[cls[i]]++
		}
		if d := len(fold) - len(labelled)/5; d < 0 || d > 1 {
			t.Errorf("fold %d has %d samples of %d", f, len(fold), len(labelled))
		}
		for c := range 4 {
			total := 0
			for _, i := range labelled {
				if cls[i] == c {
					total++
				}
			}
			if d := perClass[c] - total/5; d < -1 || d > 1 {
				t.Errorf("fold %d has %d of class %d's %d samples", f, perClass[c], c, total)
			}
		}
	}
	if len(seen) != len(labelled) {
		t.Fatalf("%d of %d samples dealt", len(seen), len(labelled))
	}
	if !slices.EqualFunc(folds, stratifiedFolds(labelled, cls, 5, 7), slices.Equal) {
		t.Fatal("the same seed dealt different folds")
	}
	if slices.EqualFunc(folds, stratifiedFolds(labelled, cls, 5, 8), slices.Equal) {
		t.Fatal("another seed dealt the same folds")
	}
}

// quickCNN is a fast configuration for tests: 2 folds, 2 epochs.
var quickCNN = CNNOptions{Folds: 2, Epochs: 2, Seed: 3}

// TestScanCNNDeterministic checks that the same seed gives the same bits (ranking, blended
// probabilities, features, errors, the model's temperature and suggestions) on one core training
// one fold at a time as on two cores training two: the training shards, the feature search's
// goroutines and the order the folds finish in must not show in the result.
func TestScanCNNDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 1000)
	for i := 0; i < d.N; i += 97 {
		d.Labels[i] = sample.NoLabel
	}
	one, two := quickCNN, quickCNN
	one.Workers, two.Workers = 1, 2
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	a, err := ScanCNN(context.Background(), d, one, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(max(2, prev))
	b, err := ScanCNN(context.Background(), d, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Suspects, b.Suspects) || !slices.Equal(a.Unlabelled, b.Unlabelled) || !slices.Equal(a.Probs, b.Probs) ||
		!slices.Equal(a.Features, b.Features) || a.Error != b.Error || a.CNNError != b.CNNError ||
		!slices.Equal(a.SeedErrors, b.SeedErrors) || a.Model.Temperature() != b.Model.Temperature() {
		t.Fatal("one seed, different results on one core with 1 worker and two cores with 2")
	}
	checkOutputs(t, d, a)
	two.Seed++
	if c, err := ScanCNN(context.Background(), d, two, nil); err != nil || slices.Equal(a.Suspects, c.Suspects) {
		t.Fatalf("another seed, the same ranking (%v)", err)
	}
}

// checkOutputs checks a scan's per-sample outputs: N×classes probabilities that sum to 1 and
// agree with each suspect's Score, and N×cnn.Features embeddings, non-negative (after ReLU) and
// not all zero for any sample.
func checkOutputs(t *testing.T, d sample.Set, r *CNNResult) {
	t.Helper()
	nc := len(r.Classes)
	if len(r.Probs) != d.N*nc || len(r.Features) != d.N*cnn.Features {
		t.Fatalf("%d probabilities and %d features for %d samples of %d classes", len(r.Probs), len(r.Features), d.N, nc)
	}
	for i := range d.N {
		var sum, ink float32
		for _, p := range r.Probs[i*nc : (i+1)*nc] {
			sum += p
		}
		for _, f := range r.Features[i*cnn.Features : (i+1)*cnn.Features] {
			if f < 0 {
				t.Fatalf("sample %d: negative feature %v", i, f)
			}
			ink += f
		}
		if sum < 0.999 || sum > 1.001 || ink == 0 {
			t.Fatalf("sample %d: probabilities sum to %v, features to %v", i, sum, ink)
		}
	}
	for _, s := range r.Suspects {
		c := slices.Index(r.Classes, s.Label)
		if got := 1 - float64(r.Probs[s.Index*nc+c]); got != s.Score {
			t.Fatalf("sample %d: Score %v, 1 − Probs %v", s.Index, s.Score, got)
		}
	}
}

// TestScanCNNFindsPlantedErrors relabels 100 random t10k samples to another class and checks
// that a short CNN scan (one seed, 2 folds, 2 epochs, the neighbour vote) ranks at least 90 of
// them in its top 200. It also removes the labels of 30 other samples: they must get
// suggestions, most of them right, and the model's Predict must agree with them.
func TestScanCNNFindsPlantedErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 10000)
	truth := slices.Clone(d.Labels)
	rng := rand.New(rand.NewPCG(5, 5))
	planted := map[int]int{}
	for len(planted) < 100 {
		i := rng.IntN(d.N)
		if _, ok := planted[i]; !ok {
			planted[i] = d.Labels[i]
			d.Labels[i] = (d.Labels[i] + 1 + rng.IntN(9)) % 10
		}
	}
	for n := 0; n < 30; {
		if i := rng.IntN(d.N); d.Labels[i] == truth[i] {
			d.Labels[i] = sample.NoLabel
			n++
		}
	}
	res, err := ScanCNN(context.Background(), d, CNNOptions{Folds: 2, Epochs: 2, Seeds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOutputs(t, d, res)
	if res.Model.Labelled() != d.N-30 {
		t.Errorf("the model learnt from %d labelled samples, want %d", res.Model.Labelled(), d.N-30)
	}
	found, restored := 0, 0
	for _, s := range res.Suspects[:200] {
		if orig, ok := planted[s.Index]; ok {
			found++
			if s.Suggested == orig {
				restored++
			}
		}
	}
	t.Logf("out-of-fold error %.2f%%; planted 100 errors: %d in the top 200, %d with the original label suggested", 100*res.Error, found, restored)
	if found < 90 {
		t.Errorf("only %d of 100 planted errors in the top 200", found)
	}
	if len(res.Suspects) != d.N-30 || len(res.Unlabelled) != 30 {
		t.Fatalf("%d suspects, %d unlabelled; want %d and 30", len(res.Suspects), len(res.Unlabelled), d.N-30)
	}
	right := 0
	for k, s := range res.Unlabelled {
		if k > 0 && s.Confidence > res.Unlabelled[k-1].Confidence {
			t.Fatal("unlabelled samples not most confident first")
		}
		if s.Suggested == truth[s.Index] {
			right++
		}
		label, conf, err := res.Model.Predict(d.Pixels(s.Index))
		if err != nil || label != s.Suggested || conf != s.Confidence {
			t.Fatalf("Predict(sample %d) = %d, %v, %v; the scan suggested %d, %v", s.Index, label, conf, err, s.Suggested, s.Confidence)
		}
	}
	t.Logf("%d of 30 unlabelled samples get their true label suggested", right)
	if right < 25 {
		t.Errorf("only %d of 30 unlabelled samples get their true label suggested", right)
	}
}

// TestScanCNNErrorsAndCancel checks the refusals and that a cancelled scan stops.
func TestScanCNNErrorsAndCancel(t *testing.T) {
	d := digits.Set(t, 200) // generated: a test of the errors runs without the real files
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScanCNN(ctx, d, quickCNN, nil); err != context.Canceled {
		t.Fatalf("cancelled scan: %v", err)
	}
	if _, err := ScanCNN(context.Background(), d, CNNOptions{Folds: 1}, nil); err == nil {
		t.Fatal("a 1-fold scan succeeded")
	}
	one := d
	one.Labels = make([]int, d.N) // a single class
	if _, err := ScanCNN(context.Background(), one, quickCNN, nil); err == nil {
		t.Fatal("a one-class scan succeeded")
	}
	odd := d
	odd.H = 25 // 25×28 = 700 pixels, where each sample has 784
	if _, err := ScanCNN(context.Background(), odd, quickCNN, nil); err == nil {
		t.Fatal("784-pixel samples said to be 25×28 were accepted")
	}
}

// TestScanCNNResizes scans 14×14 samples (t10k halved), without the neighbour vote: the model
// sees them resized to 28×28 and predicts a 14×14 sample, and the scan's probabilities are the
// networks'.
func TestScanCNNResizes(t *testing.T) {
	d := mnistData(t, 600)
	small := make([]byte, d.N*196)
	for i := range d.N {
		p := d.Pixels(i)
		for y := range 14 {
			for x := range 14 {
				small[i*196+y*14+x] = byte((int(p[2*y*28+2*x]) + int(p[2*y*28+2*x+1]) + int(p[(2*y+1)*28+2*x]) + int(p[(2*y+1)*28+2*x+1])) / 4)
			}
		}
	}
	d.H, d.W = 14, 14
	d.Pixels = func(i int) []byte { return small[i*196 : (i+1)*196] }
	noVote := quickCNN
	noVote.Neighbours = -1
	res, err := ScanCNN(context.Background(), d, noVote, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suspects) != d.N {
		t.Fatalf("%d suspects", len(res.Suspects))
	}
	checkOutputs(t, d, res)
	if res.Error != res.CNNError {
		t.Fatalf("without the vote: error %v, the networks' %v", res.Error, res.CNNError)
	}
	if _, _, err := res.Model.Predict(d.Pixels(0)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := res.Model.Predict(make([]byte, 784)); err == nil {
		t.Fatal("a 28×28 sample was accepted by a 14×14 model")
	}
}

// TestTrainModel trains one network on 1,500 labelled t10k digits (the rest unlabelled) and
// checks it predicts most of 300 others.
func TestTrainModel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 1800)
	truth := slices.Clone(d.Labels)
	for i := 1500; i < d.N; i++ {
		d.Labels[i] = sample.NoLabel
	}
	var last Progress
	m, err := TrainModel(context.Background(), d, CNNOptions{Epochs: 4}, func(p Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	if last.Done != 1 || last.Epoch != 4 || last.Epochs != 4 {
		t.Errorf("last progress %+v", last)
	}
	right := 0
	for i := 1500; i < d.N; i++ {
		if l, _, err := m.Predict(d.Pixels(i)); err == nil && l == truth[i] {
			right++
		}
	}
	t.Logf("%d of 300 held-out digits predicted right", right)
	if right < 240 {
		t.Fatalf("only %d of 300 held-out digits predicted right", right)
	}
	if !slices.Equal(m.Classes(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("classes %v", m.Classes())
	}
	if m.Labelled() != 1500 || m.Temperature() == 1 {
		t.Fatalf("learnt from %d labelled samples, temperature %v; want 1500 and a fitted one", m.Labelled(), m.Temperature())
	}
	// Six labelled samples: too few to fit a temperature to, so no calibration.
	few := d
	few.Labels = make([]int, d.N)
	for i := range few.Labels {
		few.Labels[i] = sample.NoLabel
		if i < 5 {
			few.Labels[i] = truth[i]
		}
	}
	few.Labels[5] = (truth[0] + 1) % 10 // a second class for sure
	fm, err := TrainModel(context.Background(), few, CNNOptions{Epochs: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fm.Labelled() != 6 || fm.Temperature() != 1 {
		t.Fatalf("6 labels: learnt from %d, temperature %v; want 6 and 1", fm.Labelled(), fm.Temperature())
	}
}

// TestModelEpochs checks TrainModel's default: at least 300 optimizer steps for few labelled
// samples, the scan's epochs for many.
func TestModelEpochs(t *testing.T) {
	for _, n := range []int{1, 10, 64, 65, 100, 300, 1000, 1600, 9000, 60000} {
		e := modelEpochs(n)
		steps := e * ((n + 63) / 64)
		if steps < minModelSteps || e < DefaultEpochs(n) || e > DefaultEpochs(n) && (e-1)*((n+63)/64) >= minModelSteps {
			t.Errorf("%d samples: %d epochs, %d steps", n, e, steps)
		}
	}
	if modelEpochs(9000) != DefaultEpochs(9000) {
		t.Errorf("9,000 samples: %d epochs, the scan's %d", modelEpochs(9000), DefaultEpochs(9000))
	}
}

// TestSuggest checks the model's suggestions for unlabelled samples: one per sample asked, most
// confident first, each what Predict says, mostly right; and its refusals.
func TestSuggest(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	d := mnistData(t, 1500)
	truth := slices.Clone(d.Labels)
	var ask []int
	for i := 1000; i < d.N; i++ {
		d.Labels[i] = sample.NoLabel
		ask = append(ask, i)
	}
	m, err := TrainModel(context.Background(), d, CNNOptions{Epochs: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var last float64
	list, err := m.Suggest(context.Background(), d, ask, func(f float64) { last = f })
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(ask) || last != 1 {
		t.Fatalf("%d suggestions for %d samples, last progress %v", len(list), len(ask), last)
	}
	right, seen := 0, map[int]bool{}
	for k, s := range list {
		if k > 0 && (s.Confidence > list[k-1].Confidence || s.Confidence == list[k-1].Confidence && s.Index < list[k-1].Index) {
			t.Fatalf("suggestion %d out of order", k)
		}
		if seen[s.Index] || s.Index < 1000 || s.Label != sample.NoLabel || s.Score != 1 {
			t.Fatalf("suggestion %+v", s)
		}
		seen[s.Index] = true
		label, conf, err := m.Predict(d.Pixels(s.Index))
		if err != nil || label != s.Suggested || conf != s.Confidence {
			t.Fatalf("Predict(sample %d) = %d, %v, %v; Suggest said %d, %v", s.Index, label, conf, err, s.Suggested, s.Confidence)
		}
		if s.Suggested == truth[s.Index] {
			right++
		}
	}
	t.Logf("%d of %d suggestions right", right, len(list))
	if right < 425 {
		t.Errorf("only %d of %d suggestions right", right, len(list))
	}
	if _, err := m.Suggest(context.Background(), d, []int{d.N}, nil); err == nil {
		t.Error("an index past the samples was accepted")
	}
	odd := d
	odd.H, odd.W = 14, 14
	if _, err := m.Suggest(context.Background(), odd, ask, nil); err == nil {
		t.Error("14×14 samples were accepted by a 28×28 model")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Suggest(ctx, d, ask, nil); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
