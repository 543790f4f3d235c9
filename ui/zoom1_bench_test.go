package ui

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// BenchmarkArrowSmallestTiles times an arrow key at the smallest tile size (zoom 1: the most
// tiles, and their badges, in sight) on the 10,000 real test digits.
func BenchmarkArrowSmallestTiles(b *testing.B) {
	images, labels := mnisttest.Load(b)
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(b.TempDir(), "j"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { ds.Abandon(); ds.Close() }()
	w := newTestWindow(b)
	w.win.Resize(fyne.NewSize(1280, 820))
	w.c.setDataset(ds, "bench", false)
	w.grid.SetZoom(widgets.MinZoom)
	right := &fyne.KeyEvent{Name: fyne.KeyRight}
	for b.Loop() {
		w.grid.TypedKey(right)
	}
}
