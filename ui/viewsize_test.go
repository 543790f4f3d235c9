package ui

import (
	"testing"

	"idxlabel/plot"
	"idxlabel/ui/mapview"
)

// The confusion matrix and the map fit a small window: each mode asks for at most 900 pixels of
// width (half of a 1920-pixel screen is 960; the browse mode asks for about 550). The toolbars
// used to ask for more (the confusion matrix 1,049, the map 1,161), so that opening the map
// grew a 1100-pixel window to 1,173 and cut off the detail panel and the status bar, and the
// confusion matrix's help was cut off at "Click a c". The map's key of 256 classes scrolls
// within three rows: it had 32, and the window grew to 1,233 pixels high, the map out of sight.
func TestScanViewsFitASmallWindow(t *testing.T) {
	const most = 900
	w, q, _, _ := flippedWindow(t)
	browse := w.win.Content().MinSize()
	menuAction(t, w, "Confusion Matrix")()
	waitUI(t, q, func() bool { return w.c.mode == w.conf })
	conf := w.win.Content().MinSize()
	menuAction(t, w, "Map of the Dataset")()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.D != nil && mm.Maps.Lay != nil && !w.mapv.Maps.Busy()
	})
	mp := w.win.Content().MinSize()
	t.Logf("minimum window content: browse %v, confusion matrix %v, map %v", browse, conf, mp)
	if conf.Width > most || mp.Width > most {
		t.Fatalf("the confusion matrix asks for %.0f pixels of width, the map %.0f; at most %d", conf.Width, mp.Width, most)
	}
	if !mm.Panel.Busy.Hidden && mm.Panel.View.Visible() {
		t.Fatal("the layout's progress still shows over the map")
	}

	// 256 classes in the key.
	classes := make([]int, 256)
	for k := range classes {
		classes[k] = k
	}
	keyed := mm.Panel.Root.MinSize()
	mm.Panel.SetKey(classes, plot.Palette(len(classes)), w.c.classes)
	w.win.Content().Refresh()
	many := mm.Panel.Root.MinSize()
	if rows := (many.Height - keyed.Height) / mapview.KeyRow; many.Height > keyed.Height+mapview.KeyRow*mapview.KeyRows || many.Width > keyed.Width {
		t.Fatalf("with 256 classes the map asks for %v (%.1f rows more), with 10 %v", many, rows, keyed)
	}
}
