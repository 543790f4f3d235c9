package ui

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"idxlabel/plot"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// inPolygon is the crossing-number test over every edge of poly (x, y pairs, closed).
func inPolygon(poly []float64, x, y float64) bool {
	in := false
	n := len(poly) / 2
	for k := range n {
		ax, ay := poly[2*k], poly[2*k+1]
		bx, by := poly[2*((k+1)%n)], poly[2*((k+1)%n)+1]
		if (ay > y) != (by > y) && x < ax+(y-ay)*(bx-ax)/(by-ay) {
			in = !in
		}
	}
	return in
}

// lassoDrag draws a lasso on v through the widget positions pts with Shift held, as the driver
// reports a drag: a press, moves, the end of the drag.
func lassoDrag(v *widgets.MapView, mods fyne.KeyModifier, pts []fyne.Position) {
	v.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pts[0]}, Modifier: mods})
	for k := 1; k < len(pts); k++ {
		v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pts[k]}, Dragged: fyne.NewDelta(pts[k].X-pts[k-1].X, pts[k].Y-pts[k-1].Y)})
	}
	v.DragEnd()
	v.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pts[len(pts)-1]}})
}

// The map view: Tools → Map of the Dataset lays the scan's features out; a lasso drawn with
// Shift+drag makes the grid show exactly the samples inside it, all selected; one digit
// relabels them all in one undoable step and the map marks them edited; a click on a point
// moves the grid's cursor to it (every sample shown again) and the map marks the cursor; a
// sample added later is placed on the map.
func TestMapLassoRelabels(t *testing.T) {
	w, q, ds, _ := flippedWindow(t)
	w.menuActions().showMap()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.d != nil && mm.maps.lay != nil && w.mapv.maps.job == nil
	})
	l := mm.maps.lay
	if len(l.sample) != ds.Len() || w.side.showList.Selected != "Map" {
		t.Fatalf("%d points for %d samples; Show %q", len(l.sample), ds.Len(), w.side.showList.Selected)
	}
	v := mm.panel.view
	w.win.Canvas().Capture() // paints a frame: the view fits the map
	if v.View().Scale <= 0 || v.Frame().Map != l.pm {
		t.Fatalf("no frame drawn: view %+v", v.View())
	}

	// A lasso around the points of the class-1 samples: a hexagon about their centre.
	var cx, cy float64
	var ones int
	for p, i := range l.sample {
		if ds.Label(i) == 1 {
			cx, cy = cx+float64(l.xy[2*p]), cy+float64(l.xy[2*p+1])
			ones++
		}
	}
	cx, cy = cx/float64(ones), cy/float64(ones)
	px, py := v.View().ToPixel(float32(cx), float32(cy))
	var pts []fyne.Position
	var poly []float64 // in map units, from the positions the drag reports
	for k := range 7 {
		a := 2 * math.Pi * float64(k%6) / 6
		pos := fyne.NewPos(float32(px+60*math.Cos(a))/v.PixelsPerUnit(), float32(py+45*math.Sin(a))/v.PixelsPerUnit())
		pts = append(pts, pos)
		if k < 6 {
			x, y := v.View().ToMap(float64(pos.X*v.PixelsPerUnit()), float64(pos.Y*v.PixelsPerUnit()))
			poly = append(poly, float64(x), float64(y))
		}
	}
	var want []int
	for p, i := range l.sample {
		if inPolygon(poly, float64(l.xy[2*p]), float64(l.xy[2*p+1])) {
			want = append(want, i)
		}
	}
	slices.Sort(want)
	if len(want) < 5 {
		t.Fatalf("the lasso holds %d samples", len(want))
	}
	lassoDrag(v, fyne.KeyModifierShift, pts)
	var shown []int
	for p := range w.c.v.Len() {
		shown = append(shown, w.c.v.At(p))
	}
	if !slices.Equal(shown, want) || w.c.v.SelectionSize() != len(want) {
		t.Fatalf("the grid shows %v (%d selected), the lasso holds %v", shown, w.c.v.SelectionSize(), want)
	}
	if len(mm.over) != len(want)+1 {
		t.Fatalf("%d marks over the map for %d selected and the cursor", len(mm.over), len(want))
	}

	// One digit relabels them all, one step; the map marks them edited; one undo restores them.
	before := make([]int, len(want))
	for k, i := range want {
		before[k] = ds.Label(i)
	}
	test.Type(w.grid, "3")
	for _, i := range want {
		if ds.Label(i) != 3 || l.static[l.point[i]]&plot.Edited == 0 && ds.State(i).Edited {
			t.Fatalf("sample %d: label %d, marks %v", i, ds.Label(i), l.static[l.point[i]])
		}
	}
	if c := l.given[l.point[want[0]]]; int(c) >= len(l.classes) || l.classes[c] != 3 {
		t.Fatalf("a relabelled point is coloured as class %d", c)
	}
	w.c.undo()
	for k, i := range want {
		if ds.Label(i) != before[k] {
			t.Fatalf("one undo left sample %d labelled %d, was %d", i, ds.Label(i), before[k])
		}
	}

	// A click on a point outside the lasso shows every sample again, the cursor on it.
	far := -1
	for p, i := range l.sample {
		if !slices.Contains(want, i) {
			if x, y := v.View().ToPixel(l.xy[2*p], l.xy[2*p+1]); x > 10 && y > 10 && x < float64(v.View().W-10) && y < float64(v.View().H-10) {
				if j := v.PointAt(fyne.NewPos(float32(x)/v.PixelsPerUnit(), float32(y)/v.PixelsPerUnit())); j == p {
					far = p
					break
				}
			}
		}
	}
	if far < 0 {
		t.Fatal("no point outside the lasso to click")
	}
	x, y := v.View().ToPixel(l.xy[2*far], l.xy[2*far+1])
	test.TapAt(v, fyne.NewPos(float32(x)/v.PixelsPerUnit(), float32(y)/v.PixelsPerUnit()))
	if mm.lassoed != nil || w.c.v.Len() != ds.Len() || w.c.v.Current() != l.sample[far] {
		t.Fatalf("after a click: %d shown, cursor on %d, want %d", w.c.v.Len(), w.c.v.Current(), l.sample[far])
	}
	if last := mm.over[len(mm.over)-1]; last.Index != far || last.Marks != plot.Cursor {
		t.Fatalf("the cursor's mark is %+v", last)
	}

	// The outliers a health check flagged are crossed.
	mm.outliers = func() []int { return want[:1] }
	w.c.renderCursor()
	if !slices.Contains(mm.static, plot.Marked{Index: int(l.point[want[0]]), Marks: plot.Outlier}) {
		t.Fatal("the flagged outlier is not marked")
	}

	// Colour by suggested label.
	mm.panel.colour.SetSelected(colourSuggested)
	if !mm.byModel || &v.Frame().Points.Colour[0] != &l.byModel[0] {
		t.Fatal("the toggle does not colour by the suggested label")
	}

	// A sample added after the layout is placed among the others.
	px0, _ := ds.PixelsAt(want[0])
	i, err := w.c.add(store.HowAddedDrawn, []store.Sample{{Pixels: px0, Label: 1}})
	if err != nil {
		t.Fatal(err)
	}
	waitUI(t, q, func() bool { return i < len(mm.maps.lay.point) && mm.maps.lay.point[i] >= 0 })
	l = mm.maps.lay
	p := l.point[i]
	if l.pm.Len() != len(l.sample) || math.IsNaN(float64(l.xy[2*p])) || l.sample[p] != i {
		t.Fatalf("the added sample is at %v", l.xy[2*p:2*p+2])
	}
	if got, ok := l.pm.Nearest(l.xy[2*p], l.xy[2*p+1], 1e-6); !ok || got != int(p) {
		t.Fatalf("the added point is not in the map's index: %d %v", got, ok)
	}
	// Undoing the append takes it off the map.
	w.c.undo()
	if len(mm.maps.lay.point) != ds.Len() || mm.maps.lay.sample[p] != -1 {
		t.Fatal("the undone append is still on the map")
	}
}

// A save that leaves deleted samples out renumbers the others: the matrix and the map follow
// their samples (no new scan), the deleted ones leave both, and the map mode stays.
func TestScanViewsFollowASave(t *testing.T) {
	w, q, ds, _ := flippedWindow(t)
	w.menuActions().showMap()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.d != nil && mm.maps.lay != nil && w.mapv.maps.job == nil
	})
	d, lay := mm.d, mm.maps.lay
	n := ds.Len()
	labelOf := make([]int, n)
	for i := range n {
		labelOf[i] = ds.Label(i)
	}
	pointOf := slices.Clone(lay.point)
	total := func() int {
		s := 0
		for _, row := range d.Matrix.Counts() {
			for _, k := range row {
				s += k
			}
		}
		return s
	}
	if total() != n {
		t.Fatalf("the matrix holds %d of %d samples", total(), n)
	}
	gone := []int{0, 1, 2, 3, 4}
	if err := ds.Delete(gone); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	if total() != n-len(gone) {
		t.Fatalf("after deleting 5: the matrix holds %d", total())
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
	w.save.run(func(ctx context.Context, p func(float64)) error { return ds.SaveAsContext(ctx, ip, lp, p) }, nil)
	waitUI(t, q, func() bool { return !w.jobs.Busy() && ds.Len() == n-len(gone) })
	if w.c.mode != w.mapv || w.views.Current() != d || mm.d != d || w.scans.Running() {
		t.Fatalf("after the save: mode %v, the scan adopted %v", w.c.mode, w.views.Current() == d)
	}
	if total() != n-len(gone) {
		t.Fatalf("after the save: the matrix holds %d", total())
	}
	for i := range ds.Len() {
		old := i + len(gone)
		r, ok := d.RowOf(i)
		if !ok || r != old || d.Sample[r] != i || lay.point[i] != pointOf[old] || ds.Label(i) != labelOf[old] {
			t.Fatalf("sample %d (was %d): row %d %v, point %d (was %d)", i, old, r, ok, lay.point[i], pointOf[old])
		}
	}
	for _, i := range gone {
		p := pointOf[i]
		if lay.sample[p] != -1 || d.Sample[i] != -1 {
			t.Fatalf("the point of deleted sample %d still names sample %d", i, lay.sample[p])
		}
		if got, ok := lay.pm.Nearest(lay.laid[2*p], lay.laid[2*p+1], 1e-6); ok && got == int(p) {
			t.Fatalf("deleted sample %d is still drawn", i)
		}
	}
}
