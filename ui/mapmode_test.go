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
	"idxlabel/ui/mapview"
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
	menuAction(t, w, "Map of the Dataset")()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.D != nil && mm.Maps.Lay != nil && !w.mapv.Maps.Busy()
	})
	l := mm.Maps.Lay
	if len(l.Sample) != ds.Len() || w.side.showList.Selected != "Map" {
		t.Fatalf("%d points for %d samples; Show %q", len(l.Sample), ds.Len(), w.side.showList.Selected)
	}
	v := mm.Panel.View
	w.win.Canvas().Capture() // paints a frame: the view fits the map
	if v.View().Scale <= 0 || v.Frame().Map != l.PM {
		t.Fatalf("no frame drawn: view %+v", v.View())
	}

	// A lasso around the points of the class-1 samples: a hexagon about their centre.
	var cx, cy float64
	var ones int
	for p, i := range l.Sample {
		if ds.Label(i) == 1 {
			cx, cy = cx+float64(l.XY[2*p]), cy+float64(l.XY[2*p+1])
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
	for p, i := range l.Sample {
		if inPolygon(poly, float64(l.XY[2*p]), float64(l.XY[2*p+1])) {
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
	if len(mm.Over) != len(want)+1 {
		t.Fatalf("%d marks over the map for %d selected and the cursor", len(mm.Over), len(want))
	}

	// One digit relabels them all, one step; the map marks them edited; one undo restores them.
	before := make([]int, len(want))
	for k, i := range want {
		before[k] = ds.Label(i)
	}
	test.Type(w.grid, "3")
	for _, i := range want {
		if ds.Label(i) != 3 || l.Static[l.Point[i]]&plot.Edited == 0 && ds.State(i).Edited {
			t.Fatalf("sample %d: label %d, marks %v", i, ds.Label(i), l.Static[l.Point[i]])
		}
	}
	if c := l.Given[l.Point[want[0]]]; int(c) >= len(l.Classes) || l.Classes[c] != 3 {
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
	for p, i := range l.Sample {
		if !slices.Contains(want, i) {
			if x, y := v.View().ToPixel(l.XY[2*p], l.XY[2*p+1]); x > 10 && y > 10 && x < float64(v.View().W-10) && y < float64(v.View().H-10) {
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
	x, y := v.View().ToPixel(l.XY[2*far], l.XY[2*far+1])
	test.TapAt(v, fyne.NewPos(float32(x)/v.PixelsPerUnit(), float32(y)/v.PixelsPerUnit()))
	if mm.Lassoed != nil || w.c.v.Len() != ds.Len() || w.c.v.Current() != l.Sample[far] {
		t.Fatalf("after a click: %d shown, cursor on %d, want %d", w.c.v.Len(), w.c.v.Current(), l.Sample[far])
	}
	if last := mm.Over[len(mm.Over)-1]; last.Index != far || last.Marks != plot.Cursor {
		t.Fatalf("the cursor's mark is %+v", last)
	}

	// The outliers a health check flagged are crossed.
	mm.Outliers = func() []int { return want[:1] }
	w.c.renderCursor()
	if !slices.Contains(mm.Static, plot.Marked{Index: int(l.Point[want[0]]), Marks: plot.Outlier}) {
		t.Fatal("the flagged outlier is not marked")
	}

	// Focused from the keyboard, the colour choice passes a digit on to the grid.
	focusedPassesDigit(t, w, ds, "the map's colour choice", mm.Panel.Colour)

	// Colour by suggested label.
	mm.Panel.Colour.SetSelected(mapview.ColourSuggested)
	if !mm.ByModel || &v.Frame().Points.Colour[0] != &l.ByModel[0] {
		t.Fatal("the toggle does not colour by the suggested label")
	}

	// A sample added after the layout is placed among the others.
	px0, _ := ds.PixelsAt(want[0])
	i, err := w.c.add(store.HowAddedDrawn, []store.Sample{{Pixels: px0, Label: 1}})
	if err != nil {
		t.Fatal(err)
	}
	waitUI(t, q, func() bool { return i < len(mm.Maps.Lay.Point) && mm.Maps.Lay.Point[i] >= 0 })
	l = mm.Maps.Lay
	p := l.Point[i]
	if l.PM.Len() != len(l.Sample) || math.IsNaN(float64(l.XY[2*p])) || l.Sample[p] != i {
		t.Fatalf("the added sample is at %v", l.XY[2*p:2*p+2])
	}
	if got, ok := l.PM.Nearest(l.XY[2*p], l.XY[2*p+1], 1e-6); !ok || got != int(p) {
		t.Fatalf("the added point is not in the map's index: %d %v", got, ok)
	}
	// Undoing the append takes it off the map.
	w.c.undo()
	if len(mm.Maps.Lay.Point) != ds.Len() || mm.Maps.Lay.Sample[p] != -1 {
		t.Fatal("the undone append is still on the map")
	}
}

// A save that leaves deleted samples out renumbers the others: the matrix and the map follow
// their samples (no new scan), the deleted ones leave both, and the map mode stays.
func TestScanViewsFollowASave(t *testing.T) {
	w, q, ds, _ := flippedWindow(t)
	menuAction(t, w, "Map of the Dataset")()
	mm := w.mapv
	waitUI(t, q, func() bool {
		return w.c.mode == w.mapv && mm.D != nil && mm.Maps.Lay != nil && !w.mapv.Maps.Busy()
	})
	d, lay := mm.D, mm.Maps.Lay
	n := ds.Len()
	labelOf := make([]int, n)
	for i := range n {
		labelOf[i] = ds.Label(i)
	}
	pointOf := slices.Clone(lay.Point)
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
	if w.c.mode != w.mapv || w.views.Current() != d || mm.D != d || w.scans.Running() {
		t.Fatalf("after the save: mode %v, the scan adopted %v", w.c.mode, w.views.Current() == d)
	}
	if total() != n-len(gone) {
		t.Fatalf("after the save: the matrix holds %d", total())
	}
	for i := range ds.Len() {
		old := i + len(gone)
		r, ok := d.RowOf(i)
		if !ok || r != old || d.Sample[r] != i || lay.Point[i] != pointOf[old] || ds.Label(i) != labelOf[old] {
			t.Fatalf("sample %d (was %d): row %d %v, point %d (was %d)", i, old, r, ok, lay.Point[i], pointOf[old])
		}
	}
	for _, i := range gone {
		p := pointOf[i]
		if lay.Sample[p] != -1 || d.Sample[i] != -1 {
			t.Fatalf("the point of deleted sample %d still names sample %d", i, lay.Sample[p])
		}
		if got, ok := lay.PM.Nearest(lay.Laid[2*p], lay.Laid[2*p+1], 1e-6); ok && got == int(p) {
			t.Fatalf("deleted sample %d is still drawn", i)
		}
	}
}
