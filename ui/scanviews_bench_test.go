package ui

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/scan"
)

// BenchmarkConfusionOpen70k times opening the confusion matrix view on 70,000 samples (tiled
// from the real test set) once the scan is done: the matrix of the labels now against the
// scan's out-of-fold predictions (2% of them off the diagonal), the list of every sample off
// the diagonal for the grid, the grid's frame and the chart's first picture, in the headless
// test driver (the GPU upload of a real window is not included). Target: under 200 ms.
func BenchmarkConfusionOpen70k(b *testing.B) {
	images, labels := mnisttest.Load(b)
	images, labels = mnisttest.Build(b, images, labels, 70000)
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(b.TempDir(), "j"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { ds.Abandon(); ds.Close() }()
	w := newTestWindow(b)
	w.win.Resize(fyne.NewSize(1280, 820))
	w.c.setDataset(ds, "bench", false)
	snap := ds.Snapshot()
	classes := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	probs := make([]float32, len(snap.Labels)*10)
	for r, l := range snap.Labels {
		p := l
		if r%50 == 0 {
			p = (l + 1) % 10
		}
		for k := range 10 {
			probs[r*10+k] = 0.01
		}
		probs[r*10+p] = 0.91
	}
	w.scans.Adopt(scan.NewAnalysis(ds, w.c.resets, snap, &suspect.CNNResult{Classes: classes, Probs: probs}, 0, false))
	conf := w.conf
	for b.Loop() {
		conf.Open(modeHost{w.c})
		if w.c.mode != w.conf || conf.Drawn != conf.D.Edits || w.c.v.Len() != len(snap.Labels)/50 {
			b.Fatalf("mode %v, %d shown", w.c.mode, w.c.v.Len())
		}
		b.StopTimer()
		w.c.choose(browsing, store.All)
		w.views.Drop()
		conf.D, conf.List = nil, nil
		b.StartTimer()
	}
}
