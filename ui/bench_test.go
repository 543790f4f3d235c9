package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// BenchmarkStartup60k times opening a 60,000-sample gzip pair and showing its first tiles: the
// store's open, the window's view of it, and the grid's first layout (the mosaic of the visible
// rows), in the headless test driver (the GPU upload of a real window is not included).
func BenchmarkStartup60k(b *testing.B) {
	images, labels := mnisttest.Load(b)
	images, labels = mnisttest.Build(b, images, labels, 60000)
	dir := b.TempDir()
	ip, lp := filepath.Join(dir, "b-images-idx3-ubyte.gz"), filepath.Join(dir, "b-labels-idx1-ubyte.gz")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		b.Fatal(err)
	}
	w := newTestWindow(b)
	w.win.Resize(fyne.NewSize(1280, 820))
	b.ResetTimer()
	for b.Loop() {
		ds, err := store.Open(ip, lp, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w.c.setDataset(ds, "b", false)
		if gridMosaic(w.grid) == nil {
			b.Fatal("no tiles drawn")
		}
		b.StopTimer()
		w.c.setEmpty() // closes the pair: its lock would refuse the next iteration's Open
		b.StartTimer()
	}
	os.RemoveAll(dir)
}
