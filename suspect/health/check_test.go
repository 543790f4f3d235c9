package health

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/planted"
	"idxlabel/sample"
	"idxlabel/suspect"
)

// plantedT10k is t10k with 30 non-digits, 20 copies of other t10k digits and 20 copies of
// training digits written over random samples, and 100 other labels flipped (planted.Plant),
// with the training set to check it against.
func plantedT10k(t *testing.T, seed uint64) (*planted.Set, sample.Set, sample.Set) {
	images, labels := mnisttest.Load(t)
	train, trainLabels := mnisttest.LoadTrain(t)
	rng := rand.New(rand.NewPCG(seed, 99))
	p := planted.Plant(rng, images.Data, labels.Data, 10000, train.Data, trainLabels.Data, 60000,
		planted.Plan{Outliers: 30, Duplicates: 20, Leaks: 20, Flips: 100})
	d := sample.Set{N: p.N, H: 28, W: 28, Pixels: func(i int) []byte { return p.Pixels[i*784 : (i+1)*784] }, Labels: p.Labels}
	tl := make([]int, 60000)
	for i := range tl {
		tl[i] = int(trainLabels.Data[i])
	}
	other := sample.Set{N: 60000, H: 28, W: 28, Pixels: func(i int) []byte { return train.Data[i*784 : (i+1)*784] }, Labels: tl}
	return p, d, other
}

// quickCNN is a short scan for tests (1 seed, 2 folds, 2 epochs): weaker than the default,
// enough to show that the kinds work together.
var quickCNN = suspect.CNNOptions{Folds: 2, Epochs: 2, Seed: 5, Seeds: 1}

// TestRunFindsPlanted runs every kind on planted t10k against the training set, with one
// short CNN scan: the quick kinds are delivered first, every planted copy and leak is found,
// at least 27 of the 30 non-digits are in the outliers' top 100 (28 measured; the short scan's
// features are weaker than a full scan's, whose figures bench/check reports), and most flipped
// labels are in the labels' top 200.
func TestRunFindsPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	p, d, train := plantedT10k(t, 43)
	var order []Kind
	sawScan := false
	res, err := Run(context.Background(), d, &train, Options{CNN: quickCNN}, func(pr Progress) {
		if pr.CNN != nil {
			sawScan = true
		}
	}, func(k Kind, list []Finding) {
		order = append(order, k)
		if k == Duplicate || k == Leak {
			if sawScan {
				t.Errorf("%s delivered after the scan started", k)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []Kind{Duplicate, Leak, Label, Outlier}) || !slices.Equal(res.Kinds, Kinds) {
		t.Fatalf("delivered %v, ran %v", order, res.Kinds)
	}
	pairs := map[[2]int]bool{}
	for _, f := range res.Findings[Duplicate] {
		pairs[[2]int{f.Index, f.Other}] = true
		if f.Label != d.Labels[f.Index] || f.Suggested == sample.NoLabel {
			t.Fatalf("duplicate %+v: label or suggestion missing", f)
		}
	}
	for at, src := range p.Duplicates {
		if !pairs[[2]int{min(at, src), max(at, src)}] {
			t.Errorf("the copy at %d of %d was not found", at, src)
		}
	}
	leaks := map[int]int{}
	for _, f := range res.Findings[Leak] {
		leaks[f.Index] = f.Other
	}
	for at, src := range p.Leaks {
		if leaks[at] != src {
			t.Errorf("the leak at %d of training sample %d: %v", at, src, leaks[at])
		}
	}
	t.Logf("duplicates %d (planted 20), leaks %d (planted 20)", len(res.Findings[Duplicate]), len(res.Findings[Leak]))
	in100 := 0
	for _, f := range res.Findings[Outlier][:100] {
		if _, ok := p.Outliers[f.Index]; ok {
			in100++
		}
	}
	flips := 0
	for _, f := range res.Findings[Label][:200] {
		if _, ok := p.Flips[f.Index]; ok {
			flips++
		}
	}
	t.Logf("outliers: %d of 30 in the top 100 (%d flagged); flipped labels: %d of 100 in the top 200", in100, res.Flagged[Outlier], flips)
	// 26 with this seed since the planted non-digits go through MNIST's own preprocessing (the
	// letters look more like digits; see outlier's TestScoresFindPlantedOutliers); 27–28 before.
	if in100 < 24 {
		t.Errorf("only %d of 30 planted non-digits in the outliers' top 100", in100)
	}
	if flips < 85 {
		t.Errorf("only %d of 100 flipped labels in the top 200", flips)
	}
	for _, k := range Kinds {
		list := res.Findings[k]
		for m := 1; m < len(list); m++ {
			if list[m].Score > list[m-1].Score {
				t.Fatalf("%s: finding %d is more severe than %d", k, m, m-1)
			}
		}
	}
}

// TestRunWithoutLabels: images alone run the outliers (pixels only) and duplicates; asking for
// labels or a leak that cannot be done is an error; Top bounds the lists; a cancelled run stops.
func TestRunWithoutLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	d := digits.Set(t, 1000) // generated: the errors and Top run without the real files
	for i := range d.Labels {
		d.Labels[i] = sample.NoLabel
	}
	ctx := context.Background()
	res, err := Run(ctx, d, nil, Options{Top: 7}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Kinds, []Kind{Outlier, Duplicate}) || res.Scan != nil {
		t.Fatalf("kinds %v, scan %v", res.Kinds, res.Scan != nil)
	}
	if n := len(res.Findings[Outlier]); n != 7 {
		t.Errorf("%d outliers kept with Top 7", n)
	}
	for _, f := range res.Findings[Outlier] {
		if f.Label != sample.NoLabel || f.Suggested != sample.NoLabel || f.Other != -1 {
			t.Errorf("outlier %+v", f)
		}
	}
	if _, err := Run(ctx, d, nil, Options{Kinds: []Kind{Label}}, nil, nil); !errors.Is(err, ErrNoLabels) {
		t.Errorf("label kind without labels: %v", err)
	}
	if _, err := Run(ctx, d, nil, Options{Kinds: []Kind{Leak}}, nil, nil); !errors.Is(err, ErrNoOther) {
		t.Errorf("leak kind without another set: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Run(cancelled, d, nil, Options{}, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestParseKinds: names in any order come back in list order; unknown and repeated names fail.
func TestParseKinds(t *testing.T) {
	k, err := ParseKinds("leak,label")
	if err != nil || !slices.Equal(k, []Kind{Label, Leak}) {
		t.Errorf("leak,label: %v %v", k, err)
	}
	for _, bad := range []string{"", "labels", "label,label", "label,"} {
		if _, err := ParseKinds(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestFlagged: a Label finding is flagged when its label is probably wrong and the suggestion is
// another class, not when the label is still the most probable class (a tie); outliers from
// FlagOutlier; every pair.
func TestFlagged(t *testing.T) {
	for _, c := range []struct {
		f    Finding
		want bool
	}{
		{Finding{Kind: Label, Label: 5, Suggested: 3, Score: 0.7}, true},
		{Finding{Kind: Label, Label: 5, Suggested: 5, Score: 0.67}, false},
		{Finding{Kind: Label, Label: 5, Suggested: 3, Score: 0.3}, false},
		{Finding{Kind: Outlier, Score: FlagOutlier}, true},
		{Finding{Kind: Outlier, Score: FlagOutlier - 0.1}, false},
		{Finding{Kind: Duplicate, Score: 0.99}, true},
		{Finding{Kind: Leak, Score: 0.99}, true},
	} {
		if got := c.f.Flagged(); got != c.want {
			t.Errorf("%+v: flagged %v, want %v", c.f, got, c.want)
		}
	}
}
