package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/build"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
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

// importFolder imports dir in w as File → Import Images… does once the folder is chosen: the
// folder is read, the import dialog opens, set (may be nil) changes it, Enter imports; it waits
// until the jobs are done (q runs the UI thread's steps).
func importFolder(t *testing.T, w *window, q *uiQueue, dir string, set func()) {
	t.Helper()
	w.build.Import.Read(dir)
	waitUI(t, q, func() bool { return w.d.IsOpen("import options") || w.d.IsOpen("error: "+overlayErr(w)) })
	if !w.d.IsOpen("import options") {
		t.Fatalf("no import dialog: %q", overlayText(w))
	}
	if set != nil {
		set()
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter imports
	waitUI(t, q, func() bool { return noJobs(w) })
}

// overlayErr is the text of the error dialog on top, if any ("" else).
func overlayErr(w *window) string {
	for _, key := range w.d.Open() {
		if strings.HasPrefix(key, "error: ") {
			return strings.TrimPrefix(key, "error: ")
		}
	}
	return ""
}

// Numbered class folders into the open pair: each image through the preprocessing, labelled by
// its folder, added at the end as one undoable step, the cursor on the last; a damaged image is
// skipped. A flat folder gets the label typed.
func TestImportImageFolder(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		dir := t.TempDir()
		writeBar(t, filepath.Join(dir, "1", "a.png"))
		writeBar(t, filepath.Join(dir, "1", "b.png"))
		writeBar(t, filepath.Join(dir, "4", "c.png"))
		os.WriteFile(filepath.Join(dir, "4", "bad.png"), []byte("nope"), 0o644)
		n := ds.Len() // 10,000 on t10k
		importFolder(t, w, q, dir, nil)
		if ds.Len() != n+3 || ds.Label(n) != 1 || ds.Label(n+2) != 4 || !ds.State(n+2).Added {
			t.Fatalf("after import: %d samples", ds.Len())
		}
		if ds.UndoName() != "Add 3 samples" {
			t.Fatalf("one undoable step expected, got %q", ds.UndoName())
		}
		if w.c.v.Current() != n+2 {
			t.Fatalf("cursor at %d, want the last imported sample", w.c.v.Current())
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // the report
		flat := t.TempDir()
		writeBar(t, filepath.Join(flat, "x.png"))
		importFolder(t, w, q, flat, func() {
			_, entries := overlayTexts(w)
			_ = entries
			var label *dialogs.PromptEntry
			walkOverlay(w, func(o fyne.CanvasObject) {
				if e, ok := o.(*dialogs.PromptEntry); ok && e.PlaceHolder == "none" {
					label = e
				}
			})
			if label == nil {
				t.Fatal("a flat folder's dialog has no label field")
			}
			label.SetText("9")
		})
		if ds.Len() != n+4 || ds.Label(n+3) != 9 {
			t.Fatalf("flat folder import: %d samples", ds.Len())
		}
	})
}

// digitFolders writes a tree of folders named zero … nine (n bars each) and returns it.
func digitFolders(t *testing.T, n int, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range append([]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}, extra...) {
		for k := range n {
			writeBar(t, filepath.Join(dir, name, fmt.Sprintf("%d.png", k)))
		}
	}
	return dir
}

// Folders named by class into a new dataset (nothing open: the dialog's one choice) are numbered
// as idxlabel import numbers them (sorted names: eight 0 … zero 9), the dialog says so and lists
// each folder's class and count before anything is added, and the dataset gets the names: Edit →
// Class Names… shows them and Save As writes the class-name file. Before, the names were dropped.
func TestImportNamedFoldersLikeTheCLI(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	dir := digitFolders(t, 2)
	tree, err := normalize.ReadFolder(dir) // what idxlabel import numbers them by
	if err != nil {
		t.Fatal(err)
	}
	importFolder(t, w, q, dir, func() {
		text := overlayText(w)
		for _, want := range []string{"A new dataset", `eight/  →  class 0 "eight"  ·  2 images  ·  sorted name order`, `zero/  →  class 9 "zero"  ·  2 images  ·  sorted name order`, "20 images in 10 class folders → 10 classes."} {
			if !strings.Contains(text, want) {
				t.Fatalf("the dialog does not say %q:\n%s", want, text)
			}
		}
	})
	ds := w.c.ds
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	if w.c.name != "untitled" || ds.Len() != 20 {
		t.Fatalf("%d samples imported into %q", ds.Len(), w.c.name)
	}
	for k, f := range tree.Files {
		if ds.Label(k) != f.Label {
			t.Fatalf("sample %d (%s) has label %d, idxlabel import gives %d", k, f.Path, ds.Label(k), f.Label)
		}
	}
	for c, name := range tree.Names {
		if ds.ClassName(c) != name {
			t.Fatalf("class %d is named %q, want %q", c, ds.ClassName(c), name)
		}
	}
	if text := overlayText(w); !strings.Contains(text, `class 9 (zero): 2`) {
		t.Fatalf("the report says %q", text)
	}
	out := t.TempDir()
	if err := ds.SaveAsContext(context.Background(), filepath.Join(out, "d-images-idx3-ubyte"), filepath.Join(out, "d-labels-idx1-ubyte"), nil); err != nil {
		t.Fatal(err)
	}
	names, _, err := pairfile.FindClassNames(filepath.Join(out, "d-labels-idx1-ubyte"))
	if err != nil || fmt.Sprint(names) != fmt.Sprint(tree.Names) {
		t.Fatalf("saved names %v (%v), want %v", names, err, tree.Names)
	}
}

// digitsDataset shows in w a new, empty dataset of the digits 0–9 without names, as File → New
// Dataset… (Digits 0–9) makes it.
func digitsDataset(t *testing.T, w *window) *store.Dataset {
	t.Helper()
	ds, err := store.New(28, 28, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil, filepath.Join(t.TempDir(), "new.journal"))
	if err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "untitled", false)
	return ds
}

// Folders named by the digits' words into File → New Dataset…'s digits 0–9 (classes without
// names or samples) go to their digits, zero to 0 (before, torchvision's order made eight 0 and
// zero 9): the dialog says "by digit word" for each before anything is added, every sample's
// label is the digit of the folder it came from, and no class gets a name.
func TestImportDigitWordsOntoDigits(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	ds := digitsDataset(t, w)
	dir := digitFolders(t, 2)
	importFolder(t, w, q, dir, func() {
		text := overlayText(w)
		for _, want := range []string{"The open dataset: untitled (0 samples, 10 classes)", "zero/  →  class 0  ·  2 images  ·  by digit word",
			"eight/  →  class 8  ·  2 images  ·  by digit word", "10 folders named by a digit's word go to that digit"} {
			if !strings.Contains(text, want) {
				t.Fatalf("the dialog does not say %q:\n%s", want, text)
			}
		}
	})
	if w.c.ds != ds || ds.Len() != 20 {
		t.Fatalf("%d samples imported into %q", w.c.ds.Len(), w.c.name)
	}
	for i := range ds.Len() {
		folder, _, _ := strings.Cut(ds.Source(i), "/")
		if d, ok := normalize.DigitWord(folder); !ok || ds.Label(i) != d {
			t.Fatalf("sample %d from %q has label %d", i, ds.Source(i), ds.Label(i))
		}
	}
	for c := range 10 {
		if ds.ClassName(c) != "" {
			t.Fatalf("class %d was named %q", c, ds.ClassName(c))
		}
	}
}

// classFields returns the class fields of the import dialog's mapping that are in sight, in row
// order.
func classFields(w *window) []*build.ClassField {
	var out []*build.ClassField
	walkOverlay(w, func(o fyne.CanvasObject) {
		if f, ok := o.(*build.ClassField); ok && f.Visible() {
			out = append(out, f)
		}
	})
	return out
}

// Each folder's class can be chosen before the import: a number typed in its field (a new class
// takes the folder's name), or a class of the dataset picked by name; the row says "chosen" and
// the images come in with that class.
func TestImportClassChosen(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	ds := digitsDataset(t, w)
	if err := ds.SetClassNames(map[int]string{4: "vier"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, p := range []string{"alpha/a.png", "beta/b.png", "gamma/c.png"} {
		writeBar(t, filepath.Join(dir, p))
	}
	importFolder(t, w, q, dir, func() {
		fields := classFields(w)
		if len(fields) != 3 {
			t.Fatalf("%d class fields in the mapping", len(fields))
		}
		fields[0].SetText("12")   // alpha: a new class, by number
		fields[1].SetText("VIER") // beta: class 4, by its name
		fields[2].SetText("nope") // gamma: names no class, keeps its own
		text := overlayText(w)
		for _, want := range []string{`alpha/  →  class 12 "alpha"  ·  1 image  ·  chosen: a NEW class`, `beta/  →  class 4 "vier"  ·  1 image  ·  chosen`} {
			if !strings.Contains(text, want) {
				t.Fatalf("the dialog does not say %q:\n%s", want, text)
			}
		}
	})
	got := map[string]int{}
	for i := range ds.Len() {
		got[ds.Source(i)] = ds.Label(i)
	}
	if ds.Len() != 3 || got["alpha/a.png"] != 12 || got["beta/b.png"] != 4 || ds.ClassName(12) != "alpha" || ds.ClassName(4) != "vier" {
		t.Fatalf("labels by source %v, names %q %q", got, ds.ClassName(12), ds.ClassName(4))
	}
	if l, ok := got["gamma/c.png"]; !ok || l == 4 || l == 12 {
		t.Fatalf("gamma (typed a name of no class) got label %d", l)
	}
}

// Enter typed in a class folder's class field imports, with the class typed there, as Enter in
// the dialog's other fields does (before, it only left the field: the dialog stayed open).
func TestImportClassFieldEnterImports(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	ds := digitsDataset(t, w)
	dir := t.TempDir()
	writeBar(t, filepath.Join(dir, "alpha", "a.png"))
	w.build.Import.Read(dir)
	waitUI(t, q, func() bool { return w.d.IsOpen("import options") })
	fields := classFields(w)
	if len(fields) != 1 {
		t.Fatalf("%d class fields in the mapping", len(fields))
	}
	w.win.Canvas().Focus(fields[0])
	fields[0].SetText("12")
	fields[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return noJobs(w) })
	if w.d.IsOpen("import options") || ds.Len() != 1 {
		t.Fatalf("Enter in the class field: the dialog open %v, %d samples imported (want 1)", w.d.IsOpen("import options"), ds.Len())
	}
	if ds.Label(0) != 12 {
		t.Errorf("Enter in the class field imported the image as %d, not as the class typed there (12)", ds.Label(0))
	}
}

// Into a dataset whose classes are named, folders find their classes by name (any case) or
// number; a folder that matches none is shown as a new class before anything is added, and
// unchecked it is skipped; checked, it becomes a new class with its name.
func TestImportOntoNamedClasses(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		names := map[int]string{}
		for k, s := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
			names[k] = s
		}
		if err := ds.SetClassNames(names); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for _, p := range []string{"Zero/a.png", "7/b.png", "seven/c.png", "ten/d.png"} {
			writeBar(t, filepath.Join(dir, p))
		}
		n := ds.Len()
		uncheck := func() {
			text := overlayText(w)
			for _, want := range []string{`Zero/  →  class 0 "zero"  ·  1 image  ·  by name`, `7/  →  class 7 "seven"  ·  1 image  ·  by number  (2 images in the class from 2 folders)`,
				`ten/  →  class 10 "ten"  ·  1 image  ·  NEW class`, "1 folder matches no class of the dataset"} {
				if !strings.Contains(text, want) {
					t.Fatalf("the dialog does not say %q:\n%s", want, text)
				}
			}
			var checks []*widgets.PassingCheck
			walkOverlay(w, func(o fyne.CanvasObject) {
				if c, ok := o.(*widgets.PassingCheck); ok {
					checks = append(checks, c)
				}
			})
			if len(checks) < 4 {
				t.Fatalf("%d checks in the mapping", len(checks))
			}
			checks[3].SetChecked(false) // ten: skipped
		}
		importFolder(t, w, q, dir, uncheck)
		if ds.Len() != n+3 || ds.Label(n) != 0 || ds.Label(n+1) != 7 || ds.Label(n+2) != 7 || slices.Contains(ds.Classes(), 10) {
			t.Fatalf("%d added, labels %d %d %d, classes %v", ds.Len()-n, ds.Label(n), ds.Label(n+1), ds.Label(n+2), ds.Classes())
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // the report
		importFolder(t, w, q, dir, nil)
		if ds.Len() != n+7 || ds.Label(n+6) != 10 || ds.ClassName(10) != "ten" || ds.ClassName(0) != "zero" {
			t.Fatalf("%d added, last label %d named %q", ds.Len()-n, ds.Label(n+6), ds.ClassName(10))
		}
	})
}

// An import while the demo is open says which dataset would receive the samples and offers a
// new one, chosen by default for the demo: the demo is left as it was. Before, the digits went
// silently into the demo's 300.
func TestImportFromTheDemoMakesANewDataset(t *testing.T) {
	w, demoDS := demoWindow(t, true)
	q := queueUI(w)
	dir := digitFolders(t, 1)
	importFolder(t, w, q, dir, func() {
		text := overlayText(w)
		if !strings.Contains(text, "The open dataset: demo (300 samples, 10 classes)") || !strings.Contains(text, "A new dataset of 28×28 samples") {
			t.Fatalf("the dialog does not name the datasets:\n%s", text)
		}
	})
	if demoDS.Len() != 300 || w.c.ds == demoDS || w.c.ds.Len() != 10 || w.c.ds.ClassName(9) != "zero" || w.c.name != "untitled" {
		t.Fatalf("demo %d samples; the window shows %q with %d samples", demoDS.Len(), w.c.name, w.c.ds.Len())
	}
	t.Cleanup(func() { w.c.ds.Abandon(); w.c.ds.Close() })
}

// Keys typed while an import runs are neither dropped nor applied to the imported samples: the
// progress dialog passes them to the grid, where the edits wait, and when the import ends they
// are applied in order on the samples they were typed on, then the samples are added.
func TestImportKeysWhileItRuns(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		dir := t.TempDir()
		writeBar(t, filepath.Join(dir, "1", "a.png"))
		w.build.Import.Read(dir)
		waitUI(t, q, func() bool { return w.d.IsOpen("import options") })
		w.c.moveCursor(0, false)
		l0, l1, n := ds.Label(0), ds.Label(1), ds.Len()
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter imports: the job starts
		if !w.jobs.Busy() || !w.d.Passing() {
			t.Fatal("no import running under a progress dialog")
		}
		w.keys.canvasRune(rune('0' + (l0+1)%10)) // typed while it runs
		w.keys.canvasRune(rune('0' + (l1+2)%10))
		if ds.Label(0) != l0 {
			t.Fatal("an edit reached the store while the import held edits")
		}
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Label(0) != (l0+1)%10 || ds.Label(1) != (l1+2)%10 || ds.Len() != n+1 || ds.Label(n) != 1 {
			t.Fatalf("labels %d %d (want %d %d), %d samples", ds.Label(0), ds.Label(1), (l0+1)%10, (l1+2)%10, ds.Len())
		}
		if !strings.HasPrefix(ds.UndoName(), "Add a sample") {
			t.Fatalf("the last step is %q, want the import after the keys", ds.UndoName())
		}
	})
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
	importFolder(t, w, q, dir, nil)
	if ds.Len() != n+1 {
		t.Fatalf("%d samples added", ds.Len()-n)
	}
	text := overlayText(w)
	if !strings.Contains(text, "Added 1 sample (undo removes them all): class 1: 1. Skipped 20 files:") || !strings.Contains(text, filepath.Join("4", "bad00.png")+": ") {
		t.Fatalf("the report says %q", text)
	}
	var list *widgets.PassingList
	walkOverlay(w, func(o fyne.CanvasObject) {
		if l, ok := o.(*widgets.PassingList); ok {
			list = l
		}
	})
	if list == nil {
		t.Fatal("the report lists no skipped files")
	}
	if list.Size().Height < 8*widget.NewLabel("X").MinSize().Height {
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
		w.build.Import.Read(dir)
		waitUI(t, q, func() bool { return w.d.IsOpen("import options") })
		var sel *widgets.DialogSelect
		var entries []*dialogs.PromptEntry
		walkOverlay(w, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widgets.DialogSelect:
				sel = x
			case *dialogs.PromptEntry:
				entries = append(entries, x)
			}
		})
		if sel == nil || len(entries) != 1 || len(sel.Options) != 3 {
			t.Fatalf("the dialog has no ink choice and threshold entry (select %v, %d entries)", sel != nil, len(entries))
		}
		sel.SetSelectedIndex(ink)
		entries[0].SetText(threshold)
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		waitUI(t, q, func() bool { return !w.jobs.Busy() })
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
