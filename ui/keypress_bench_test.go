package ui

import (
	"fmt"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// BenchmarkKeyPress times one key in the window on datasets of 60,000 and 1,000,000 samples
// (tiled from the real training set): an arrow (the cursor moves, the status bar, legend and
// detail follow, the grid redraws its visible rows) and a digit (a relabel: journaled and synced,
// the histogram and every count follow). Neither should grow with the number of samples.
func BenchmarkKeyPress(b *testing.B) {
	images, labels := mnisttest.Load(b)
	for _, n := range []int{60000, 1000000} {
		im, lb := mnisttest.Build(b, images, labels, n)
		ds, err := store.FromArrays(im, lb, nil, filepath.Join(b.TempDir(), "j"+pairfile.JournalSuffix), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w := newTestWindow(b)
		w.win.Resize(fyne.NewSize(1280, 820))
		w.c.setDataset(ds, "bench", false)
		b.Run(fmt.Sprintf("arrow/%d", n), func(b *testing.B) {
			right := &fyne.KeyEvent{Name: fyne.KeyRight}
			for b.Loop() {
				w.grid.TypedKey(right)
			}
		})
		b.Run(fmt.Sprintf("digit/%d", n), func(b *testing.B) {
			k := 0
			for b.Loop() {
				w.grid.TypedRune(rune('0' + k%10))
				k++
			}
		})
		ds.Abandon()
		ds.Close()
	}
}
