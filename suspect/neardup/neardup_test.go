package neardup

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/planted"
	"idxlabel/idx"
	"idxlabel/sample"
)

// data presents n images of an IDX array (n×28×28) as scan input.
func data(images *idx.Array, n int) sample.Set {
	return sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }}
}

// plantedData presents a planted set's pixels as scan input.
func plantedData(p *planted.Set) sample.Set {
	return sample.Set{N: p.N, H: 28, W: 28, Pixels: func(i int) []byte { return p.Pixels[i*784 : (i+1)*784] }}
}

// TestSimilarityOfCopies: every kind of copy of 200 real digits scores at least 0.995 (a shift
// or a change of intensity 1 up to rounding, noise σ 4 about 0.998), with the shift that undoes a shifted copy; two
// different digits score below the threshold; images without ink.
func TestSimilarityOfCopies(t *testing.T) {
	images, _ := mnisttest.Load(t)
	rng := rand.New(rand.NewPCG(21, 21))
	for _, kind := range planted.CopyKinds {
		worst := 1.0
		for range 200 {
			src := images.Data[rng.IntN(10000)*784:][:784]
			cp := planted.Copy(rng, src, kind)
			s, _ := Similarity(src, cp, 28, 28, OffsetOf(src, 28, 28), OffsetOf(cp, 28, 28))
			worst = min(worst, s)
		}
		t.Logf("%s: lowest similarity %.4f", kind, worst)
		if worst < 0.995 {
			t.Errorf("%s: a copy scored %.4f", kind, worst)
		}
	}
	a := images.Data[:784]
	shifted := make([]byte, 784)
	for y := range 26 {
		copy(shifted[(y+2)*28+1:(y+3)*28], a[y*28:(y+1)*28-1]) // 2 rows down, 1 column right
	}
	if s, at := Similarity(a, shifted, 28, 28, OffsetOf(a, 28, 28), OffsetOf(shifted, 28, 28)); s < 0.9999 || at != (Shift{-2, -1}) {
		t.Errorf("a copy moved 2 down and 1 right: similarity %v at shift %v, want 1 at {-2 -1}", s, at)
	}
	b := images.Data[784:][:784]
	if s, _ := Similarity(a, b, 28, 28, OffsetOf(a, 28, 28), OffsetOf(b, 28, 28)); s >= DefaultThreshold {
		t.Errorf("a 7 and a 2: similarity %v", s)
	}
	blank := make([]byte, 784)
	if s, _ := Similarity(blank, blank, 28, 28, Offset{}, Offset{}); s != 1 {
		t.Errorf("two blanks: %v", s)
	}
	if s, _ := Similarity(blank, a, 28, 28, Offset{}, OffsetOf(a, 28, 28)); s != 0 {
		t.Errorf("a blank and a digit: %v", s)
	}
}

// TestWithinFindsPlantedCopies plants 40 copies of t10k digits (exact, shifted by 1 and by 2
// pixels, noise σ 4, 85% intensity) into t10k and checks that each is paired with its source;
// it also counts the natural pairs (none reach 0.99 in t10k), and that identical images are
// paired with the first of their group.
func TestWithinFindsPlantedCopies(t *testing.T) {
	images, labels := mnisttest.Load(t)
	p := planted.Plant(rand.New(rand.NewPCG(31, 7)), images.Data, labels.Data, 10000, nil, nil, 0, planted.Plan{Duplicates: 40})
	// Three blank images: two pairs to the first.
	for _, i := range []int{9997, 9998, 9999} {
		if _, ok := p.Duplicates[i]; ok || slices.Contains(slices.Collect(maps.Values(p.Duplicates)), i) {
			t.Fatalf("sample %d is a planted copy or its source", i)
		}
		clear(p.Pixels[i*784 : (i+1)*784])
	}
	d := plantedData(p)
	ctx := context.Background()
	b, err := FitBasis(ctx, d, 1)
	if err != nil {
		t.Fatal(err)
	}
	desc, err := b.Describe(ctx, d, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	pairs, err := Within(ctx, d, desc, Options{Progress: func(s string, f float64) {
		if len(stages) == 0 || stages[len(stages)-1] != s {
			stages = append(stages, s)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int]bool{}
	for k, q := range pairs {
		if q.A >= q.B || q.Similarity < DefaultThreshold || q.Uniqueness < 1-DefaultRatio || k > 0 && q.Similarity > pairs[k-1].Similarity {
			t.Fatalf("pair %d %+v out of order or below the threshold", k, q)
		}
		got[[2]int{q.A, q.B}] = true
	}
	found := 0
	for at, from := range p.Duplicates {
		if got[[2]int{min(at, from), max(at, from)}] {
			found++
		} else {
			t.Errorf("the copy at %d of %d was not paired with it", at, from)
		}
	}
	if !got[[2]int{9997, 9998}] || !got[[2]int{9997, 9999}] {
		t.Errorf("the blank images 9997–9999 are not paired with 9997")
	}
	natural := len(pairs) - found - 2 // the blanks: one group of three
	t.Logf("%d of %d planted copies paired; %d other pairs; stages %v", found, len(p.Duplicates), natural, stages)
	if natural > 2 {
		t.Errorf("%d natural pairs in t10k at %.2f, measured 0", natural, DefaultThreshold)
	}
	if !slices.Equal(stages, []string{"index", "candidates", "verify"}) {
		t.Errorf("progress stages %v", stages)
	}
}

// TestAcrossFindsLeaks plants 40 training digits into a copy of t10k (exact, 1- and 2-pixel
// shifts, noise σ 4, 85% intensity) and checks that each is paired with its source in the
// training set (60,000 samples: the approximate index), and that few natural pairs reach the
// threshold (5 measured).
func TestAcrossFindsLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	test, labels := mnisttest.Load(t)
	train, trainLabels := mnisttest.LoadTrain(t)
	p := planted.Plant(rand.New(rand.NewPCG(32, 8)), test.Data, labels.Data, 10000, train.Data, trainLabels.Data, 60000, planted.Plan{Leaks: 40})
	d, other := plantedData(p), data(train, 60000)
	ctx := context.Background()
	b, _ := FitBasis(ctx, other, 1)
	dd, _ := b.Describe(ctx, d, 0, nil)
	od, _ := b.Describe(ctx, other, 0, nil)
	pairs, err := Across(ctx, d, dd, other, od, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byA := map[int]Pair{}
	for _, q := range pairs {
		if _, twice := byA[q.A]; twice {
			t.Fatalf("sample %d reported twice", q.A)
		}
		byA[q.A] = q
	}
	for at, from := range p.Leaks {
		if q, ok := byA[at]; !ok || q.B != from {
			t.Errorf("the copy at %d of training digit %d: %+v", at, from, q)
		}
	}
	natural := len(pairs) - len(p.Leaks)
	t.Logf("%d planted leaks, %d pairs reported", len(p.Leaks), len(pairs))
	if natural > 1 {
		t.Errorf("%d natural leaks at %.2f, measured 0 (5 plain 1s that match other 1s as well)", natural, DefaultThreshold)
	}
	// Without the uniqueness bar the plain 1s that match several training 1s come back.
	loose, err := Across(ctx, d, dd, other, od, Options{Ratio: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(loose)-len(p.Leaks) < 3 {
		t.Errorf("ratio 1: %d natural leaks, measured 5", len(loose)-len(p.Leaks))
	}
}

// TestCopyGroup: a match that stands apart from the rest is a copy, a plain stroke's best match
// among several as close is not; a group of copies ends where the distances jump; when every
// candidate reaches the threshold the group is all of them.
func TestCopyGroup(t *testing.T) {
	ms := func(d ...float32) []match {
		out := make([]match, len(d))
		for k, v := range d {
			out[k] = match{int32(k), v}
		}
		return out
	}
	for _, c := range []struct {
		name string
		ms   []match
		want int
	}{
		{"exact copy among natural neighbours", ms(0.02, 0, 0.015), 1},
		{"noisy copy", ms(0.0024, 0.012, 0.03), 1},
		{"plain 1: six neighbours near 0.98", ms(0.008, 0.0095, 0.011, 0.014, 0.017, 0.019, 0.022, 0.03), 0},
		{"plain 1: its best at 0.99, the next at 0.97", ms(0.0096, 0.03), 0},
		{"three copies, then natural", ms(0.003, 0.001, 0.002, 0.02, 0.03), 3},
		{"nothing above the threshold", ms(0.011, 0.05), 0},
		{"alone above the threshold", ms(0.004), 1},
		{"every candidate a copy", ms(0.004, 0.005, 0.003, 0.004, 0.005, 0.004, 0.003, 0.005), 8},
	} {
		if got, _ := copyGroup(c.ms, 8, DefaultThreshold, DefaultRatio, false); got != c.want {
			t.Errorf("%s: group of %d, want %d", c.name, got, c.want)
		}
	}
	// Among a sample without the natural neighbours, a far next candidate proves nothing.
	if got, _ := copyGroup([]match{{0, 0.009}, {1, 0.05}}, 8, DefaultThreshold, DefaultRatio, true); got != 0 {
		t.Errorf("capped: a match at 0.991 grouped")
	}
	if got, _ := copyGroup([]match{{0, 0.002}, {1, 0.05}}, 8, DefaultThreshold, DefaultRatio, true); got != 1 {
		t.Errorf("capped: a match at 0.998 not grouped")
	}
}

// TestWithinGroups: 15 near-copies of one digit (each shifted by up to a pixel, noise σ 2) and
// an image with 11 exact copies make two groups, reported as 15 and 11 pairs from each group's
// first image, not as the pairs among them.
func TestWithinGroups(t *testing.T) {
	images, _ := mnisttest.Load(t)
	px := slices.Clone(images.Data[:3000*784])
	rng := rand.New(rand.NewPCG(5, 5))
	src := px[100*784 : 101*784]
	var near []int
	for k := range 15 {
		at := 200 + 37*k
		copy(px[at*784:(at+1)*784], jitter(rng, src))
		near = append(near, at)
	}
	var same []int
	for k := range 11 {
		at := 1001 + 41*k
		copy(px[at*784:(at+1)*784], px[2999*784:3000*784])
		same = append(same, at)
	}
	d := sample.Set{N: 3000, H: 28, W: 28, Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }}
	ctx := context.Background()
	b, _ := FitBasis(ctx, d, 1)
	desc, _ := b.Describe(ctx, d, 0, nil)
	pairs, err := Within(ctx, d, desc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	groups := map[int][]int{}
	for _, q := range pairs {
		groups[q.A] = append(groups[q.A], q.B)
	}
	got100, got2999 := groups[100], groups[slices.Min(same)]
	slices.Sort(got100)
	slices.Sort(got2999)
	wantSame := append(slices.Clone(same[1:]), 2999)
	slices.Sort(wantSame)
	if !slices.Equal(got100, near) || !slices.Equal(got2999, wantSame) || len(pairs) != 26 {
		t.Errorf("groups %v, want 100 with %v and %d with %v, 26 pairs", groups, near, slices.Min(same), wantSame)
	}
}

// jitter is a copy of a 28×28 image shifted by up to a pixel each way, with Gaussian noise of
// σ 2 grey levels on its ink.
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

// TestErrorsAndCancel: descriptors of another set, images of another size, a cancelled search.
func TestErrorsAndCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	images, _ := digits.Load(t, 1000) // generated: a test of the errors runs without the real files
	d := data(images, 1000)
	ctx := context.Background()
	b, _ := FitBasis(ctx, d, 1)
	desc, _ := b.Describe(ctx, d, 0, nil)
	if _, err := Within(ctx, data(images, 800), desc, Options{}); err == nil {
		t.Error("descriptors of 1,000 samples accepted for 800")
	}
	small := sample.Set{N: 10, H: 14, W: 14, Pixels: func(i int) []byte { return images.Data[i*196 : (i+1)*196] }}
	if _, err := b.Describe(ctx, small, 0, nil); err == nil {
		t.Error("14×14 samples described with a 28×28 basis")
	}
	if _, err := Across(ctx, d, desc, small, desc, Options{}); err == nil {
		t.Error("28×28 samples checked against 14×14")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Within(cancelled, d, desc, Options{}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
