package widgets

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"idxlabel/plot"
)

// viewMap returns a map view alone in a 600×400 test window, showing n points in 5 clusters,
// with what it reports recorded.
func viewMap(t testing.TB, n int) (*MapView, *mapAsks, []float32) {
	return viewMapSized(t, n, fyne.NewSize(600, 400))
}

// viewMapSized is viewMap in a window of size.
func viewMapSized(t testing.TB, n int, size fyne.Size) (*MapView, *mapAsks, []float32) {
	t.Helper()
	test.NewTempApp(t)
	rng := rand.New(rand.NewPCG(5, 8))
	xy := make([]float32, 2*n)
	col := make([]uint16, n)
	for i := range n {
		k := i % 5
		a := 2 * math.Pi * float64(k) / 5
		xy[2*i] = float32(10*math.Cos(a) + rng.NormFloat64())
		xy[2*i+1] = float32(10*math.Sin(a) + rng.NormFloat64())
		col[i] = uint16(k)
	}
	pm, err := plot.NewMap(xy)
	if err != nil {
		t.Fatal(err)
	}
	asks := &mapAsks{}
	v := NewMapView(MapInput{
		OnPick:  func(i int) { asks.picks = append(asks.picks, i) },
		OnLasso: func(pts []int, add bool) { asks.lassos = append(asks.lassos, pts); asks.adds = append(asks.adds, add) },
		Tile: func(i int) (image.Image, string, bool) {
			return image.NewGray(image.Rect(0, 0, 28, 28)), "#" + string(rune('0'+i%10)), true
		},
	})
	w := test.NewWindow(v)
	t.Cleanup(w.Close)
	w.Resize(size)
	v.SetFrame(MapFrame{Map: pm, Points: plot.Layer{Colour: col, Palette: plot.Palette(5)}, Version: 1, Style: plot.Light()})
	w.Canvas().Capture() // the first frame: the view fits the map
	return v, asks, xy
}

// mapAsks records what a map view reports.
type mapAsks struct {
	picks  []int
	lassos [][]int
	adds   []bool
}

// at returns the widget position of map point (x, y) as v shows it.
func at(v *MapView, x, y float32) fyne.Position {
	px, py := v.view.ToPixel(x, y)
	return fyne.NewPos(float32(px)/v.scale, float32(py)/v.scale)
}

// The map view alone: Shift+drag reports the points inside the lasso (Ctrl adds), a plain drag
// pans without reporting, the lasso tool makes a plain drag lasso, the wheel zooms about the
// pointer, a click reports the nearest point, the pointer shows the tile of the point under it.
func TestMapViewReportsWhatThePersonAsked(t *testing.T) {
	v, asks, xy := viewMap(t, 2000)
	if v.view.Scale <= 0 || v.view.W == 0 {
		t.Fatalf("no frame: %+v", v.view)
	}

	// A square lasso around the cluster at (10, 0).
	corners := [][2]float32{{7, -3}, {13, -3}, {13, 3}, {7, 3}, {7, -3}}
	var pts []fyne.Position
	for _, c := range corners {
		pts = append(pts, at(v, c[0], c[1]))
	}
	lassoDrag(v, fyne.KeyModifierShift, pts)
	var want []int
	for i := range len(xy) / 2 {
		if x, y := xy[2*i], xy[2*i+1]; x > 7 && x < 13 && y > -3 && y < 3 {
			want = append(want, i)
		}
	}
	if len(asks.lassos) != 1 || asks.adds[0] || !nearlyEqual(asks.lassos[0], want) {
		t.Fatalf("a Shift+drag lasso reported %d points (add %v), want about %d", len(asks.lassos[0]), asks.adds, len(want))
	}
	if len(v.lasso) != 0 {
		t.Fatal("the lasso is still drawn after the drag")
	}
	lassoDrag(v, fyne.KeyModifierShift|fyne.KeyModifierControl, pts)
	if len(asks.lassos) != 2 || !asks.adds[1] {
		t.Fatal("Ctrl+Shift+drag does not add to the lasso")
	}

	// A plain drag pans: the map point under the pointer follows it; nothing is reported.
	before := v.view
	lassoDrag(v, 0, []fyne.Position{fyne.NewPos(300, 200), fyne.NewPos(340, 220), fyne.NewPos(350, 230)})
	if len(asks.lassos) != 2 || v.view.CX == before.CX {
		t.Fatalf("a plain drag: %d lassos, view %+v", len(asks.lassos), v.view)
	}
	if x, y := v.view.ToMap(float64(350*v.scale), float64(230*v.scale)); math.Abs(float64(x)-float64(toMapX(before, 300*v.scale))) > 1e-3 || y == 0 && x == 0 {
		t.Fatalf("the point dragged is now at %v, %v", x, y)
	}
	// With the lasso tool on, a plain drag lassos.
	v.lassoTool = true
	v.FitAll()
	v.frame(v.view.W, v.view.H)
	pts = pts[:0]
	for _, c := range corners {
		pts = append(pts, at(v, c[0], c[1]))
	}
	lassoDrag(v, 0, pts)
	if len(asks.lassos) != 3 || !nearlyEqual(asks.lassos[2], want) {
		t.Fatal("the lasso tool does not lasso with a plain drag")
	}
	v.lassoTool = false

	// The wheel zooms in about the pointer: the map point under it stays there.
	p := at(v, 10, 0)
	scale := v.view.Scale
	v.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: p}, Scrolled: fyne.NewDelta(0, 25)})
	if x, y := v.view.ToMap(float64(p.X*v.scale), float64(p.Y*v.scale)); v.view.Scale <= scale || math.Abs(float64(x)-10) > 1e-3 || math.Abs(float64(y)) > 1e-3 {
		t.Fatalf("zoom: scale %v → %v, the pointer is over %v, %v", scale, v.view.Scale, x, y)
	}

	// A click reports the nearest point; a click on nothing reports nothing.
	v.frame(v.view.W, v.view.H)
	test.TapAt(v, at(v, xy[2*42], xy[2*42+1]))
	if len(asks.picks) != 1 || asks.picks[0] != nearestTo(xy, xy[2*42], xy[2*42+1]) {
		t.Fatalf("a click on point 42 reported %v", asks.picks)
	}
	test.TapAt(v, at(v, 0, 0)) // the middle of the ring of clusters is empty
	if len(asks.picks) != 1 {
		t.Fatalf("a click on nothing reported %v", asks.picks)
	}

	// The pointer over a point shows its tile; off the points, none.
	v.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at(v, xy[2*7], xy[2*7+1])}})
	if v.hovered < 0 || !v.r.card.Visible() || !v.r.tile.Visible() {
		t.Fatalf("hovering point 7: hovered %d, card shown %v", v.hovered, v.r.card.Visible())
	}
	v.MouseOut()
	if v.hovered >= 0 || v.r.card.Visible() {
		t.Fatal("the card stays after the pointer left")
	}
}

// nearlyEqual reports whether two ascending lists differ in at most 1% of their points (pixel
// rounding of the lasso's corners), and are not empty.
func nearlyEqual(a, b []int) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	diff := 0
	for _, i := range a {
		if _, ok := slices.BinarySearch(b, i); !ok {
			diff++
		}
	}
	for _, i := range b {
		if _, ok := slices.BinarySearch(a, i); !ok {
			diff++
		}
	}
	return diff <= len(b)/100
}

func toMapX(v plot.View, px float32) float32 {
	x, _ := v.ToMap(float64(px), 0)
	return x
}

// nearestTo returns the point of xy nearest to (x, y), lower index on ties.
func nearestTo(xy []float32, x, y float32) int {
	best, bd := -1, float32(math.Inf(1))
	for i := range len(xy) / 2 {
		dx, dy := xy[2*i]-x, xy[2*i+1]-y
		if d := dx*dx + dy*dy; d < bd {
			best, bd = i, d
		}
	}
	return best
}

// A frame allocates the same few times for 70,000 points as for 2,000 (the kernels of the
// marks; nothing per point): a pan (the points drawn again) and a cursor's move (the marks over
// the kept points).
func TestMapFrameAllocatesNothingPerPoint(t *testing.T) {
	allocs := func(n int) (pan, move float64) {
		v, _, _ := viewMap(t, n)
		w, h := v.view.W, v.view.H
		v.fit = false
		pan = testing.AllocsPerRun(20, func() {
			v.view = v.view.Pan(3, 1)
			v.frame(w, h)
		})
		over := []plot.Marked{{Index: 5, Marks: plot.Cursor}}
		move = testing.AllocsPerRun(20, func() {
			v.f.Over = over
			v.frame(w, h)
		})
		return pan, move
	}
	pan2k, move2k := allocs(2000)
	pan70k, move70k := allocs(70000)
	t.Logf("allocations per frame: pan %.0f (2,000 points) and %.0f (70,000); cursor %.0f and %.0f", pan2k, pan70k, move2k, move70k)
	if pan70k != pan2k || move70k != move2k || pan70k > 128 {
		t.Fatalf("allocations per frame grow with the points: pan %.0f → %.0f, cursor %.0f → %.0f", pan2k, pan70k, move2k, move70k)
	}
}

// BenchmarkMapFrame70k times one frame of the map view, 1000×800 pixels, showing 70,000 points
// in clusters: after a pan or zoom (the points drawn again, then the marks) and after a move of
// the grid's cursor (the marks over the kept points). 30 frames a second leave 33 ms a frame.
func BenchmarkMapFrame70k(b *testing.B) {
	v, _, _ := viewMapSized(b, 70000, fyne.NewSize(1000, 800))
	w, h := v.view.W, v.view.H
	v.fit = false
	b.Run("pan", func(b *testing.B) {
		k := 0
		for b.Loop() {
			v.view = v.view.Pan(float64(1-2*(k%2)), 0) // back and forth: every point stays in view
			k++
			v.frame(w, h)
		}
	})
	b.Run("cursor", func(b *testing.B) {
		k := 0
		for b.Loop() {
			v.f.Over = append(v.f.Over[:0], plot.Marked{Index: k % 70000, Marks: plot.Cursor})
			k++
			v.frame(w, h)
		}
	})
}

// lassoDrag draws a lasso on v through the widget positions pts with Shift held, as the driver
// reports a drag: a press, moves, the end of the drag.
func lassoDrag(v *MapView, mods fyne.KeyModifier, pts []fyne.Position) {
	v.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pts[0]}, Modifier: mods})
	for k := 1; k < len(pts); k++ {
		v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pts[k]}, Dragged: fyne.NewDelta(pts[k].X-pts[k-1].X, pts[k].Y-pts[k-1].Y)})
	}
	v.DragEnd()
	v.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pts[len(pts)-1]}})
}
