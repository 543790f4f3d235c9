package health

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect/neardup"
	"idxlabel/suspect/nn"
	"idxlabel/suspect/outlier"
)

// The benchmarks time each kind alone at 10,000 (t10k), 60,000 (the training set) and
// 1,000,000 samples (the training set tiled: mnisttest.Distorted, so the tiles are not copies
// of each other; the ...Shifted variant tiles with 1–2 pixel shifts, so every sample has about
// 16 near-duplicates: the worst case). Each reports peak-MB, the live heap it needs beyond the
// pixels (mnisttest.PeakHeap), and findings. bench/check/measure.sh runs each in its own
// process under /usr/bin/time for the peak RSS.

// benchSet returns n samples: t10k for 10,000, the training set for 60,000, the training set
// tiled otherwise.
func benchSet(b *testing.B, n int, shifted bool) sample.Set {
	var images, labels *idx.Array
	if n == 10000 {
		images, labels = mnisttest.Load(b)
	} else {
		images, labels = mnisttest.LoadTrain(b)
	}
	var err error
	switch {
	case n != images.Dims[0] && shifted:
		images, labels, err = mnisttest.Shifted(images, labels, n)
	case n != images.Dims[0]:
		images, labels, err = mnisttest.Distorted(images, labels, n, 1)
	}
	if err != nil {
		b.Fatal(err)
	}
	ls := make([]int, n)
	for i := range ls {
		ls[i] = int(labels.Data[i])
	}
	return sample.Set{N: n, H: 28, W: 28, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }, Labels: ls}
}

func BenchmarkDuplicates10k(b *testing.B)         { benchDuplicates(b, 10000, false) }
func BenchmarkDuplicates60k(b *testing.B)         { benchDuplicates(b, 60000, false) }
func BenchmarkDuplicates1M(b *testing.B)          { benchDuplicates(b, 1000000, false) }
func BenchmarkDuplicates1MShifted(b *testing.B)   { benchDuplicates(b, 1000000, true) }
func BenchmarkLeak10kAgainst60k(b *testing.B)     { benchLeak(b, 10000) }
func BenchmarkLeak1MAgainst60k(b *testing.B)      { benchLeak(b, 1000000) }
func BenchmarkOutliers10k(b *testing.B)           { benchOutliers(b, 10000) }
func BenchmarkOutliers60k(b *testing.B)           { benchOutliers(b, 60000) }
func BenchmarkOutliers1M(b *testing.B)            { benchOutliers(b, 1000000) }
func BenchmarkCheckT10k(b *testing.B)             { benchCheck(b, 10000) }
func BenchmarkCheckTrain60k(b *testing.B)         { benchCheck(b, 60000) }
func BenchmarkDescriptorsAndIndex1M(b *testing.B) { benchIndex(b, 1000000) }

// describe fits a basis on d and describes sets with it.
func describe(b *testing.B, d sample.Set, sets ...sample.Set) []*neardup.Descriptors {
	ctx := context.Background()
	basis, err := neardup.FitBasis(ctx, d, 1)
	if err != nil {
		b.Fatal(err)
	}
	var out []*neardup.Descriptors
	for _, s := range sets {
		desc, err := basis.Describe(ctx, s, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, desc)
	}
	return out
}

func benchDuplicates(b *testing.B, n int, shifted bool) {
	d := benchSet(b, n, shifted)
	measurePairs(b, func() ([]neardup.Pair, error) {
		desc := describe(b, d, d)[0]
		return neardup.Within(context.Background(), d, desc, neardup.Options{})
	})
}

func benchLeak(b *testing.B, n int) {
	d, train := benchSet(b, n, false), benchSet(b, 60000, false)
	measurePairs(b, func() ([]neardup.Pair, error) {
		desc := describe(b, train, d, train)
		return neardup.Across(context.Background(), d, desc[0], train, desc[1], neardup.Options{})
	})
}

// measurePairs times find and reports its peak heap and the pairs it found.
func measurePairs(b *testing.B, find func() ([]neardup.Pair, error)) {
	for b.Loop() {
		var found int
		peak, err := mnisttest.PeakHeap(func() error {
			pairs, err := find()
			found = len(pairs)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		b.ReportMetric(float64(found), "pairs")
	}
}

// benchOutliers times the outlier detectors with the pixel descriptors and a stand-in for the
// CNN features: a fixed random projection of each sample's descriptor to 128 values through a
// ReLU (the features' size and sparsity; the search's cost does not depend on what they mean).
// The CNN scan that makes real features is timed by suspect's BenchmarkScanCNN*.
func benchOutliers(b *testing.B, n int) {
	d := benchSet(b, n, false)
	desc := describe(b, d, d)[0]
	feats := standInFeatures(desc.Vectors)
	for b.Loop() {
		peak, err := mnisttest.PeakHeap(func() error {
			_, err := outlier.Scores(context.Background(), d, []nn.Vectors{desc.Vectors, feats}, outlier.Options{})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	}
}

// standInFeatures projects each row of v on 128 fixed random directions and keeps the positive
// parts (N×128).
func standInFeatures(v nn.Vectors) nn.Vectors {
	const dim = 128
	rng := rand.New(rand.NewPCG(7, 7))
	proj := make([]float32, v.Dim*dim)
	for k := range proj {
		proj[k] = float32(rng.NormFloat64() / math.Sqrt(float64(v.Dim)))
	}
	out := nn.Vectors{Data: make([]float32, v.N*dim), N: v.N, Dim: dim}
	for i := range v.N {
		row := v.Data[i*v.Dim : (i+1)*v.Dim]
		for c := range dim {
			var s float32
			for k, x := range row {
				s += x * proj[k*dim+c]
			}
			out.Data[i*dim+c] = max(0, s)
		}
	}
	return out
}

// benchCheck runs every kind with the default CNN scan (the label kind's cost), and on t10k
// also leakage against the training set.
func benchCheck(b *testing.B, n int) {
	d := benchSet(b, n, false)
	var against *sample.Set
	if n == 10000 {
		train := benchSet(b, 60000, false)
		against = &train
	}
	for b.Loop() {
		var res *Result
		peak, err := mnisttest.PeakHeap(func() error {
			var err error
			res, err = Run(context.Background(), d, against, Options{}, nil, nil)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		b.ReportMetric(100*res.Scan.Error, "oof-error-%")
		for _, k := range res.Kinds {
			b.ReportMetric(float64(res.Flagged[k]), string(k)+"-flagged")
		}
	}
}

// benchIndex times the neighbour index alone on the 1,000,000 descriptors: build, then the 10
// nearest of every point.
func benchIndex(b *testing.B, n int) {
	d := benchSet(b, n, false)
	desc := describe(b, d, d)[0]
	for b.Loop() {
		peak, err := mnisttest.PeakHeap(func() error {
			ix, err := nn.NewIndex(context.Background(), desc.Vectors, nn.IndexOptions{})
			if err == nil {
				_, err = ix.Among(context.Background(), nil, 10, nn.Options{})
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	}
}

// BenchmarkIndexRecall60k times the neighbour index on the training set's 60,000 descriptors
// (48 values) and on 128-value stand-in features, and reports its recall of the exact 10
// nearest of 2,000 random samples (nn.Among) for each.
func BenchmarkIndexRecall60k(b *testing.B) {
	d := benchSet(b, 60000, false)
	desc := describe(b, d, d)[0]
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 3))
	queries := make([]int, 2000)
	for i := range queries {
		queries[i] = rng.IntN(d.N)
	}
	for b.Loop() {
		for _, c := range []struct {
			name string
			v    nn.Vectors
		}{{"desc", desc.Vectors}, {"feat", standInFeatures(desc.Vectors)}} {
			ix, err := nn.NewIndex(ctx, c.v, nn.IndexOptions{Cosine: true})
			if err != nil {
				b.Fatal(err)
			}
			g, err := ix.Among(ctx, queries, 10, nn.Options{})
			if err != nil {
				b.Fatal(err)
			}
			exact, err := nn.NewIndex(ctx, c.v, nn.IndexOptions{Cells: 1, Cosine: true})
			if err != nil {
				b.Fatal(err)
			}
			want, _ := exact.Among(ctx, queries, 10, nn.Options{})
			found := 0
			for q := range queries {
				wi, _ := want.Of(q)
				gi, _ := g.Of(q)
				for _, j := range wi {
					for _, k := range gi {
						if j == k {
							found++
							break
						}
					}
				}
			}
			b.ReportMetric(float64(found)/float64(10*len(queries)), c.name+"-recall@10")
		}
	}
}
