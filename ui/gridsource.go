package ui

import (
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// samples is what the grid reads from a dataset (store.Dataset satisfies it). Reads go through
// SampleAt with the generation the view reflects, so a change the view has not applied yet (a
// save renumbering the samples on another goroutine) is never mixed with its positions.
type samples interface {
	SampleAt(gen uint64, i int) (store.State, []byte, bool)
	Size() (height, width int)
	Transposed() bool
}

// gridFrame is what the grid draws (a widgets.TileSource): the samples, read at the view's
// generation, in the view model's order, with its cursor and selection, and what the badges say.
// The controller hands it over with every change (controller.refresh).
type gridFrame struct {
	ds    samples
	v     *view
	marks tileMarks
}

// Len is the number of positions the view shows.
func (f gridFrame) Len() int { return f.v.Len() }

// Size is one sample's height and width, upright.
func (f gridFrame) Size() (int, int) { return f.ds.Size() }

// Cursor is the cursor's position (-1: none).
func (f gridFrame) Cursor() int { return f.v.cursor }

// Tile returns position p's pixels upright (EMNIST's transposed storage written into buf) and
// how its frame is marked; false when the dataset changed since the view's generation.
func (f gridFrame) Tile(p int, buf []byte) ([]byte, widgets.TileMark, bool) {
	i := f.v.At(p)
	st, px, ok := f.ds.SampleAt(f.v.gen, i)
	if !ok {
		return nil, widgets.TileMark{}, false
	}
	h, w := f.ds.Size()
	return sample.Upright(px, h, w, f.ds.Transposed(), buf),
		widgets.TileMark{Selected: f.v.IsSelected(i), Deleted: st.Deleted, Edited: st.Edited, Added: st.Added}, true
}

// Badge returns position p's badge (tileMarks.badge); false when the dataset changed since the
// view's generation.
func (f gridFrame) Badge(p int) (widgets.Badge, bool) {
	i := f.v.At(p)
	st, _, ok := f.ds.SampleAt(f.v.gen, i)
	if !ok {
		return widgets.Badge{}, false
	}
	return f.marks.badge(i, st), true
}
