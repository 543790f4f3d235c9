package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// testWindow opens a copy of the real t10k pair (in a temporary folder: tests never write
// beside the shared files) in a headless main window.
func testWindow(t *testing.T) (*window, *store.Dataset, string, string) {
	t.Helper()
	images, labels := mnisttest.Load(t)
	return pairWindow(t, "t10k", images, labels)
}

// digitsWindow opens n generated digits (fixture/digits: MNIST-like, every label right, the
// same on every run) written as a gzip pair in a temporary folder, in a headless main window:
// what testWindow does without the real MNIST files, for the tests of a safety or data promise.
func digitsWindow(t *testing.T, n int) (*window, *store.Dataset, string, string) {
	t.Helper()
	images, labels := digits.Load(t, n)
	return pairWindow(t, "g", images, labels)
}

// pairWindow writes images and labels as the gzip pair base-images-idx3-ubyte.gz,
// base-labels-idx1-ubyte.gz in a temporary folder and opens it for editing in a headless main
// window of 1280×820.
func pairWindow(t *testing.T, base string, images, labels *idx.Array) (*window, *store.Dataset, string, string) {
	t.Helper()
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, base+"-images-idx3-ubyte.gz"), filepath.Join(dir, base+"-labels-idx1-ubyte.gz")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	ds, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, filepath.Base(lp), false)
	t.Cleanup(func() { ds.Close() })
	return w, ds, ip, lp
}

// generatedDigits is how many generated digits eachPair opens: enough for every class to fill
// several rows of the grid.
const generatedDigits = 2000

// eachPair runs f as two subtests, each on a window of its own: "digits", on generated digits
// (digitsWindow: it runs everywhere), and "t10k", on the real t10k pair (testWindow: it skips
// without the real files, saying so, or fails when they are required). A test of a safety or
// data promise runs this way, so that it never skips silently; what it checks is the same on
// both, counted from the data.
func eachPair(t *testing.T, f func(t *testing.T, w *window, ds *store.Dataset, ip, lp string)) {
	t.Run("digits", func(t *testing.T) {
		w, ds, ip, lp := digitsWindow(t, generatedDigits)
		f(t, w, ds, ip, lp)
	})
	t.Run("t10k", func(t *testing.T) {
		w, ds, ip, lp := testWindow(t)
		f(t, w, ds, ip, lp)
	})
}

// tileCenter returns the grid coordinates of the middle of position p's tile.
func tileCenter(g *widgets.TileGrid, p int) fyne.Position {
	ge := g.Geometry()
	row, col := p/ge.Cols, p%ge.Cols
	return fyne.NewPos(ge.X0+(float32(col)+0.5)*ge.CellW, float32(row)*ge.CellH-g.Offset()+ge.CellH/2)
}

// rowInSight reports whether any of row's tiles is on screen.
func rowInSight(g *widgets.TileGrid, row int) bool {
	ge := g.Geometry()
	top := float32(row) * ge.CellH
	return top+ge.CellH > g.Offset() && top < g.Offset()+g.Size().Height
}

// gridObjects returns what the grid's renderer draws: the background, the mosaic, the badges
// (a back and a text each), then the cursor's mark, the scroll bar's track and thumb, the
// placeholder text and the focus ring.
func gridObjects(g *widgets.TileGrid) []fyne.CanvasObject {
	return test.WidgetRenderer(g).Objects()
}

// gridMosaic returns the mosaic image the grid shows (nil: none drawn).
func gridMosaic(g *widgets.TileGrid) image.Image {
	return gridObjects(g)[1].(*canvas.Image).Image
}

// badgeTexts returns the texts of the badges the grid shows.
func badgeTexts(g *widgets.TileGrid) []string {
	objs := gridObjects(g)
	var out []string
	for _, o := range objs[2 : len(objs)-5] {
		if t, ok := o.(*canvas.Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// frameColor returns the colour of the top-left frame pixel of position p's tile in the
// mosaic the grid shows (its first row is the first visible row).
func frameColor(w *window, p int) color.Color {
	g := w.grid
	img := gridMosaic(g)
	ge := g.Geometry()
	h, wd := w.c.ds.Size()
	cw, ch := wd+2, h+2 // a tile and its frame, in mosaic pixels
	row0 := int(g.Offset() / ge.CellH)
	return img.At((p%ge.Cols)*cw, (p/ge.Cols-row0)*ch)
}

func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, b uint8) bool { return int(a>>8)-int(b) < 8 && int(b)-int(a>>8) < 8 }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

// TestRelabelUndoSave is the proof: open a pair (the real one too), tap a tile, type a
// digit, see the store and the grid change, undo, relabel again, save to a temporary folder, and
// check that exactly the edited labels differ in the files written.
func TestRelabelUndoSave(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, ip, lp string) {
		orig, err := idx.ReadFile(lp)
		if err != nil {
			t.Fatal(err)
		}
		origImages, err := idx.ReadFile(ip)
		if err != nil {
			t.Fatal(err)
		}
		g := w.grid
		l4 := int(orig.Data[4])
		if w.c.v.Len() != len(orig.Data) || ds.Label(4) != l4 {
			t.Fatalf("view %d, label 4 = %d", w.c.v.Len(), ds.Label(4))
		}
		test.TapAt(g, tileCenter(g, 4))
		if w.c.v.Current() != 4 || !w.c.v.IsSelected(4) {
			t.Fatalf("tap selected %d", w.c.v.Current())
		}
		to := (l4 + 3) % 10 // 7 on t10k, whose sample 4 is a 4
		test.Type(g, strconv.Itoa(to))
		if ds.Label(4) != to || !ds.State(4).Edited {
			t.Fatalf("typing %d left label %d", to, ds.Label(4))
		}
		if w.c.v.Current() != 5 {
			t.Fatalf("cursor at %d after relabel, want the next sample 5", w.c.v.Current())
		}
		badge := fmt.Sprintf("%d→%d", l4, to)
		if !slices.Contains(badgeTexts(g), badge) {
			t.Fatalf("the grid does not show %s: %v", badge, badgeTexts(g)[:10])
		}
		if c := frameColor(w, 4); !near(c, color.RGBA{240, 140, 30, 255}) {
			t.Fatalf("tile 4's frame is %v, not the edited colour", c)
		}
		if want := fmt.Sprintf("Undo Relabel sample 4 as %d", to); w.menu.undo.Label != want || !ds.Dirty() {
			t.Fatalf("undo item %q", w.menu.undo.Label)
		}
		w.c.undo()
		if ds.Label(4) != l4 || ds.Dirty() || slices.Contains(badgeTexts(g), badge) {
			t.Fatalf("undo left label %d, dirty %v", ds.Label(4), ds.Dirty())
		}
		// Relabel two samples, one with a Shift range of two more.
		test.TapAt(g, tileCenter(g, 10))
		test.Type(g, "1")
		test.TapAt(g, tileCenter(g, 20))
		g.MouseDown(&desktop.MouseEvent{Modifier: fyne.KeyModifierShift})
		test.TapAt(g, tileCenter(g, 22))
		test.Type(g, "8")
		want := map[int]int{10: 1, 20: 8, 21: 8, 22: 8}
		dir := t.TempDir()
		ip2, lp2 := filepath.Join(dir, "out-images-idx3-ubyte.gz"), filepath.Join(dir, "out-labels-idx1-ubyte.gz")
		w.save.run(func(ctx context.Context, p func(float64)) error { return ds.SaveAsContext(ctx, ip2, lp2, p) }, nil)
		waitFor(t, func() bool { return !w.jobs.Busy() })
		if ds.Dirty() {
			t.Fatal("still dirty after the save")
		}
		saved, err := idx.ReadFile(lp2)
		if err != nil {
			t.Fatal(err)
		}
		images, _ := idx.ReadFile(ip2)
		if !slices.Equal(images.Data, origImages.Data) {
			t.Fatal("the saved images differ from the originals")
		}
		for i := range orig.Data {
			l, edited := want[i]
			if !edited {
				l = int(orig.Data[i])
			}
			if int(saved.Data[i]) != l {
				t.Fatalf("saved label %d is %d, want %d", i, saved.Data[i], l)
			}
		}
		if w.c.name != "out-labels-idx1-ubyte.gz" {
			t.Fatalf("title name %q after Save As", w.c.name)
		}
	})
}

// menuAction returns what the main menu's item whose label starts with label does, as a click on
// it does it ("Undo" for "Undo Relabel 3 samples"; an input of the person's runs as one).
func menuAction(t *testing.T, w *window, label string) func() {
	t.Helper()
	for _, m := range w.menu.menu.Items {
		for _, it := range m.Items {
			if strings.HasPrefix(it.Label, label) && it.Action != nil {
				return it.Action
			}
		}
	}
	t.Fatalf("no menu item %q", label)
	return nil
}

// waitFor polls cond until it holds. It has no time limit of its own, so that no machine load
// can fail a test that would pass: only a hang never ends, and go test's -timeout ends that one,
// with the stack of every goroutine, which says where it hangs.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(10 * time.Millisecond)
	}
}

// The class histogram filters the grid to a class; a relabelled sample stays in view while the
// counts move; the subsets (Edited, Deleted) and Delete/Restore; go to a sample shows every
// sample again.
func TestFilterAndClassHistogram(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		n1, n7 := countOf(ds, 1), countOf(ds, 7) // 1,135 and 1,028 on t10k
		w.side.list.Select(histogramRow(t, w, 1))
		if w.c.v.Len() != n1 {
			t.Fatalf("class 1 shows %d samples", w.c.v.Len())
		}
		for p := range w.c.v.Len() {
			if ds.Label(w.c.v.At(p)) != 1 {
				t.Fatal("a sample of another class is shown")
			}
		}
		// Relabel a "1" as 7: the view keeps it (stable while reviewing), the histogram moves.
		first := w.c.v.At(0)
		w.c.moveCursor(0, false)
		test.Type(w.grid, "7")
		if ds.Label(first) != 7 || w.c.v.At(0) != first {
			t.Fatal("relabelled sample left the view")
		}
		counts := ds.Counts()
		if counts[1].Count != n1-1 || counts[7].Count != n7+1 || w.side.counts[7].Count != n7+1 {
			t.Fatalf("histogram %v", counts)
		}
		w.side.showList.SetSelected("Edited")
		if w.c.v.Len() != 0 {
			t.Fatalf("Edited within class 1 shows %d", w.c.v.Len())
		}
		w.side.list.Select(0) // all classes
		w.side.showList.SetSelected("Edited")
		if w.c.v.Len() != 1 || w.c.v.At(0) != first {
			t.Fatalf("Edited shows %v", w.c.v.order)
		}
		w.c.toggleDelete()
		if !ds.State(first).Deleted {
			t.Fatal("Delete did not delete")
		}
		w.side.showList.SetSelected("Deleted")
		if w.c.v.Len() != 1 {
			t.Fatal("Deleted filter")
		}
		w.c.toggleDelete()
		if ds.State(first).Deleted {
			t.Fatal("second Delete did not restore")
		}
		last := ds.Len() - 1
		w.c.gotoSample(last)
		if w.c.v.Current() != last || w.side.showList.Selected != "All" {
			t.Fatalf("go to %d: cursor %d, show %s", last, w.c.v.Current(), w.side.showList.Selected)
		}
	})
}

// Select All in a class and one digit relabel the whole class as one step, which one undo takes
// back.
func TestSelectAllAndBatchRelabelIsOneUndo(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		n5, n3 := countOf(ds, 5), countOf(ds, 3) // 892 and 1,010 on t10k
		w.side.list.Select(histogramRow(t, w, 5))
		w.c.selectAll()
		if len(w.c.v.Selection()) != n5 {
			t.Fatalf("select all in class 5: %d", len(w.c.v.Selection()))
		}
		test.Type(w.grid, "3")
		if ds.Counts()[5].Count != 0 || ds.Counts()[3].Count != n3+n5 {
			t.Fatalf("batch relabel: %v", ds.Counts())
		}
		if want := fmt.Sprintf("Undo Relabel %d samples as 3", n5); w.menu.undo.Label != want {
			t.Fatalf("undo label %q", w.menu.undo.Label)
		}
		w.c.undo()
		if ds.Counts()[5].Count != n5 || ds.Dirty() {
			t.Fatal("one undo did not revert the batch")
		}
	})
}

// Arrows and End move the cursor and scroll to it; zoom from the smallest tile to the largest,
// the cursor kept in sight.
func TestZoomAndKeyboardNavigation(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		g := w.grid
		cols := g.Geometry().Cols
		g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		if w.c.v.Current() != cols {
			t.Fatalf("Down moved to %d, want %d", w.c.v.Current(), cols)
		}
		g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if w.c.v.Current() != ds.Len()-1 || g.Offset() == 0 {
			t.Fatalf("End: cursor %d, offset %v", w.c.v.Current(), g.Offset())
		}
		g.SetZoom(widgets.MaxZoom)
		if g.Zoom() != widgets.MaxZoom || w.side.zoom.Value != widgets.MaxZoom {
			t.Fatalf("zoom %d, slider %v", g.Zoom(), w.side.zoom.Value)
		}
		if tile := g.Geometry().CellW; tile < 280 {
			t.Fatalf("largest tile %v units, want ≥ 280", tile)
		}
		g.SetZoom(0)
		if g.Zoom() != widgets.MinZoom || g.Geometry().CellW != 30 {
			t.Fatalf("smallest zoom %d", g.Zoom())
		}
		// The cursor stays visible across zooms.
		ge := g.Geometry()
		row := float32(w.c.v.cursor/ge.Cols) * ge.CellH
		if row < g.Offset() || row > g.Offset()+g.Size().Height {
			t.Fatalf("cursor row at %v, view %v–%v", row, g.Offset(), g.Offset()+g.Size().Height)
		}
	})
}
