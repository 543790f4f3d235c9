package store

import (
	"fmt"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// BenchmarkDirty times Dirty, which the window asks at every key (title, status bar), on 60,000
// and 1,000,000 samples of 4×4 pixels: after an edit (edited), and after edits that cancel out
// (3 typed on a 5, 5 typed back: cancelled, where the steps since the files' state are looked at
// once a generation). Neither should grow with the number of samples.
func BenchmarkDirty(b *testing.B) {
	for _, n := range []int{60000, 1000000} {
		images, _ := idx.New(idx.UByte, n, 4, 4)
		labels, _ := idx.New(idx.UByte, n)
		for k := range n {
			labels.Data[k] = byte(k % 10)
		}
		d, err := FromArrays(images, labels, nil, filepath.Join(b.TempDir(), "j"+pairfile.JournalSuffix), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Relabel([]int{5}, 3); err != nil {
			b.Fatal(err)
		}
		d.Dirty() // the tally counted once, as the window's first status bar does
		b.Run(fmt.Sprintf("edited/%d", n), func(b *testing.B) {
			for b.Loop() {
				if !d.Dirty() {
					b.Fatal("not dirty")
				}
			}
		})
		if err := d.Relabel([]int{5}, 5); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cancelled/%d", n), func(b *testing.B) {
			for b.Loop() {
				if d.Dirty() {
					b.Fatal("dirty")
				}
			}
		})
		d.Abandon()
		d.Close()
	}
}
