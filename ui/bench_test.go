package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/mnisttest"
	"idxlabel/store"
)

// BenchmarkMosaicTile is the grid's per-tile cost (what GridWrap's UpdateItem would be): one
// frame of a 1280×820 window at the default zoom draws 9×8 = 72 tiles into the mosaic.
func BenchmarkMosaicTile(b *testing.B) {
	images, labels := mnisttest.Load(b)
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(b.TempDir(), "j"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	v := newView(ds.Select(store.Filter{}), ds.Len())
	v.click(3, false, false)
	var m mosaic
	const cols, rows = 9, 8
	for b.Loop() {
		m.draw(ds, v, cols, 100, rows, palette{})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(cols*rows), "ns/tile")
}

// BenchmarkStartup60k times opening a 60,000-sample gzip pair and showing its first tiles: the
// store's open, the window's view of it, and the grid's first layout (the mosaic of the visible
// rows), in the headless test driver (the GPU upload of a real window is not included).
func BenchmarkStartup60k(b *testing.B) {
	images, labels := mnisttest.Load(b)
	images, labels = mnisttest.Build(b, images, labels, 60000)
	dir := b.TempDir()
	ip, lp := filepath.Join(dir, "b-images-idx3-ubyte.gz"), filepath.Join(dir, "b-labels-idx1-ubyte.gz")
	if err := store.WritePair(ip, lp, images, labels); err != nil {
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
		if r := test.WidgetRenderer(w.grid).(*tileGridRenderer); r.img.Image == nil {
			b.Fatal("no tiles drawn")
		}
		b.StopTimer()
		w.c.setEmpty() // closes the pair: its lock would refuse the next iteration's Open
		b.StartTimer()
	}
	os.RemoveAll(dir)
}
