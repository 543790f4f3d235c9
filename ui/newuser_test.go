package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/export"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/widgets"
)

// Ctrl+G a second time opens the go-to box with its number selected: what is typed replaces it.
// Before, it followed it ("74466572").
func TestGotoBoxSelectsItsNumber(t *testing.T) {
	w, _ := demoWindow(t, false)
	menuItem(t, w, "Edit", "Go to Sample…").Action()
	test.Type(w.side.gotoBox, "74")
	w.side.gotoBox.OnSubmitted(w.side.gotoBox.Text)
	menuItem(t, w, "Edit", "Go to Sample…").Action()
	test.Type(w.side.gotoBox, "66")
	if w.side.gotoBox.Text != "66" {
		t.Fatalf("the box holds %q after Ctrl+G and 66", w.side.gotoBox.Text)
	}
}

// The class histogram lists every digit of a dataset of digits, labelled or not yet: a class not
// labelled yet can be clicked (the grid then shows its samples: none). Before, an image file
// opened alone (labelling from scratch) listed only the classes labelled so far.
func TestHistogramListsEveryDigit(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	ip, _ := writeTestPair(t, t.TempDir(), "alone", 20, 28, 28)
	ds, err := store.Open(ip, "", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	w.c.setDataset(ds, "alone", false)
	w.c.moveCursor(0, false)
	test.Type(w.grid, "3")
	if ds.Label(0) != 3 {
		t.Fatal("3 typed did not label sample 0")
	}
	var classes []int
	for _, cc := range w.side.counts {
		classes = append(classes, cc.Class)
	}
	if len(classes) != 11 || classes[0] != sample.NoLabel || classes[1] != 0 || classes[10] != 9 {
		t.Fatalf("the histogram lists %v", classes)
	}
	w.side.list.Select(histogramRow(t, w, 7))
	if f := w.c.v.filter.Class; f == nil || *f != 7 || w.c.v.Len() != 0 {
		t.Fatalf("class 7 clicked: filter %v, %d shown", f, w.c.v.Len())
	}
}

// File → Export… offers "Name class folders by class name" only for the PNG tree, the one
// format with class folders. Before, the .npz export offered it too.
func TestExportOffersOnlyItsFormatsOptions(t *testing.T) {
	w, _ := demoWindow(t, false)
	w.exp.exportDialog()
	var sel *widgets.DialogSelect
	var names *widgets.PassingCheck
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widgets.DialogSelect:
			sel = x
		case *widgets.PassingCheck:
			if strings.HasPrefix(x.Text, "Name class folders") {
				names = x
			}
		}
	})
	if sel == nil || names == nil || !names.Visible() {
		t.Fatal("no format choice, or no class-folder option for the PNG tree")
	}
	for k, f := range exportFormats {
		sel.SetSelectedIndex(k)
		if names.Visible() != (f.format == export.PNG) {
			t.Fatalf("%s: the class-folder option shown %v", f.label, names.Visible())
		}
	}
}

// At 1,280 px a long status line wraps onto a second line beside the jobs' progress instead of
// being cut, and the Show list is as wide as its longest entry ("Confusion matrix").
func TestStatusAndShowListFit(t *testing.T) {
	w, _ := demoWindow(t, false)
	long := "t10k-images-idx3-ubyte.gz + t10k-labels-idx1-ubyte.gz  ● unsaved   |   10,000 samples, 10,000 shown   |   12 edited, 0 added, 0 deleted   |   Suggested: 40 labelled of 9,990 unlabelled, 38 of them the suggestion"
	w.footer.show(long, "CNN scan: model 2/6, epoch 9/14, about 1 min 20 s left", nil, "sample 1 of 10,000")
	w.win.Content().Refresh()
	w.win.Resize(fyne.NewSize(1280, 820))
	one := widget.NewLabel("X").MinSize().Height
	if w.footer.status.Truncation != fyne.TextTruncateOff || w.footer.status.Size().Height < 1.5*one {
		t.Fatalf("the status line is %v high (one line: %v), truncation %v", w.footer.status.Size().Height, one, w.footer.status.Truncation)
	}
	width := fyne.MeasureText("Confusion matrix", theme14(), fyne.TextStyle{}).Width
	if w.side.showList.Size().Width < width+40 {
		t.Fatalf("the Show list is %v wide, its longest entry %v", w.side.showList.Size().Width, width)
	}
}

// theme14 is the text size of the window's theme.
func theme14() float32 { return widget.NewLabel("").Theme().Size("text") }

// A main-menu key typed in the draw window acts in the main window: Ctrl+I opens the import's
// folder chooser there. Before, File → New Dataset… opened the draw window with the keys and
// Ctrl+I did nothing.
func TestDrawWindowPassesMenuKeys(t *testing.T) {
	w, _ := demoWindow(t, false)
	w.draw.Show()
	d := w.draw.Open()
	if d == nil {
		t.Fatal("no draw window")
	}
	d.Pad.TypedShortcut(widgets.Ctrl(fyne.KeyI, false))
	if !w.d.IsOpen("choose import") {
		t.Fatal("Ctrl+I typed in the draw window opened no folder chooser in the main window")
	}
	d.Win.Close()
}

// The import report shows each skipped file's whole reason: a row wraps and is as tall as its
// text. Before, a long reason was cut ("abo…").
func TestImportReportWrapsReasons(t *testing.T) {
	w, _ := demoWindow(t, false)
	long := "a/b.png: image too large: 8000×8000 pixels of png at 4 bytes each would need 366 MiB to decode, above the 192 MiB idxlabel allows; " + strings.Repeat("and more words that go on ", 6) + "about the end"
	w.build.Import.Report("/d", nil, []string{long, "c/d.png: cannot decode"}, w.c.classes)
	var rows []*widget.Label
	walkOverlay(w, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "a/b.png") {
			rows = append(rows, l)
		}
	})
	if len(rows) != 1 {
		t.Fatalf("%d rows of the long reason in the report", len(rows))
	}
	r := rows[0]
	if r.Truncation != fyne.TextTruncateOff || r.Wrapping != fyne.TextWrapWord || r.Size().Height < r.MinSize().Height-1 || r.MinSize().Height < 2*widget.NewLabel("X").MinSize().Height-10 {
		t.Fatalf("the row is %v, its text needs %v (truncation %v, wrapping %v)", r.Size(), r.MinSize(), r.Truncation, r.Wrapping)
	}
}
