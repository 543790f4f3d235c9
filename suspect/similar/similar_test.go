package similar

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"idxlabel/fixture/planted"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
)

// blobs returns n 28×28 samples of 10 classes: class c a stroke through three points of its
// own, each moved by up to 2 pixels at random, of a random width and ink, so that samples of a
// class look alike (as a digit's do) without being copies of each other.
func blobs(seed uint64, n int) sample.Set {
	rng := rand.New(rand.NewPCG(seed, 2))
	px := make([]byte, n*784)
	labels := make([]int, n)
	for i := range n {
		c := i % 10
		labels[i] = c
		crng := rand.New(rand.NewPCG(uint64(c), 9)) // the class's points
		var pts [3][2]float64
		for p := range pts {
			pts[p] = [2]float64{6 + 16*crng.Float64() + float64(rng.IntN(5)-2), 6 + 16*crng.Float64() + float64(rng.IntN(5)-2)}
		}
		width, ink := 0.8+rng.Float64(), 150+rng.IntN(106)
		for y := range 28 {
			for x := range 28 {
				d := 99.0
				for p := range 2 {
					d = min(d, segment(float64(x), float64(y), pts[p], pts[p+1]))
				}
				if d < width {
					px[i*784+y*28+x] = byte(ink)
				}
			}
		}
	}
	return sample.Set{N: n, H: 28, W: 28, Labels: labels, Pixels: func(k int) []byte { return px[k*784 : (k+1)*784] }}
}

// segment returns the distance of (x, y) from the segment a–b.
func segment(x, y float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := max(0, min(1, ((x-a[0])*dx+(y-a[1])*dy)/(dx*dx+dy*dy+1e-9)))
	ex, ey := x-a[0]-t*dx, y-a[1]-t*dy
	return math.Sqrt(ex*ex + ey*ey)
}

// agreement returns the share of the 10 most like each of the first q samples that have its
// label.
func agreement(t testing.TB, ix *Index, d sample.Set, q int) float64 {
	same, all := 0, 0
	for i := range q {
		m, err := ix.Like(context.Background(), i, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range m {
			if x.Index == i {
				t.Fatalf("sample %d is listed as like itself", i)
			}
			all++
			if d.Labels[x.Index] == d.Labels[i] {
				same++
			}
		}
	}
	return float64(same) / float64(all)
}

// By pixel descriptors, samples of a class are found like each other; a planted near-copy of
// any kind comes first, both ways; the query is never listed; similarities fall.
func TestPixelsFindClassAndCopies(t *testing.T) {
	d := blobs(1, 2000)
	rng := rand.New(rand.NewPCG(3, 3))
	copies := map[int]int{}
	px := make([]byte, d.N*784)
	for i := range d.N {
		copy(px[i*784:], d.Pixels(i))
	}
	for k := range 40 {
		src, at := 2*k, 1000+2*k+1
		copy(px[at*784:(at+1)*784], planted.Copy(rng, d.Pixels(src), planted.CopyKinds[k%len(planted.CopyKinds)]))
		d.Labels[at] = d.Labels[src]
		copies[src], copies[at] = at, src
	}
	d.Pixels = func(k int) []byte { return px[k*784 : (k+1)*784] }
	ix, err := Build(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Space() != Pixels {
		t.Fatal("not by pixels")
	}
	a := agreement(t, ix, d, 500)
	t.Logf("agreement of the 10 most like: %.3f", a)
	if a < 0.6 { // chance: 0.1; the classes here overlap (0.82 measured)
		t.Fatalf("agreement %.3f", a)
	}
	for q, want := range copies {
		m, err := ix.Like(context.Background(), q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if m[0].Index != want || !m[0].Copy || m[0].Similarity < CopySimilarity {
			t.Fatalf("sample %d: first %+v, want its copy %d", q, m[0], want)
		}
		for k := 2; k < len(m); k++ {
			if m[k].Similarity > m[k-1].Similarity+1e-9 && !m[k-1].Copy {
				t.Fatalf("sample %d: similarities rise: %+v", q, m)
			}
		}
	}
	// By pixels: a copy of a sample finds it first.
	m, space, err := ix.LikePixels(context.Background(), planted.Copy(rng, d.Pixels(700), "shift 1"), 3)
	if err != nil || space != Pixels || m[0].Index != 700 {
		t.Fatalf("by pixels: %+v %v %v", m, space, err)
	}
}

// By features, neighbours are those of the features; a query by pixels without Embed is
// answered by pixel descriptors; with Embed, by features.
func TestFeatures(t *testing.T) {
	d := blobs(2, 600)
	feats := make([]float32, d.N*3)
	for i := range d.N { // class c on its own axis, a little spread
		feats[3*i+d.Labels[i]%3] = 1
		feats[3*i+(d.Labels[i]+1)%3] = float32(d.Labels[i]) / 30
		feats[3*i+(d.Labels[i]+2)%3] = float32(i%7) / 700
	}
	embedded := 0
	ix, err := Build(context.Background(), d, Options{Features: feats, Dim: 3, Embed: func(_ context.Context, im [][]byte) ([]float32, error) {
		embedded++
		return []float32{0, 0, 1}, nil // class 2's axis (and 5's, 8's)
	}})
	if err != nil || ix.Space() != CNN {
		t.Fatal(err)
	}
	if a := agreement(t, ix, d, 100); a < 0.99 {
		t.Fatalf("agreement %.3f", a)
	}
	m, space, err := ix.LikePixels(context.Background(), d.Pixels(4), 5)
	if err != nil || space != CNN || embedded != 1 || d.Labels[m[len(m)-1].Index]%3 != 2 {
		t.Fatalf("embedded: %+v %v %v", m, space, err)
	}
	noEmbed, _ := Build(context.Background(), d, Options{Features: feats, Dim: 3})
	m, space, err = noEmbed.LikePixels(context.Background(), d.Pixels(4), 5)
	if err != nil || space != Pixels || m[0].Index != 4 {
		t.Fatalf("without Embed: %+v %v %v", m, space, err)
	}
	if _, err := Build(context.Background(), d, Options{Features: feats[:10], Dim: 3}); err == nil {
		t.Fatal("features of the wrong length taken")
	}
	if _, err := ix.Like(context.Background(), d.N, 3); err == nil {
		t.Fatal("a sample out of range taken")
	}
	if _, _, err := ix.LikePixels(context.Background(), make([]byte, 10), 3); err == nil {
		t.Fatal("pixels of the wrong size taken")
	}
}

// With a scan's model, a query by pixels is placed among the scan's features: a sample's own
// pixels find the samples its features are nearest to.
func TestEmbedWithAScansModel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a small CNN (a few seconds)")
	}
	d := blobs(4, 800)
	res, err := suspect.ScanCNN(context.Background(), d, suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(context.Background(), d, Options{Features: res.Features, Dim: cnn.Features, Embed: EmbedWith(res.Model, 28, 28)})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for q := range 50 {
		m, space, err := ix.LikePixels(context.Background(), d.Pixels(q), 10)
		if err != nil || space != CNN {
			t.Fatalf("query %d: %v %v", q, space, err)
		}
		for _, x := range m {
			if d.Labels[x.Index] == d.Labels[q] {
				same++
			}
		}
	}
	if a := float64(same) / 500; a < 0.6 {
		t.Fatalf("agreement by the model's features %.3f", a)
	}
	if _, err := EmbedWith(res.Model, 28, 28)(context.Background(), [][]byte{make([]byte, 5)}); err == nil {
		t.Fatal("an image of the wrong size embedded")
	}
}

// A k far above the samples' count lists every other sample and allocates for the samples there
// are, not for k: on 250 samples, Like with k = 4,000,000 allocated 15.6 GiB before k was capped.
// Measured by the bytes allocated, not by time.
func TestHugeKFollowsTheSamples(t *testing.T) {
	d := blobs(4, 250)
	ix, err := Build(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := ix.Like(context.Background(), 3, 4_000_000)
	if err != nil || len(m) != d.N-1 {
		t.Fatalf("Like: %d matches (want %d), %v", len(m), d.N-1, err)
	}
	p, _, err := ix.LikePixels(context.Background(), d.Pixels(3), 4_000_000)
	if err != nil || len(p) != d.N {
		t.Fatalf("LikePixels: %d matches (want %d), %v", len(p), d.N, err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("%d MiB allocated for %d samples", got>>20, d.N)
	}
	one := blobs(5, 1)
	ix1, err := Build(context.Background(), one, Options{})
	if err != nil {
		t.Fatalf("an index of one sample: %v", err)
	}
	if m, err := ix1.Like(context.Background(), 0, 5); err != nil || len(m) != 0 {
		t.Fatalf("the only sample: %v, %v", m, err)
	}
}
