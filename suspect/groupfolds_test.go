package suspect

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
)

// TestStratifiedGroupFolds: every group lands in one fold, folds differ in size by less than the
// largest group, every labelled sample is dealt once; without groups of two or more the folds
// are stratifiedFolds'.
func TestStratifiedGroupFolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const n = 3000
	cls, groups := make([]int, n), make([]int32, n)
	var labelled []int
	for i := 0; i < n; {
		size := 1 + rng.IntN(30)
		c := rng.IntN(4)
		for m := 0; m < size && i < n; m++ {
			cls[i], groups[i] = c, int32(n-i+m) // any numbering: a group is a value
			if i%19 == 0 {
				cls[i] = -1
			} else {
				labelled = append(labelled, i)
			}
			i++
		}
	}
	folds := stratifiedGroupFolds(labelled, cls, groups, 3, 7)
	foldOf := map[int32]int{}
	dealt := 0
	for f, fold := range folds {
		for _, i := range fold {
			if g, ok := foldOf[groups[i]]; ok && g != f {
				t.Fatalf("group %d in folds %d and %d", groups[i], g, f)
			}
			foldOf[groups[i]] = f
			dealt++
		}
	}
	sizes := []int{len(folds[0]), len(folds[1]), len(folds[2])}
	if dealt != len(labelled) || slices.Max(sizes)-slices.Min(sizes) > 30 {
		t.Errorf("dealt %d of %d; fold sizes %v", dealt, len(labelled), sizes)
	}
	own := make([]int32, n)
	for i := range own {
		own[i] = int32(i)
	}
	if !slices.EqualFunc(stratifiedGroupFolds(labelled, cls, own, 5, 9), stratifiedFolds(labelled, cls, 5, 9), slices.Equal) {
		t.Error("singleton groups dealt otherwise than stratifiedFolds")
	}
}

// TestScanCNNGroupsAugmented: 1,000 t10k digits, 60 of them relabelled, each with 7 near-copies
// (shifted by up to a pixel, noise σ 2) carrying its label: without groups each sample's copies
// sit in the folds that predict it and the out-of-fold error hides the relabelled ones; with the
// copies grouped it shows them.
func TestScanCNNGroupsAugmented(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	images, labels := mnisttest.Load(t)
	const src, copies = 1000, 8
	rng := rand.New(rand.NewPCG(8, 8))
	flip := map[int]bool{}
	for len(flip) < 60 {
		flip[rng.IntN(src)] = true
	}
	n := src * copies
	px := make([]byte, n*784)
	lab, groups := make([]int, n), make([]int32, n)
	for i := range n {
		s := i % src
		p := images.Data[s*784 : (s+1)*784]
		if i >= src {
			p = jitter(rng, p)
		}
		copy(px[i*784:], p)
		lab[i], groups[i] = int(labels.Data[s]), int32(s)
		if flip[s] {
			lab[i] = (lab[i] + 1) % 10
		}
	}
	d := sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }, Labels: lab}
	opts := CNNOptions{Folds: 3, Epochs: 3, Seed: 3, Seeds: 1}
	ctx := context.Background()
	plain, err := ScanCNN(ctx, d, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Groups = groups
	grouped, err := ScanCNN(ctx, d, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := func(r *CNNResult) int {
		k := 0
		for _, s := range r.Suspects[:copies*len(flip)] {
			if flip[s.Index%src] {
				k++
			}
		}
		return k
	}
	// The mean out-of-fold probability the relabelled samples' given labels get.
	given := func(r *CNNResult) float64 {
		var sum float64
		for _, s := range r.Suspects {
			if flip[s.Index%src] {
				sum += 1 - s.Score
			}
		}
		return sum / float64(copies*len(flip))
	}
	t.Logf("out-of-fold error %.2f%% without groups, %.2f%% with; relabelled copies in the top %d: %d, %d; their given label's mean probability %.3f, %.3f",
		100*plain.Error, 100*grouped.Error, copies*len(flip), found(plain), found(grouped), given(plain), given(grouped))
	if given(grouped) > given(plain)/2 {
		t.Errorf("grouping the copies did not show the relabelled samples")
	}
}

// jitter is a copy of a 28×28 image shifted by up to a pixel each way, with Gaussian noise of σ 2
// grey levels on its ink.
func jitter(rng *rand.Rand, src []byte) []byte {
	dy, dx := rng.IntN(3)-1, rng.IntN(3)-1
	out := make([]byte, 784)
	for y := range 28 {
		for x := range 28 {
			sy, sx := y-dy, x-dx
			if sy < 0 || sy >= 28 || sx < 0 || sx >= 28 || src[sy*28+sx] == 0 {
				continue
			}
			out[y*28+x] = byte(max(0, min(255, float64(src[sy*28+sx])+2*rng.NormFloat64()+0.5)))
		}
	}
	return out
}
