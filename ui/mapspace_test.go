package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// The map takes the detail panel's room and the controls take one row: in a 1,400×900 window it
// got about 480×480 of it before.
func TestTheMapGetsTheRoom(t *testing.T) {
	w, q, _, _ := flippedWindow(t)
	w.win.Resize(fyne.NewSize(1400, 900))
	menuAction(t, w, "Map of the Dataset")()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.D != nil && mm.Maps.Lay != nil && !w.mapv.Maps.Busy()
	})
	w.win.Canvas().Capture() // lays the window out
	if isShown(w.detail.root, w) {
		t.Fatal("the detail panel keeps its room beside the map")
	}
	size := mm.Panel.View.Size()
	t.Logf("the map view: %.0f×%.0f of a 1400×900 window", size.Width, size.Height)
	if size.Width < 700 || size.Height < 600 {
		t.Fatalf("the map view is %.0f×%.0f, want at least 700×600", size.Width, size.Height)
	}
	w.c.choose(browsing, store.All)
	w.win.Canvas().Capture()
	if !isShown(w.detail.root, w) {
		t.Fatal("the detail panel did not come back after the map")
	}
}

// isShown reports whether o and every container holding it in w are visible.
func isShown(o fyne.CanvasObject, w *window) bool {
	var path []fyne.CanvasObject
	var find func(c fyne.CanvasObject, trail []fyne.CanvasObject) bool
	find = func(c fyne.CanvasObject, trail []fyne.CanvasObject) bool {
		trail = append(trail, c)
		if c == o {
			path = trail
			return true
		}
		if k, ok := c.(*fyne.Container); ok {
			for _, x := range k.Objects {
				if find(x, trail) {
					return true
				}
			}
		}
		return false
	}
	if !find(w.win.Content(), nil) {
		return false
	}
	for _, x := range path {
		if !x.Visible() {
			return false
		}
	}
	return true
}
