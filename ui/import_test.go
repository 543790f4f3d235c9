package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/normalize"
)

func writeBar(t *testing.T, path string) {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 60, 90))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 15; y < 75; y++ {
		for x := 26; x < 34; x++ {
			img.SetGray(x, y, color.Gray{0})
		}
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, _ := os.Create(path)
	png.Encode(f, img)
	f.Close()
}

func TestImportImageFolder(t *testing.T) {
	w, ds, _, _ := testWindow(t)
	dir := t.TempDir()
	writeBar(t, filepath.Join(dir, "1", "a.png"))
	writeBar(t, filepath.Join(dir, "1", "b.png"))
	writeBar(t, filepath.Join(dir, "4", "c.png"))
	os.WriteFile(filepath.Join(dir, "4", "bad.png"), []byte("nope"), 0o644)
	w.imp.run(dir, -1, normalize.Options{}, true)
	waitFor(t, func() bool { return !w.jobs.busy() })
	if ds.Len() != 10003 || ds.Label(10000) != 1 || ds.Label(10002) != 4 || !ds.State(10002).Added {
		t.Fatalf("after import: %d samples", ds.Len())
	}
	if ds.UndoName() != "Add 3 samples" {
		t.Fatalf("one undoable step expected, got %q", ds.UndoName())
	}
	if w.c.v.current() != 10002 {
		t.Fatalf("cursor at %d, want the last imported sample", w.c.v.current())
	}
	flat := t.TempDir()
	writeBar(t, filepath.Join(flat, "x.png"))
	w.imp.run(flat, 9, normalize.Options{}, false)
	waitFor(t, func() bool { return !w.jobs.busy() })
	if ds.Len() != 10004 || ds.Label(10003) != 9 {
		t.Fatalf("flat folder import: %d samples", ds.Len())
	}
}

// Enter in the import's options imports; its report names every skipped file with the count, in
// a list tall enough to read, and Enter closes it. Before, the reasons sat in a one-line scroll area and Enter did nothing.
func TestImportReportListsSkippedFiles(t *testing.T) {
	w, ds := demoWindow(t, false)
	dir := t.TempDir()
	writeBar(t, filepath.Join(dir, "1", "a.png"))
	os.Mkdir(filepath.Join(dir, "4"), 0o755)
	for k := range 20 {
		os.WriteFile(filepath.Join(dir, "4", fmt.Sprintf("bad%02d.png", k)), []byte("nope"), 0o644)
	}
	n := ds.Len()
	q := queueUI(w)
	w.imp.importOptions(dir)
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter imports
	waitUI(t, q, func() bool { return !w.jobs.busy() })
	if ds.Len() != n+1 {
		t.Fatalf("%d samples added", ds.Len()-n)
	}
	text := overlayText(w)
	if !strings.Contains(text, "Added 1 sample. Skipped 20 files:") || !strings.Contains(text, filepath.Join("4", "bad00.png")+": ") {
		t.Fatalf("the report says %q", text)
	}
	var list *widget.List
	walkOverlay(w, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.List); ok {
			list = l
		}
	})
	if list == nil || list.Size().Height < 8*widget.NewLabel("X").MinSize().Height {
		t.Fatalf("the skipped files' list is %v high", list.Size())
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Enter did not close the report")
	}
}

// The import dialog has the command line's ink and threshold options: dark bars on white paper
// named as light ink are the paper (no ink inside the bars' frame: the whole image becomes the
// digit), a threshold out of range is refused with what is expected, and automatic ink with
// "auto" imports the bar as a 1.
func TestImportDialogInkAndThreshold(t *testing.T) {
	w, ds := demoWindow(t, false)
	dir := t.TempDir()
	writeBar(t, filepath.Join(dir, "1", "a.png"))
	n := ds.Len()
	choose := func(ink int, threshold string) {
		t.Helper()
		q := queueUI(w)
		w.imp.importOptions(dir)
		var sel *widget.Select
		var entries []*widget.Entry
		walkOverlay(w, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Select:
				sel = x
			case *widget.Entry:
				entries = append(entries, x)
			}
		})
		if sel == nil || len(entries) != 2 || len(sel.Options) != 3 {
			t.Fatalf("the dialog has no ink choice and threshold entry (select %v, %d entries)", sel != nil, len(entries))
		}
		sel.SetSelectedIndex(ink)
		entries[0].SetText(threshold)
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		waitUI(t, q, func() bool { return !w.jobs.busy() })
	}
	choose(int(normalize.InkDark), "300")
	if text := overlayText(w); ds.Len() != n || !strings.Contains(text, "expected auto or a grey level 1–255") {
		t.Fatalf("threshold 300: %d added, the window says %q", ds.Len()-n, text)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	choose(int(normalize.InkLight), "")
	if ds.Len() != n+1 {
		t.Fatalf("%d added", ds.Len()-n)
	}
	paper := ds.Pixels(n)
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	choose(int(normalize.InkAuto), "auto")
	if ds.Len() != n+2 {
		t.Fatalf("%d added", ds.Len()-n)
	}
	bar := ds.Pixels(n + 1)
	g := &image.Gray{Pix: bar, Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
	box, _ := normalize.BoundingBox(g)
	if box.Dy() != 20 || box.Dx() > 5 {
		t.Fatalf("the bar with automatic ink has ink box %v", box)
	}
	if string(paper) == string(bar) {
		t.Fatal("light ink on the paper gave the same sample as automatic ink")
	}
}
