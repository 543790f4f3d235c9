package similar

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode/modetest"
)

// trainFinder is a Finder over MNIST's 60,000 training samples with its index built (by pixel
// descriptors: no scan), and the build's wall time.
func trainFinder(b *testing.B) (*Finder, *modetest.Controller, time.Duration) {
	if testing.Short() {
		b.Skip("indexes MNIST's 60,000 training samples (seconds)")
	}
	images, labels := mnisttest.LoadTrain(b)
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(b.TempDir(), "train"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ds.Abandon(); ds.Close() })
	c := modetest.New(ds)
	win := test.NewTempApp(b).NewWindow("bench")
	queue := make(chan func(), 1024)
	j := jobs.New(func(f func()) { queue <- f }, nil)
	b.Cleanup(j.StopAll)
	f := New(c, j, dialogs.New(win, nil, nil, nil), win, &fakeScans{})
	start := time.Now()
	f.LikeCursor()
	for f.job != nil {
		(<-queue)()
	}
	if f.Mode.List == nil {
		b.Fatal("no list")
	}
	return f, c, time.Since(start)
}

// BenchmarkMoreLike60k is one Ctrl+F on a random sample of MNIST's training set once the index
// is built: the query of 100 most similar, the list made, and the grid's order made from it
// (modetest's Enter: the mode's Order). The index's build is reported as build-s.
func BenchmarkMoreLike60k(b *testing.B) {
	f, c, built := trainFinder(b)
	rng := rand.New(rand.NewPCG(3, 3))
	for b.Loop() {
		c.Mode, c.Order, c.At = nil, nil, 0
		f.ask(query{sample: rng.IntN(60000)})
		if f.job != nil {
			b.Fatal("the index was built again")
		}
	}
	b.ReportMetric(built.Seconds(), "build-s")
}

// BenchmarkMoreLikeDrawing60k is one Ctrl+F in the draw window: a training sample with a pixel
// changed stands for the drawing.
func BenchmarkMoreLikeDrawing60k(b *testing.B) {
	f, c, built := trainFinder(b)
	rng := rand.New(rand.NewPCG(4, 4))
	s := c.State()
	for b.Loop() {
		_, px, _ := s.DS.SampleAt(s.DS.Gen(), rng.IntN(60000))
		q := append([]byte(nil), px...)
		q[rng.IntN(784)] ^= 0x40
		f.ask(query{sample: Drawing, px: q, h: 28, w: 28})
		if f.job != nil {
			b.Fatal("the index was built again")
		}
	}
	b.ReportMetric(built.Seconds(), "build-s")
}
