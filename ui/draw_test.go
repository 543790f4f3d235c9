package ui

import (
	"context"
	"image"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/idx"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/draw"
	"idxlabel/ui/widgets"
)

// newDatasetWindow starts a main window on a new 28×28 dataset (journal in a temporary folder)
// with the draw window open.
func newDatasetWindow(t *testing.T) (*window, *draw.Window, *store.Dataset) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	ds, err := store.New(28, 28, nil, nil, filepath.Join(t.TempDir(), "new.idxlabel-journal"))
	if err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "untitled", false)
	// The draw window's model trains in the background; its UI steps queue for this goroutine
	// (never run here: these tests do not wait for it) instead of racing with the test's reads.
	queueUI(w)
	w.draw.Show()
	if w.draw.Open() == nil {
		t.Fatal("no draw window")
	}
	w.draw.Open().Win.Resize(fyne.NewSize(760, 480))
	t.Cleanup(func() { ds.Close() })
	return w, w.draw.Open(), ds
}

// drag draws one stroke on the pad from (x0, y0) to (x1, y1), in fractions of the pad's side.
func drag(d *draw.Window, x0, y0, x1, y1 float32) {
	s := d.Pad.Size()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(d.Pad)
	to := at.Add(fyne.NewPos(x1*s.Width, y1*s.Height))
	test.Drag(d.Win.Canvas(), to, (x1-x0)*s.Width, (y1-y0)*s.Height)
}

// drawSeven draws a "7": a bar and a diagonal.
func drawSeven(d *draw.Window) {
	drag(d, 0.25, 0.2, 0.75, 0.2)
	drag(d, 0.75, 0.2, 0.45, 0.85)
}

func TestDrawAddThreeSamplesAndSave(t *testing.T) {
	w, d, ds := newDatasetWindow(t)
	if !d.AddButton.Disabled() {
		t.Fatal("Add is enabled on an empty pad")
	}
	drawSeven(d)
	if d.Pad.Strokes() != 2 || d.Digit == nil {
		t.Fatalf("strokes %d, preview %v", d.Pad.Strokes(), d.Digit != nil)
	}
	if !d.AddButton.Disabled() {
		t.Fatal("Add is enabled without a label")
	}
	d.Pad.TypedRune('7')
	if d.Label.Text != "7" || d.AddButton.Disabled() {
		t.Fatalf("label %q, add disabled %v", d.Label.Text, d.AddButton.Disabled())
	}
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Len() != 1 || ds.Label(0) != 7 || !d.Pad.Empty() || d.Label.Text != "" {
		t.Fatalf("after Enter: %d samples, pad empty %v, label %q", ds.Len(), d.Pad.Empty(), d.Label.Text)
	}
	// Ctrl+Z undoes a stroke; Escape clears the pad.
	drawSeven(d)
	d.Pad.TypedShortcut(&fyne.ShortcutUndo{})
	if d.Pad.Strokes() != 1 {
		t.Fatalf("Ctrl+Z left %d strokes", d.Pad.Strokes())
	}
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if !d.Pad.Empty() || !d.AddButton.Disabled() {
		t.Fatal("Escape did not clear the pad")
	}
	drawSeven(d)
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // no label for this drawing: nothing added
	if ds.Len() != 1 || d.Label.Text != "" || !d.AddButton.Disabled() {
		t.Fatalf("Enter with no label: %d samples, label %q", ds.Len(), d.Label.Text)
	}
	d.Pad.TypedRune('7')
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	drag(d, 0.5, 0.15, 0.48, 0.85)
	d.Pad.TypedRune('1')
	d.Add()
	if ds.Len() != 3 || !slices.Equal([]int{ds.Label(0), ds.Label(1), ds.Label(2)}, []int{7, 7, 1}) {
		t.Fatalf("samples %d", ds.Len())
	}
	if w.c.v.Len() != 3 || w.c.ds.UndoName() != "Add a sample labelled 1" {
		t.Fatalf("grid shows %d, undo %q", w.c.v.Len(), w.c.ds.UndoName())
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "mine-images-idx3-ubyte.gz"), filepath.Join(dir, "mine-labels-idx1-ubyte.gz")
	if err := ds.SaveAsContext(context.Background(), ip, lp, nil); err != nil {
		t.Fatal(err)
	}
	images, err := idx.ReadFile(ip)
	if err != nil || images.Header.String() != "0x00000803 ubyte 3×28×28" {
		t.Fatalf("images %v %v", images, err)
	}
	labels, _ := idx.ReadFile(lp)
	if !slices.Equal(labels.Data, []byte{7, 7, 1}) {
		t.Fatalf("labels %v", labels.Data)
	}
	for k := range 3 {
		g := &image.Gray{Pix: images.Data[k*784 : (k+1)*784], Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
		row, col, ok := normalize.CenterOfMass(g)
		if !ok || math.Abs(row-14) > 0.5 || math.Abs(col-14) > 0.5 {
			t.Fatalf("sample %d: centre of mass (%.2f, %.2f)", k, row, col)
		}
	}
}

// TestDrawHiDPI draws the same strokes at scale 1 and 2: the sample is the same.
func TestDrawHiDPI(t *testing.T) {
	var digits [][]byte
	for _, scale := range []float32{1, 2} {
		_, d, _ := newDatasetWindow(t)
		d.Win.Canvas().(interface{ SetScale(float32) }).SetScale(scale)
		drawSeven(d)
		if d.Digit == nil {
			t.Fatalf("scale %v: nothing normalized", scale)
		}
		digits = append(digits, slices.Clone(d.Digit.Pix))
		if img := d.Win.Canvas().Capture(); img.Bounds().Dx() < int(760*scale)-1 {
			t.Fatalf("scale %v: capture %v", scale, img.Bounds())
		}
	}
	if !slices.Equal(digits[0], digits[1]) {
		t.Fatal("the same strokes normalize differently at scale 2")
	}
}

func TestPenWidthAndCentring(t *testing.T) {
	_, d, _ := newDatasetWindow(t)
	d.Pen.SetValue(0.04)
	drag(d, 0.5, 0.2, 0.5, 0.8)
	thin := inkSum(d.Digit)
	d.Pad.Clear()
	d.Pen.SetValue(0.14)
	drag(d, 0.5, 0.2, 0.5, 0.8)
	thick := inkSum(d.Digit)
	if thick <= thin*3/2 {
		t.Fatalf("a wider pen gave ink %d vs %d", thick, thin)
	}
	d.Centering.SetSelected(widgets.CenterBoxText)
	box, _ := normalize.BoundingBox(d.Digit)
	if l, r := box.Min.X, 28-box.Max.X; l-r > 1 || r-l > 1 {
		t.Fatalf("bounding-box centring: %v", box)
	}
}

func inkSum(g *image.Gray) int {
	s := 0
	for _, v := range g.Pix {
		s += int(v)
	}
	return s
}

// With no model to guess, each drawing starts with an empty label box: after a 4 is added, the
// next drawing is not pre-filled "4" (Enter used to add it as a 4). A label typed before
// drawing stays for that drawing, even when the pad is cleared and drawn again.
func TestDrawLabelBoxStartsEmpty(t *testing.T) {
	_, d, ds := newDatasetWindow(t)
	drawSeven(d)
	d.Pad.TypedRune('4')
	d.Add()
	if ds.Len() != 1 || ds.Label(0) != 4 {
		t.Fatalf("%d samples", ds.Len())
	}
	drawSeven(d)
	if d.Label.Text != "" || !d.AddButton.Disabled() {
		t.Fatalf("the next drawing's label box holds %q", d.Label.Text)
	}
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Len() != 1 || !strings.Contains(d.Status.Text, "type its label") {
		t.Fatalf("Enter with no label: %d samples, status %q", ds.Len(), d.Status.Text)
	}
	d.Pad.Clear()
	d.Pad.TypedRune('1')
	drawSeven(d)
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	drawSeven(d)
	if d.Label.Text != "1" {
		t.Fatalf("the label typed for the drawing went: %q", d.Label.Text)
	}
}

// When the main window shows another dataset, the draw window starts afresh for it: no message
// of the old dataset, no drawing and no label left, and a drawing becomes a sample of the new
// dataset's size (1×1 here: an odd but valid pair), added and saved.
func TestDrawFollowsANewDataset(t *testing.T) {
	w, d, _ := newDatasetWindow(t)
	drawSeven(d)
	d.Pad.TypedRune('7')
	d.Add()
	old := d.Status.Text
	drawSeven(d)
	d.Pad.TypedRune('3')
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "one-images-idx3-ubyte"), filepath.Join(dir, "one-labels-idx1-ubyte")
	images, _ := idx.New(idx.UByte, 2, 1, 1)
	labels, _ := idx.New(idx.UByte, 2)
	copy(images.Data, []byte{0, 255})
	copy(labels.Data, []byte{1, 2})
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	one, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { one.Close() })
	w.c.setDataset(one, "one", false)
	if d.Status.Text == old || !strings.Contains(d.Heading.Text, "1×1") || !d.Pad.Empty() || d.Label.Text != "" {
		t.Fatalf("after another dataset: status %q, heading %q, pad empty %v, label %q", d.Status.Text, d.Heading.Text, d.Pad.Empty(), d.Label.Text)
	}
	d.Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if one.Len() != 2 {
		t.Fatal("the old drawing was added to the new dataset")
	}
	drawSeven(d)
	d.Pad.TypedRune('5')
	d.Add()
	if one.Len() != 3 || one.Label(2) != 5 || len(one.Pixels(2)) != 1 {
		t.Fatalf("%d samples, status %q", one.Len(), d.Status.Text)
	}
	if err := one.Save(nil); err != nil {
		t.Fatal(err)
	}
	got, err := idx.ReadFile(ip)
	if err != nil || got.Header.String() != "0x00000803 ubyte 3×1×1" {
		t.Fatalf("saved %v, %v", got, err)
	}
}
