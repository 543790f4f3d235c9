package similar

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/internal/gemm"
	"idxlabel/sample"
)

// benchIndex is an index built once per process for the benchmarks (a 1,000,000-sample build
// takes a minute), with its build's wall time.
type benchIndex struct {
	once  sync.Once
	ix    *Index
	d     sample.Set
	built time.Duration
}

var benchIndexes = map[string]*benchIndex{}

// mnistSet returns n samples: MNIST's training and test sets (70,000), or, for more, the
// training set augmented (mnisttest.Augmented: shifted by a pixel or none, noise σ 4), as a
// user's augmented dataset is.
func mnistSet(b *testing.B, n int) sample.Set {
	images, labels := mnisttest.LoadTrain(b)
	if n == 70000 {
		ti, tl := mnisttest.Load(b)
		images = &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: []int{n, 28, 28}}, Data: append(append([]byte{}, images.Data...), ti.Data...)}
		labels = &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: []int{n}}, Data: append(append([]byte{}, labels.Data...), tl.Data...)}
	} else {
		var err error
		if images, labels, err = mnisttest.Augmented(images, labels, n, 1, 4); err != nil {
			b.Fatal(err)
		}
	}
	d := sample.Set{N: n, H: 28, W: 28, Labels: make([]int, n)}
	d.Pixels = func(i int) []byte { return images.Data[i*784 : (i+1)*784] }
	for i := range n {
		d.Labels[i] = int(labels.Data[i])
	}
	return d
}

// standIn returns 128 values per sample standing in for the CNN's features (their size and
// sparsity: a query's cost does not depend on what they mean): the pixels projected on 128
// fixed random directions (a matrix product, 4,096 samples at a time), the negative parts cut
// to 0.
func standIn(d sample.Set) []float32 {
	const dim, block = 128, 4096
	rng := rand.New(rand.NewPCG(11, 11))
	p := d.Dim()
	dirs := make([]float32, p*dim) // p×dim
	for k := range dirs {
		dirs[k] = float32(rng.NormFloat64() / math.Sqrt(float64(p)))
	}
	out := make([]float32, d.N*dim)
	a := make([]float32, block*p)
	for i0 := 0; i0 < d.N; i0 += block {
		rows := min(block, d.N-i0)
		for r := range rows {
			for c, v := range d.Pixels(i0 + r) {
				a[r*p+c] = float32(v)
			}
		}
		gemm.Mul(blas.NoTrans, blas.NoTrans, rows, dim, p, a, p, dirs, dim, out[i0*dim:], dim)
	}
	for k, v := range out {
		out[k] = max(0, v)
	}
	return out
}

// index returns the benchmark's index of n samples by pixels or by the stand-in features,
// building it on first use, and reports the build's wall time.
func index(b *testing.B, n int, cnn bool) *benchIndex {
	if testing.Short() {
		b.Skip("builds an index of MNIST samples (seconds to a minute)")
	}
	key := fmt.Sprint(n, cnn)
	bi := benchIndexes[key]
	if bi == nil {
		bi = &benchIndex{}
		benchIndexes[key] = bi
	}
	bi.once.Do(func() {
		bi.d = mnistSet(b, n)
		opts := Options{}
		if cnn {
			opts.Features, opts.Dim = standIn(bi.d), 128
		}
		start := time.Now()
		ix, err := Build(context.Background(), bi.d, opts)
		if err != nil {
			b.Fatal(err)
		}
		bi.ix, bi.built = ix, time.Since(start)
	})
	if bi.ix == nil {
		b.Skip("the index could not be built")
	}
	return bi
}

// benchLike times Like of random samples, 100 most similar.
func benchLike(b *testing.B, n int, cnn bool) {
	bi := index(b, n, cnn)
	rng := rand.New(rand.NewPCG(5, 5))
	for b.Loop() {
		if _, err := bi.ix.Like(context.Background(), rng.IntN(bi.d.N), 100); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(bi.built.Seconds(), "build-s") // after the loop, which clears what was reported before
}

// benchLikePixels times LikePixels of a near-copy of a random sample (a drawn digit), 100 most
// similar.
func benchLikePixels(b *testing.B, n int, cnn bool) {
	bi := index(b, n, cnn)
	rng := rand.New(rand.NewPCG(6, 6))
	q := make([]byte, 784)
	for b.Loop() {
		copy(q, bi.d.Pixels(rng.IntN(bi.d.N)))
		q[rng.IntN(784)] ^= 0x40
		if _, _, err := bi.ix.LikePixels(context.Background(), q, 100); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(bi.built.Seconds(), "build-s")
}

func BenchmarkLike70kPixels(b *testing.B)       { benchLike(b, 70000, false) }
func BenchmarkLike70kCNN(b *testing.B)          { benchLike(b, 70000, true) }
func BenchmarkLikePixels70kPixels(b *testing.B) { benchLikePixels(b, 70000, false) }
func BenchmarkLike1MPixels(b *testing.B)        { benchLike(b, 1_000_000, false) }
func BenchmarkLike1MCNN(b *testing.B)           { benchLike(b, 1_000_000, true) }
func BenchmarkLikePixels1MPixels(b *testing.B)  { benchLikePixels(b, 1_000_000, false) }
