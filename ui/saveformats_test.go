package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/export"
	"idxlabel/formats"
	"idxlabel/ui/convert"
)

// File → Save As… in another format than IDX writes the dataset as it is now (the unsaved edit
// in) as the export writers do: a Hugging Face Parquet folder, a Kaggle CSV, an .npz, each read
// back with every label; the dataset keeps its edits unsaved and its files; a second Save As to
// the same CSV asks before it replaces it.
func TestSaveAsOtherFormats(t *testing.T) {
	w, ds := demoWindow(t, false)
	q := queueUI(w)
	to := (ds.Label(1) + 1) % 10
	if err := ds.Relabel([]int{1}, to); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	dir := t.TempDir()
	saveAs := func(f int) {
		t.Helper()
		w.save.saveAs()
		var sel *convert.FormatChoice
		walkOverlay(w, func(o fyne.CanvasObject) {
			if s, ok := o.(*convert.FormatChoice); ok {
				sel = s
			}
		})
		_, entries := overlayTexts(w)
		if sel == nil || len(entries) < 2 || sel.SelectedIndex() != 0 {
			t.Fatalf("Save As: format list %v (IDX first?), %d text fields", sel, len(entries))
		}
		sel.SetSelectedIndex(f)
		entries[0].SetText(dir)
		entries[1].SetText("mine")
		sel.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter in the list presses Save
	}
	for f, out := range map[int]string{1: "mine", 2: "mine.csv", 3: "mine.npz"} {
		saveAs(f)
		waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "written to") })
		if text := overlayText(w); !strings.Contains(text, "not saved yet") {
			t.Errorf("%s: the note does not say the IDX pair has the edits unsaved: %q", out, text)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		path := filepath.Join(dir, out)
		if f == 1 {
			if _, err := os.Stat(filepath.Join(path, "README.md")); err != nil {
				t.Fatalf("no dataset card: %v", err)
			}
			path = filepath.Join(path, export.ParquetFile("train"))
		}
		set, err := formats.Read(context.Background(), path, formats.Options{})
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if set.N() != ds.Len() {
			t.Fatalf("%s: %d samples, want %d", out, set.N(), ds.Len())
		}
		for k := range ds.Len() {
			if got := int(set.Labels.Int(k)); got != ds.Label(k) {
				t.Fatalf("%s: sample %d labelled %d, want %d", out, k, got, ds.Label(k))
			}
		}
		if images, _ := ds.Paths(); images != "" || !ds.Dirty() {
			t.Fatalf("%s: the dataset's files became %q, dirty %v", out, images, ds.Dirty())
		}
	}
	if convert.SaveFormats[2].Export != export.KaggleCSV {
		t.Fatal("the third format is not Kaggle CSV")
	}
	saveAs(2)
	waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "Replace it?") })
}

// File → Open… lists IDX files and the files that open as IDX pairs written beside them, and
// nothing else.
func TestOpenListsOtherFormats(t *testing.T) {
	for name, want := range map[string]bool{
		"train-images-idx3-ubyte.gz": true, "train-00000-of-00001.parquet": true, "train.csv": true,
		"x.NPZ": true, "x.npy": true, "notes.txt": false,
		"train-labels-idx1-ubyte.gz.changes.csv": false,
	} {
		if got := isOpenName(name); got != want {
			t.Errorf("%s: listed %v, want %v", name, got, want)
		}
	}
}
