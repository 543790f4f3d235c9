package dialogs

import (
	"fmt"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/ui/widgets"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// Purpose is what a chooser picks a path for; each remembers the last folder it was used in.
type Purpose string

const (
	PurposeOpen   Purpose = "open"   // File → Open, Append Dataset, the other set of a check, a class-name file
	PurposeSave   Purpose = "save"   // the folder of Save As and Save Shown As
	PurposeImport Purpose = "import" // the folder of File → Import Images
	PurposeExport Purpose = "export" // where File → Export writes
)

// LastFolderKey is the Preferences key of the last folder a chooser for p was used in.
func LastFolderKey(p Purpose) string { return "lastFolder." + string(p) }

// chooser picks a file or a folder by a typed path (the path field starts in the folder last
// used for the same Purpose), by a list of what that folder holds (full names, folders first,
// only the files the chooser is for unless asked for all), or by Fyne's file dialog (Browse…,
// with the same filter, names in a list). Fyne 2.7 offers no native dialog outside a Flatpak
// build (dialog/file_xdg_flatpak.go), so this is the typed path the native dialogs have.
type chooser struct {
	win   fyne.Window
	d     *Dialogs
	prefs fyne.Preferences
}

// Spec says what a chooser picks.
type Spec struct {
	Title   string
	Confirm string // the confirm button's text ("Open", "Import", "Choose")
	Purpose Purpose
	Folder  bool // a folder is picked; otherwise a file
	// Filter says which files are listed (nil: every file but idxlabel's own); Kind names them
	// for the check that lists every file ("IDX files").
	Filter func(name string) bool
	Kind   string
	// Typed is a folder to start in before any other (a folder field's text); Start the folder
	// to start in when none was remembered for the purpose or it is gone (the open dataset's
	// folder); "" for none: then the home folder.
	Typed, Start string
}

// maxListed bounds the entries the chooser lists of one folder (one widget row each is laid
// out only in sight, but the names are held and sorted); a folder holding more says so.
const maxListed = 20000

// startFolder is where a chooser for spec starts: spec.Typed, else the folder remembered for
// its Purpose, else spec.Start, the first that is an absolute path of a folder that exists now
// (Preferences are a file a person or a program may have edited: a value that is no such
// folder is ignored), else the home folder.
func (ch *chooser) startFolder(spec Spec) string {
	return StartFolder(ch.prefs, spec.Purpose, spec.Typed, spec.Start)
}

// StartFolder is the first of first, the folder remembered for p in prefs, and then, that is
// an absolute path of a folder that exists now, else the home folder.
func StartFolder(prefs fyne.Preferences, p Purpose, first, then string) string {
	for _, dir := range []string{first, prefs.String(LastFolderKey(p)), then} {
		if isFolder(dir) {
			return filepath.Clean(dir)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return string(filepath.Separator)
}

// isFolder reports whether dir is an absolute path of a folder that exists.
func isFolder(dir string) bool {
	if dir == "" || !filepath.IsAbs(dir) || strings.ContainsRune(dir, 0) {
		return false
	}
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// remember keeps dir as the last folder used for p.
func (ch *chooser) remember(p Purpose, dir string) { RememberFolder(ch.prefs, p, dir) }

// RememberFolder keeps dir in prefs as the last folder used for p (when it is absolute).
func RememberFolder(prefs fyne.Preferences, p Purpose, dir string) {
	if filepath.IsAbs(dir) {
		prefs.SetString(LastFolderKey(p), filepath.Clean(dir))
	}
}

// listing is one folder's entries as the chooser lists them.
type listing struct {
	dir     string
	folders []string // names of the folders in it (links to folders included)
	files   []string // names of the files in it
	more    int      // entries left out past maxListed
	err     error
}

// readListing lists dir's entries (hidden ones, whose name starts with ".", left out).
func readListing(dir string) listing {
	l := listing{dir: dir}
	f, err := os.Open(dir)
	if err != nil {
		l.err = err
		return l
	}
	defer f.Close()
	entries, err := f.ReadDir(maxListed + 1)
	if err != nil && len(entries) == 0 {
		l.err = err
		return l
	}
	if len(entries) > maxListed {
		entries = entries[:maxListed]
		l.more = 1 // at least one more; the count is not read
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = fi.IsDir()
			}
		}
		if isDir {
			l.folders = append(l.folders, name)
		} else {
			l.files = append(l.files, name)
		}
	}
	less := func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }
	slices.SortFunc(l.folders, less)
	slices.SortFunc(l.files, less)
	return l
}

// choose opens the chooser for spec; picked gets the path chosen, absolute and clean.
func (ch *chooser) choose(spec Spec, picked func(path string)) {
	var d *dialog.CustomDialog
	path := NewPromptEntry(func() { d.Hide() })
	note := widget.NewLabel("")
	note.Wrapping = fyne.TextWrapWord
	all := widgets.NewPassingCheck("Show every file", nil)
	var cur listing
	var rows []string // what the list shows: "../", "folder/", "file"
	// Escape on the focused list cancels; Space or Enter on a folder opens it (the list keeps
	// the focus, on its first row), Enter on a file picks it (OnEntered below), Space only puts
	// it in the path field.
	list := widgets.NewPassingList(func() int { return len(rows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		// A row is drawn with its control characters and non-UTF-8 bytes escaped (a name with a
		// newline would draw over the next row); rows keeps the names as they are, to open.
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(clip.Printable(rows[id])) })
	// dirOf is the folder the path field names (up to its last separator) and what follows it.
	dirOf := func(text string) (string, string) {
		text = expandHome(text)
		if text == "" || !filepath.IsAbs(text) {
			text = filepath.Join(cur.dir, text)
			if cur.dir == "" {
				text = filepath.Join(ch.startFolder(spec), text)
			}
		}
		if strings.HasSuffix(text, string(filepath.Separator)) || strings.HasSuffix(text, "/") {
			return filepath.Clean(text), ""
		}
		return filepath.Dir(text), filepath.Base(text)
	}
	show := func() {
		dir, prefix := dirOf(path.Text)
		if dir != cur.dir || cur.err != nil {
			cur = readListing(dir)
		}
		prefix = strings.ToLower(prefix)
		rows = rows[:0]
		if filepath.Dir(dir) != dir {
			rows = append(rows, ".."+string(filepath.Separator))
		}
		for _, f := range cur.folders {
			if strings.HasPrefix(strings.ToLower(f), prefix) {
				rows = append(rows, f+string(filepath.Separator))
			}
		}
		if !spec.Folder {
			for _, f := range cur.files {
				if strings.HasPrefix(strings.ToLower(f), prefix) && (all.Checked || spec.Filter == nil || spec.Filter(f)) {
					rows = append(rows, f)
				}
			}
		}
		switch {
		case cur.err != nil:
			note.SetText(clip.Printable(fmt.Sprintf("%s cannot be listed: %v", dir, cur.err)))
		case cur.more > 0:
			note.SetText(numfmt.Sprintf("%s holds more than %d entries: the first are listed; type the name.", clip.Printable(dir), maxListed))
		case spec.Folder && spec.Filter != nil:
			n := 0
			for _, f := range cur.files {
				if spec.Filter(f) {
					n++
				}
			}
			note.SetText(fmt.Sprintf("%s holds %s and %s.", clip.Printable(dir), numfmt.Plural(len(cur.folders), "folder"), numfmt.Plural(n, spec.Kind)))
		default:
			note.SetText("")
		}
		list.UnselectAll()
		list.FocusFirst() // the keys act on these rows from the first, not from a row of the last ones
	}
	setPath := func(p string) {
		path.SetText(p)
		path.CursorColumn = len([]rune(p))
		path.Refresh()
	}
	done := func(p string) {
		d.Hide()
		dir := p
		if !spec.Folder {
			dir = filepath.Dir(p)
		}
		ch.remember(spec.Purpose, dir)
		picked(p)
	}
	// accept picks what the path field names, or opens the folder it names when a file is
	// wanted; it says on the note why not.
	accept := func() {
		dir, base := dirOf(path.Text)
		p := filepath.Join(dir, base)
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			note.SetText(fmt.Sprintf("%s: no such file or folder", p))
		case spec.Folder && fi.IsDir():
			done(p)
		case spec.Folder:
			note.SetText(fmt.Sprintf("%s is a file: choose a folder", p))
		case fi.IsDir():
			setPath(p + string(filepath.Separator))
		default:
			done(p)
		}
	}
	// A folder opened by a key (Space or Enter on the focused list) keeps the keys on the list,
	// on the opened folder's first row, so a keyboard user walks down the folders without
	// going back to the list (Shift+Tab twice from the path field); a click, or a file's row,
	// gives them to the path field, where typing narrows the list and Enter opens.
	list.OnSelected = func(id widget.ListItemID) {
		if id >= len(rows) {
			return
		}
		dir, _ := dirOf(path.Text)
		r := rows[id]
		folder := strings.HasSuffix(r, string(filepath.Separator))
		switch {
		case r == ".."+string(filepath.Separator):
			setPath(filepath.Dir(dir) + string(filepath.Separator))
		case folder:
			setPath(filepath.Join(dir, r) + string(filepath.Separator))
		default:
			setPath(filepath.Join(dir, r))
		}
		if folder && list.ByKey() {
			list.FocusFirst() // show did, for the folder's rows, unless the path was that already
			return
		}
		ch.win.Canvas().Focus(path)
	}
	list.OnEntered = func() {
		if t := path.Text; t != "" && !strings.HasSuffix(t, string(filepath.Separator)) && !strings.HasSuffix(t, "/") {
			accept() // the row named a file: Enter opens it, as Enter in the path field does
		}
	}
	path.OnChanged = func(string) { show() }
	path.OnSubmitted = func(string) { accept() }
	all.OnChanged = func(bool) { show() }
	browse := widgets.NewPassingButton("Browse…", func() {
		dir, _ := dirOf(path.Text)
		ch.browse(spec, dir, done)
	})
	var bottom fyne.CanvasObject = note
	if !spec.Folder && spec.Filter != nil {
		all.Text = fmt.Sprintf("Show every file (not only %s)", spec.Kind)
		bottom = container.NewVBox(all, note)
	}
	top := container.NewBorder(nil, nil, widget.NewLabel("Path"), browse, path)
	size := ch.win.Canvas().Size()
	content := widgets.NewFixedBorder(top, container.NewBorder(nil, bottom, nil, nil, list), fyne.NewSize(min(size.Width-80, 900), min(size.Height-200, 460)))
	// The confirm button must not close the dialog when the path names nothing: it runs accept
	// instead, which closes it when it picks.
	d = NewMessage(spec.Title, "Cancel", content, ch.win)
	confirm := widgets.NewPassingButton(spec.Confirm, accept)
	confirm.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{widgets.NewPassingButton("Cancel", d.Hide), confirm})
	setPath(ch.startFolder(spec) + string(filepath.Separator))
	show()
	ch.d.Show("choose "+string(spec.Purpose), d, d.Hide, accept, nil)
	ch.win.Canvas().Focus(path)
}

// expandHome replaces a leading "~" by the home folder.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

// browse opens Fyne's file (or folder) dialog in dir, listing names in full (its list view)
// with spec's filter, and hands the path picked to picked.
func (ch *chooser) browse(spec Spec, dir string, picked func(string)) {
	var fd *dialog.FileDialog
	if spec.Folder {
		fd = dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err != nil {
				ch.d.ShowError(err)
			} else if u != nil {
				picked(u.Path())
			}
		}, ch.win)
	} else {
		fd = dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil {
				ch.d.ShowError(err)
				return
			}
			if r != nil {
				p := r.URI().Path()
				r.Close()
				picked(p)
			}
		}, ch.win)
		filter := spec.Filter
		if filter == nil {
			filter = func(string) bool { return true }
		}
		fd.SetFilter(nameFilter(filter))
	}
	fd.SetView(dialog.ListView) // the grid view cuts long names ("t10k-ima ges-idx…")
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		fd.SetLocation(l)
	}
	fd.Resize(ch.win.Canvas().Size().SubtractWidthHeight(40, 40))
	fd.Show()
}

// nameFilter is a Fyne file filter by file name that never lists idxlabel's own files.
type nameFilter func(name string) bool

func (f nameFilter) Matches(u fyne.URI) bool { return notStateFiles{}.Matches(u) && f(u.Name()) }

// FolderButton is the "Choose…" beside a folder field: a folder chooser for p that starts at
// the folder typed (when it is absolute and exists, else at the one last used for p) and puts
// the folder chosen into the field.
func FolderButton(folder *PromptEntry, d *Dialogs, p Purpose) *widgets.PassingButton {
	return widgets.NewPassingButton("Choose…", func() {
		d.Choose(Spec{Title: "Folder", Confirm: "Choose", Purpose: p, Folder: true, Typed: filepath.Clean(folder.Text)},
			func(path string) { folder.SetText(path) })
	})
}
