package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// shapeStrokes are the classes of the generated images: line segments (x0, y0, x1, y1) in a
// 20×20 box, drawn as strokes.
var shapeStrokes = [][][4]float64{
	{{2, 10, 18, 10}},                 // a horizontal bar
	{{10, 2, 10, 18}},                 // a vertical bar
	{{3, 17, 17, 3}},                  // a rising diagonal
	{{3, 3, 17, 17}, {3, 17, 17, 3}},  // a cross
	{{3, 3, 17, 3}, {3, 3, 3, 17}},    // a corner
	{{4, 17, 10, 3}, {10, 3, 16, 17}}, // a caret
}

// shapes returns n generated 28×28 images of the classes of shapeStrokes (the first
// classes of them), grouped by class (sample i has class i·classes/n), each drawn with its own
// shift (±2 px), scale (0.8–1.1), stroke width and faint noise; and their classes.
func shapes(n, classes int, seed uint64) ([]byte, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	px := make([]byte, n*784)
	cls := make([]int, n)
	for i := range n {
		c := i * classes / n
		cls[i] = c
		dx, dy := rng.Float64()*4-2, rng.Float64()*4-2
		sc := 0.8 + 0.3*rng.Float64()
		width := 1 + rng.Float64()
		img := px[i*784 : (i+1)*784]
		for y := range 28 {
			for x := range 28 {
				u, v := (float64(x)-14-dx)/sc+10, (float64(y)-14-dy)/sc+10
				d := math.Inf(1)
				for _, s := range shapeStrokes[c] {
					d = min(d, segDist(u, v, s))
				}
				ink := 255 * math.Max(0, math.Min(1, width+0.5-d))
				ink += 12 * rng.Float64()
				img[y*28+x] = byte(math.Min(255, ink))
			}
		}
	}
	return px, cls
}

func segDist(x, y float64, s [4]float64) float64 {
	vx, vy := s[2]-s[0], s[3]-s[1]
	t := ((x-s[0])*vx + (y-s[1])*vy) / (vx*vx + vy*vy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(x-s[0]-t*vx, y-s[1]-t*vy)
}

// dataset presents generated or real pixels with the given labels.
func dataset(px []byte, labels []int) sample.Set {
	return sample.Set{N: len(labels), H: 28, W: 28, Labels: labels,
		Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }}
}

func unlabelled(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = sample.NoLabel
	}
	return l
}

// shortTraining makes the networks of the test train on fewer draws (the recipe's 120,000
// take seconds a network), restoring the recipe when the test ends.
func shortTraining(t *testing.T, draws int) {
	saved := tune
	tune.draws = draws
	t.Cleanup(func() { tune = saved })
}

// TestAskCoversEveryClusterFirst asks for as many samples as there are classes of generated
// shapes, with no labels and the samples grouped by class: typical samples of distinct
// clusters cover every class (the first samples, or random ones, would not: five random draws
// of five classes cover all with probability 4%); then the loop of asks and answers reaches
// labels of every class, and the same seed gives the same asks.
func TestAskCoversEveryClusterFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	const n, classes = 500, 5
	px, truth := shapes(n, classes, 1)
	labels := unlabelled(n)
	ask, err := Ask(context.Background(), dataset(px, labels), classes, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, i := range ask {
		seen[truth[i]] = true
	}
	if len(ask) != classes || len(seen) != classes {
		t.Fatalf("asked %v (classes %v): want %d samples of %d classes", ask, seen, classes, classes)
	}
	again, err := Ask(context.Background(), dataset(px, labels), classes, Options{Seed: 3})
	if err != nil || !slices.Equal(again, ask) {
		t.Errorf("asked again with the same seed: %v (%v), first %v", again, err, ask)
	}
	// Answered, the next asks are other, unlabelled samples.
	for _, i := range ask {
		labels[i] = truth[i] + 10 // labels need not be 0…C−1
	}
	next, err := Ask(context.Background(), dataset(px, labels), 7, Options{Seed: 3})
	if err != nil || len(next) != 7 {
		t.Fatalf("second ask: %v, %v", next, err)
	}
	for _, i := range next {
		if labels[i] != sample.NoLabel || slices.Contains(next[:slices.Index(next, i)], i) {
			t.Errorf("second ask %v repeats a labelled or asked sample %d", next, i)
		}
	}
	// Asking for more than are unlabelled gives the rest.
	rest, err := Ask(context.Background(), dataset(px[:12*784], labels[:12]), 50, Options{})
	if err != nil || len(rest) != 12-countLabelled(labels[:12]) {
		t.Errorf("asked 50 of 12 samples: %v, %v", rest, err)
	}
}

func countLabelled(labels []int) int {
	k := 0
	for _, l := range labels {
		if l != sample.NoLabel {
			k++
		}
	}
	return k
}

// TestSuggestGeneratedShapes labels what two rounds of asks (20 and 10) pick among six
// generated shapes and checks the suggestions: every unlabelled sample once, most confident
// first, each a typed label; at least 97% right (a method that ignored the pixels would get a
// sixth right, one that ignored the asked labels none); the mean confidence within 0.05 of the
// share right (calibrated); the same seed, the same suggestions.
func TestSuggestGeneratedShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	shortTraining(t, 8000)
	const n, classes = 600, 6
	px, truth := shapes(n, classes, 2)
	labels := unlabelled(n)
	for _, k := range []int{20, 10} {
		ask, err := Ask(context.Background(), dataset(px, labels), k, Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range ask {
			labels[i] = 100 + truth[i]
		}
	}
	got, err := Suggest(context.Background(), dataset(px, labels), Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n-countLabelled(labels) {
		t.Fatalf("%d suggestions for %d unlabelled samples", len(got), n-countLabelled(labels))
	}
	seen := make([]bool, n)
	right, sure := 0, 0.0
	for k, s := range got {
		if labels[s.Index] != sample.NoLabel || seen[s.Index] || s.Label < 100 || s.Label >= 100+classes ||
			!(s.Confidence >= 0 && s.Confidence <= 1) || k > 0 && s.Confidence > got[k-1].Confidence {
			t.Fatalf("suggestion %d: %+v (labelled %v, seen %v)", k, s, labels[s.Index], seen[s.Index])
		}
		seen[s.Index] = true
		if s.Label == 100+truth[s.Index] {
			right++
		}
		sure += s.Confidence
	}
	acc, conf := float64(right)/float64(len(got)), sure/float64(len(got))
	t.Logf("%d labels: %.1f%% right, mean confidence %.1f%%", countLabelled(labels), 100*acc, 100*conf)
	if acc < 0.97 || math.Abs(acc-conf) > 0.05 {
		t.Errorf("%.1f%% right with mean confidence %.1f%%: want ≥ 97%% and within 5 points", 100*acc, 100*conf)
	}
	again, err := Suggest(context.Background(), dataset(px, labels), Options{Seed: 5})
	if err != nil || !slices.Equal(again, got) {
		t.Errorf("the same seed gave other suggestions (%v)", err)
	}
}

// TestSuggestNeedsTwoClasses: with no labels, or labels of one class, there is nothing to tell
// apart: an error, not suggestions.
func TestSuggestNeedsTwoClasses(t *testing.T) {
	px, _ := shapes(60, 2, 1)
	labels := unlabelled(60)
	if _, err := Suggest(context.Background(), dataset(px, labels), Options{}); err == nil {
		t.Error("no labels: no error")
	}
	labels[0], labels[1] = 4, 4
	if _, err := Suggest(context.Background(), dataset(px, labels), Options{}); err == nil {
		t.Error("one class: no error")
	}
}

// TestCancelled: a cancelled context stops both calls with its error.
func TestCancelled(t *testing.T) {
	px, truth := shapes(200, 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Ask(ctx, dataset(px, unlabelled(200)), 5, Options{}); err != context.Canceled {
		t.Errorf("Ask: %v", err)
	}
	labels := unlabelled(200)
	labels[0], labels[199] = truth[0], truth[199]
	if _, err := Suggest(ctx, dataset(px, labels), Options{}); err != context.Canceled {
		t.Errorf("Suggest: %v", err)
	}
}

// TestRealMNISTLoop runs the loop on the first 2,000 t10k digits, its networks trained on
// 20,000 draws (the recipe's 120,000 would take a minute of CPU here): three rounds of 10 asks
// answered with the true labels, then the suggestions for the other 1,970. Measured: 79.9%
// right; at least 75% is required (a method that ignored the pixels gets about 10%). The full
// recipe on all 10,000 digits with 100 labels: bench/suggest.
func TestRealMNISTLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	images, lab := mnisttest.Load(t)
	shortTraining(t, 20000)
	const n = 2000
	labels := unlabelled(n)
	d := dataset(images.Data[:n*784], labels)
	for range 3 {
		ask, err := Ask(context.Background(), d, 10, Options{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range ask {
			labels[i] = int(lab.Data[i])
		}
	}
	got, err := Suggest(context.Background(), d, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for _, s := range got {
		if s.Label == int(lab.Data[s.Index]) {
			right++
		}
	}
	acc := float64(right) / float64(len(got))
	t.Logf("%d labels: %.2f%% of %d right", countLabelled(labels), 100*acc, len(got))
	if acc < 0.75 {
		t.Errorf("%.2f%% right, want ≥ 75%%", 100*acc)
	}
}

// TestSuggestOtherSize suggests for generated shapes shrunk to 14×14 (the networks read them
// resized to 28×28), and refuses a size that does not match the pixel count.
func TestSuggestOtherSize(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	shortTraining(t, 3000)
	const n, classes = 240, 3
	big, truth := shapes(n, classes, 4)
	px := make([]byte, n*196)
	for i := range n {
		for y := range 14 {
			for x := range 14 {
				s := 0
				for _, o := range [4]int{0, 1, 28, 29} {
					s += int(big[i*784+2*y*28+2*x+o])
				}
				px[i*196+y*14+x] = byte(s / 4)
			}
		}
	}
	labels := unlabelled(n)
	for c := range classes {
		for k := range 8 {
			i := c*n/classes + 10*k
			labels[i] = truth[i]
		}
	}
	d := sample.Set{N: n, H: 14, W: 14, Labels: labels, Pixels: func(i int) []byte { return px[i*196 : (i+1)*196] }}
	got, err := Suggest(context.Background(), d, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for _, s := range got {
		if s.Label == truth[s.Index] {
			right++
		}
	}
	if len(got) != n-24 || right < len(got)*9/10 {
		t.Errorf("14×14: %d suggestions, %d right; want %d, at least 90%% right", len(got), right, n-24)
	}
	d.H, d.W = 3, 3
	if _, err := Suggest(context.Background(), d, Options{}); err == nil {
		t.Error("3×3 samples of 196 pixels: no error")
	}
}
