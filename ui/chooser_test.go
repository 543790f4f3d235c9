package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// chooserParts returns the open chooser's path field, its list's rows and its note.
func chooserParts(t *testing.T, w *window) (*promptEntry, []string, string) {
	t.Helper()
	var path *promptEntry
	var list *widget.List
	var note string
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *promptEntry:
			path = x
		case *widget.List:
			list = x
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
	w, _ := demoWindow(t, false)
	dir, other := t.TempDir(), t.TempDir()
	for _, n := range []string{"train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte", "notes.txt", "x.idxlabel-journal"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	w.d.prefs.SetString(lastFolderKey(purposeOpen), dir)
	w.d.prefs.SetString(lastFolderKey(purposeImport), other)
	var picked string
	spec := chooseSpec{title: "Open", confirm: "Open", purpose: purposeOpen, filter: isIDXName, kind: "IDX files"}
	w.d.choose(spec, func(p string) { picked = p })
	path, rows, _ := chooserParts(t, w)
	if path.Text != dir+string(filepath.Separator) || strings.Join(rows, ",") != "../,sub/,t10k-labels-idx1-ubyte,train-images-idx3-ubyte.gz" {
		t.Fatalf("path %q, rows %q", path.Text, rows)
	}
	test.Type(path, "tr")
	if _, rows, _ = chooserParts(t, w); strings.Join(rows, ",") != "../,train-images-idx3-ubyte.gz" {
		t.Fatalf("after typing tr: rows %q", rows)
	}
	path.SetText(filepath.Join(dir, "sub"))
	path.OnSubmitted(path.Text) // a folder: it opens
	if path.Text != filepath.Join(dir, "sub")+string(filepath.Separator) || picked != "" {
		t.Fatalf("Enter on a folder: path %q, picked %q", path.Text, picked)
	}
	path.SetText(filepath.Join(dir, "train-images-idx3-ubyte.gz"))
	path.OnSubmitted(path.Text)
	if picked != filepath.Join(dir, "train-images-idx3-ubyte.gz") || w.d.isOpen("choose open") {
		t.Fatalf("Enter on a file picked %q", picked)
	}
	if got := w.d.prefs.String(lastFolderKey(purposeOpen)); got != dir {
		t.Fatalf("remembered %q for open", got)
	}
	w.d.choose(chooseSpec{title: "Import", confirm: "Choose", purpose: purposeImport, folder: true}, func(string) {})
	if path, _, _ := chooserParts(t, w); path.Text != other+string(filepath.Separator) {
		t.Fatalf("the import chooser starts at %q, want its own folder %q", path.Text, other)
	}
}

// A folder chooser refuses a file and a path that names nothing, saying why, and picks a
// folder.
func TestChooserFolder(t *testing.T) {
	w, _ := demoWindow(t, false)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.png"), []byte("x"), 0o644)
	var picked string
	w.d.choose(chooseSpec{title: "Import", confirm: "Choose", purpose: purposeImport, folder: true, filter: isIDXName, kind: "image", start: dir}, func(p string) { picked = p })
	path, _, _ := chooserParts(t, w)
	for _, bad := range []string{filepath.Join(dir, "f.png"), filepath.Join(dir, "nothing")} {
		path.SetText(bad)
		path.OnSubmitted(bad)
		if _, _, note := chooserParts(t, w); picked != "" || note == "" {
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
	w, _ := demoWindow(t, false)
	start, file := t.TempDir(), filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	home, _ := os.UserHomeDir()
	for _, bad := range []string{"relative/dir", "/no/such/folder/anywhere", file, "/tmp\x00/x", ""} {
		w.d.prefs.SetString(lastFolderKey(purposeSave), bad)
		if got := startFolder(w.d.prefs, purposeSave, "", start); got != start {
			t.Fatalf("remembered %q: starts at %q, want %q", bad, got, start)
		}
		if got := startFolder(w.d.prefs, purposeSave, "", ""); got != home {
			t.Fatalf("remembered %q, no dataset folder: starts at %q, want the home folder", bad, got)
		}
	}
}
