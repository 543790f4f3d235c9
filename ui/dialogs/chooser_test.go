package dialogs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/ui/classes"
	"idxlabel/ui/widgets"
)

// testDialogs makes the dialogs of a headless window of 1280×820.
func testDialogs(t *testing.T) (*Dialogs, fyne.Window) {
	t.Helper()
	a := test.NewTempApp(t)
	win := a.NewWindow("test")
	win.Resize(fyne.NewSize(1280, 820))
	t.Cleanup(win.Close)
	return New(win, a.Preferences(), nil, nil), win
}

// walkOverlay visits every object of win's top overlay (a dialog), depth first.
func walkOverlay(win fyne.Window, visit func(fyne.CanvasObject)) {
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		visit(o)
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	if top := win.Canvas().Overlays().Top(); top != nil {
		walk(top)
	}
}

// chooserParts returns the open chooser's path field, its list's rows and its note.
func chooserParts(t *testing.T, win fyne.Window) (*PromptEntry, []string, string) {
	t.Helper()
	var path *PromptEntry
	var list *widget.List
	var note string
	walkOverlay(win, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *PromptEntry:
			path = x
		case *widgets.PassingList:
			list = &x.List
		case *widget.Label:
			if strings.Contains(x.Text, "holds") || strings.Contains(x.Text, "no such") || strings.Contains(x.Text, "is a file") {
				note = x.Text
			}
		}
	})
	if path == nil || list == nil {
		t.Fatal("no chooser open")
	}
	var rows []string
	for k := range list.Length() {
		o := list.CreateItem()
		list.UpdateItem(k, o)
		rows = append(rows, o.(*widget.Label).Text)
	}
	return path, rows, note
}

// A chooser starts in the folder last used for its purpose (each purpose its own), lists that
// folder's folders and only the files it is for, in full, narrows the list as a name is typed,
// and takes a typed path: Enter on a file picks it (remembered for next time), on a folder opens
// it. Before, the file dialogs had no path field, cut names and listed every file.
func TestChooserTypedPathAndFilter(t *testing.T) {
	d, win := testDialogs(t)
	dir, other := t.TempDir(), t.TempDir()
	for _, n := range []string{"train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte", "notes.txt", "x.idxlabel-journal"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	d.prefs.SetString(LastFolderKey(PurposeOpen), dir)
	d.prefs.SetString(LastFolderKey(PurposeImport), other)
	var picked string
	spec := Spec{Title: "Open", Confirm: "Open", Purpose: PurposeOpen, Filter: IsIDXName, Kind: "IDX files"}
	d.Choose(spec, func(p string) { picked = p })
	path, rows, _ := chooserParts(t, win)
	if path.Text != dir+string(filepath.Separator) || strings.Join(rows, ",") != "../,sub/,t10k-labels-idx1-ubyte,train-images-idx3-ubyte.gz" {
		t.Fatalf("path %q, rows %q", path.Text, rows)
	}
	test.Type(path, "tr")
	if _, rows, _ = chooserParts(t, win); strings.Join(rows, ",") != "../,train-images-idx3-ubyte.gz" {
		t.Fatalf("after typing tr: rows %q", rows)
	}
	path.SetText(filepath.Join(dir, "sub"))
	path.OnSubmitted(path.Text) // a folder: it opens
	if path.Text != filepath.Join(dir, "sub")+string(filepath.Separator) || picked != "" {
		t.Fatalf("Enter on a folder: path %q, picked %q", path.Text, picked)
	}
	path.SetText(filepath.Join(dir, "train-images-idx3-ubyte.gz"))
	path.OnSubmitted(path.Text)
	if picked != filepath.Join(dir, "train-images-idx3-ubyte.gz") || d.IsOpen("choose open") {
		t.Fatalf("Enter on a file picked %q", picked)
	}
	if got := d.prefs.String(LastFolderKey(PurposeOpen)); got != dir {
		t.Fatalf("remembered %q for open", got)
	}
	d.Choose(Spec{Title: "Import", Confirm: "Choose", Purpose: PurposeImport, Folder: true}, func(string) {})
	if path, _, _ := chooserParts(t, win); path.Text != other+string(filepath.Separator) {
		t.Fatalf("the import chooser starts at %q, want its own folder %q", path.Text, other)
	}
}

// A folder chooser refuses a file and a path that names nothing, saying why, and picks a
// folder.
func TestChooserFolder(t *testing.T) {
	d, win := testDialogs(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.png"), []byte("x"), 0o644)
	var picked string
	d.Choose(Spec{Title: "Import", Confirm: "Choose", Purpose: PurposeImport, Folder: true, Filter: IsIDXName, Kind: "image", Start: dir}, func(p string) { picked = p })
	path, _, _ := chooserParts(t, win)
	for _, bad := range []string{filepath.Join(dir, "f.png"), filepath.Join(dir, "nothing")} {
		path.SetText(bad)
		path.OnSubmitted(bad)
		if _, _, note := chooserParts(t, win); picked != "" || note == "" {
			t.Fatalf("%s: picked %q, note %q", bad, picked, note)
		}
	}
	path.SetText(dir)
	path.OnSubmitted(dir)
	if picked != dir {
		t.Fatalf("picked %q, want %q", picked, dir)
	}
}

// Preferences are untrusted: a remembered folder that is relative, gone, a file or holds a NUL
// is ignored, and the chooser starts in the dataset's folder, else the home folder.
func TestChooserRememberedFolderUntrusted(t *testing.T) {
	d, _ := testDialogs(t)
	start, file := t.TempDir(), filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	home, _ := os.UserHomeDir()
	for _, bad := range []string{"relative/dir", "/no/such/folder/anywhere", file, "/tmp\x00/x", ""} {
		d.prefs.SetString(LastFolderKey(PurposeSave), bad)
		if got := StartFolder(d.prefs, PurposeSave, "", start); got != start {
			t.Fatalf("remembered %q: starts at %q, want %q", bad, got, start)
		}
		if got := StartFolder(d.prefs, PurposeSave, "", ""); got != home {
			t.Fatalf("remembered %q, no dataset folder: starts at %q, want the home folder", bad, got)
		}
	}
}

// overlayList returns the list of the dialog on top of win (nil: none).
func overlayList(win fyne.Window) *widgets.PassingList {
	var list *widgets.PassingList
	walkOverlay(win, func(o fyne.CanvasObject) {
		if l, ok := o.(*widgets.PassingList); ok {
			list = l
		}
	})
	return list
}

// The chooser's list, focused (Tab), answers Escape as the chooser does (it cancels) and Enter
// as a person expects of a row: on a folder's it opens the folder (as Space), on a file's it
// picks the file (Space only puts it in the path field). Before, the widget.List dropped both.
func TestChooserListKeys(t *testing.T) {
	win, d := questionWindow(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "t10k-labels-idx1-ubyte"), []byte("x"), 0o644)
	spec := Spec{Title: "Open", Confirm: "Open", Purpose: PurposeOpen, Filter: IsIDXName, Kind: "IDX files", Start: dir}
	picked := ""
	d.Choose(spec, func(p string) { picked = p })
	list := overlayList(win)
	win.Canvas().Focus(list)
	typeKey(win, fyne.KeyEscape)
	if d.IsOpen("choose open") {
		t.Fatal("Escape on the chooser's focused list did not cancel it")
	}
	d.Choose(spec, func(p string) { picked = p })
	list = overlayList(win)
	win.Canvas().Focus(list)
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyReturn} { // rows: ../, sub/
		typeKey(win, k)
	}
	path, rows, _ := chooserParts(t, win)
	if want := filepath.Join(dir, "sub") + string(filepath.Separator); path.Text != want || picked != "" || strings.Join(rows, ",") != "../,t10k-labels-idx1-ubyte" {
		t.Fatalf("Enter on sub/: path %q (want %q), rows %q, picked %q", path.Text, want, rows, picked)
	}
	win.Canvas().Focus(list)
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyReturn} { // the file's row
		typeKey(win, k)
	}
	if want := filepath.Join(dir, "sub", "t10k-labels-idx1-ubyte"); picked != want || d.IsOpen("choose open") {
		t.Fatalf("Enter on the file's row picked %q (want %q), the chooser open %v", picked, want, d.IsOpen("choose open"))
	}
}

// The class picker's list, focused, cancels on Escape and picks the focused class on Enter (as
// on Space). Before, the widget.List dropped both.
func TestPickClassListKeys(t *testing.T) {
	win, d := questionWindow(t)
	names := classes.Names{List: []int{0, 1, 2}, Digits: true}
	picked := -1
	d.PickClass("Relabel", "", names, func(c int) { picked = c })
	win.Canvas().Focus(overlayList(win))
	typeKey(win, fyne.KeyEscape)
	if d.IsOpen("pick class") || picked != -1 {
		t.Fatalf("Escape on the class picker's focused list: open %v, picked %d", d.IsOpen("pick class"), picked)
	}
	d.PickClass("Relabel", "", names, func(c int) { picked = c })
	win.Canvas().Focus(overlayList(win))
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyDown, fyne.KeyReturn} {
		typeKey(win, k)
	}
	if d.IsOpen("pick class") || picked != 2 {
		t.Fatalf("Down Down Enter on the class picker's focused list: open %v, picked %d (want 2)", d.IsOpen("pick class"), picked)
	}
}

// The keys on the chooser's list act on the rows it shows after the path field changed them:
// walked down to d/, then a folder typed in the path field, Down Space on the list opens that
// folder's second row, whether it lists fewer rows than d/'s place or more. Before, the list's
// keyboard row stayed on the fifth row: beyond the last of two rows, Down and Space did nothing
// until Up had been pressed past it; among six, Down Space opened the sixth.
func TestChooserKeysAfterThePathChangedTheRows(t *testing.T) {
	win, d := questionWindow(t)
	dir := t.TempDir()
	for _, sub := range []string{"a", "b", "c", "d", "e/x", "f/v", "f/w", "f/x", "f/y", "f/z"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	d.Choose(Spec{Title: "Open", Confirm: "Open", Purpose: PurposeOpen, Filter: IsIDXName, Kind: "IDX files", Start: dir}, func(string) {})
	list := overlayList(win)
	sep := string(filepath.Separator)
	for _, c := range []struct{ typed, want string }{
		{"e", "x"}, // ../, x/
		{"f", "v"}, // ../, v/, w/, x/, y/, z/
	} {
		path, _, _ := chooserParts(t, win)
		path.SetText(dir + sep)
		win.Canvas().Focus(list)
		for range 4 {
			typeKey(win, fyne.KeyDown) // ../, a/, b/, c/, d/
		}
		win.Canvas().Focus(path)
		path.SetText(filepath.Join(dir, c.typed) + sep)
		win.Canvas().Focus(list)
		typeKey(win, fyne.KeyDown)
		typeKey(win, fyne.KeySpace)
		if path, rows, _ := chooserParts(t, win); path.Text != filepath.Join(dir, c.typed, c.want)+sep {
			t.Fatalf("Down Space on the list of %s/ (rows %q): path %q, want %s/%s/", c.typed, rows, path.Text, c.typed, c.want)
		}
	}
}

// The class picker's list, walked down, then narrowed by what is typed in its field, picks the
// first class left on Space. Before, its keyboard row stayed on the seventh row, beyond the
// last, and Space picked nothing.
func TestPickClassKeysAfterTheFilterNarrowed(t *testing.T) {
	win, d := questionWindow(t)
	names := classes.Names{List: []int{0, 1, 2, 3, 4, 5, 6, 7}, Digits: true}
	picked := -1
	d.PickClass("Relabel", "", names, func(c int) { picked = c })
	list := overlayList(win)
	win.Canvas().Focus(list)
	for range 6 {
		typeKey(win, fyne.KeyDown)
	}
	var entry *PromptEntry
	walkOverlay(win, func(o fyne.CanvasObject) {
		if e, ok := o.(*PromptEntry); ok {
			entry = e
		}
	})
	win.Canvas().Focus(entry)
	entry.SetText("3") // the list: 3 alone
	win.Canvas().Focus(list)
	typeKey(win, fyne.KeySpace)
	if picked != 3 || d.IsOpen("pick class") {
		t.Fatalf("Space on the class picker's list narrowed to 3: picked %d, open %v", picked, d.IsOpen("pick class"))
	}
}

// A folder opened by a key from the chooser's focused list keeps the keys on the list, on the
// opened folder's first row: Down Down Down Enter opens c/, then Down Enter opens c/x/ (its
// second row), Space there opens ../ (its first row) back into c/; Enter in the path field still
// opens the folder typed there and leaves the keys in the field. Before, every folder opened
// from the list gave the keys to the path field: a keyboard user needed Shift+Tab twice to
// reach the list again, and the keys typed meanwhile went to the field.
func TestChooserKeepsTheListFocusedInAFolder(t *testing.T) {
	win, d := questionWindow(t)
	dir := t.TempDir()
	for _, sub := range []string{"a", "b", "c/x"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "c", "t10k-labels-idx1-ubyte"), []byte("x"), 0o644)
	spec := Spec{Title: "Open", Confirm: "Open", Purpose: PurposeOpen, Filter: IsIDXName, Kind: "IDX files", Start: dir}
	d.Choose(spec, func(string) {})
	list := overlayList(win)
	win.Canvas().Focus(list)
	sep := string(filepath.Separator)
	for _, step := range []struct {
		keys []fyne.KeyName
		want string // the path field's text after the keys
	}{
		{[]fyne.KeyName{fyne.KeyDown, fyne.KeyDown, fyne.KeyDown, fyne.KeyReturn}, filepath.Join(dir, "c") + sep}, // ../, a/, b/, c/
		{[]fyne.KeyName{fyne.KeyDown, fyne.KeyReturn}, filepath.Join(dir, "c", "x") + sep},                        // ../, x/, the file
		{[]fyne.KeyName{fyne.KeySpace}, filepath.Join(dir, "c") + sep},                                            // ../
	} {
		for _, k := range step.keys {
			typeKey(win, k)
		}
		path, rows, _ := chooserParts(t, win)
		if path.Text != step.want || win.Canvas().Focused() != list {
			t.Fatalf("after %v: path %q (want %q), rows %q, the keys on %T (want the list)", step.keys, path.Text, step.want, rows, win.Canvas().Focused())
		}
	}
	path, _, _ := chooserParts(t, win)
	win.Canvas().Focus(path)
	path.SetText(filepath.Join(dir, "a"))
	typeKey(win, fyne.KeyReturn)
	if want := filepath.Join(dir, "a") + sep; path.Text != want || win.Canvas().Focused() != path {
		t.Fatalf("Enter in the path field on a folder: path %q (want %q), the keys on %T (want the path field)", path.Text, want, win.Canvas().Focused())
	}
}

// A file's name is untrusted: the chooser's list draws one holding a newline, an escape code
// and a byte that is not UTF-8 with them escaped, on its own row, and Enter on that row still
// picks the file by its real name. Before, the newline drew the rest of the name over the next
// row.
func TestChooserDrawsOddNamesEscaped(t *testing.T) {
	win, d := questionWindow(t)
	dir := t.TempDir()
	odd := "evil\n\x1b[2J\xff-labels-idx1-ubyte"
	if err := os.WriteFile(filepath.Join(dir, odd), []byte("x"), 0o644); err != nil {
		t.Fatalf("this file system takes no such name: %v", err)
	}
	var picked string
	d.Choose(Spec{Title: "Open", Confirm: "Open", Purpose: PurposeOpen, Filter: IsIDXName, Kind: "IDX files", Start: dir}, func(p string) { picked = p })
	_, rows, _ := chooserParts(t, win)
	if len(rows) != 2 || rows[1] != `evil\n\x1b[2J\xff-labels-idx1-ubyte` {
		t.Fatalf("the list draws %q, want the odd name escaped on one row", rows)
	}
	win.Canvas().Focus(overlayList(win))
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyReturn} { // rows: ../, the odd name
		typeKey(win, k)
	}
	if picked != filepath.Join(dir, odd) {
		t.Fatalf("Enter on the odd name's row picked %q, want %q", picked, filepath.Join(dir, odd))
	}
}
