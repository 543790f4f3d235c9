package dialogs

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2/storage"
)

// The open dialog lists IDX files, and none of idxlabel's own files beside them: journals, pair
// locks, save records, backups, temporaries, set-aside journals, change logs.
func TestOpenDialogHidesStateFiles(t *testing.T) {
	shown := []string{"train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte", "x.idx", "data.gz"}
	hidden := []string{
		"t10k-labels-idx1-ubyte.gz.idxlabel-lock", "t10k-labels-idx1-ubyte.gz.idxlabel-journal",
		"t10k-labels-idx1-ubyte.gz.idxlabel-journal.discarded", "t10k-labels-idx1-ubyte.gz.idxlabel-saving",
		".t10k-labels-idx1-ubyte.gz.idxlabel-backup", ".t10k-images-idx3-ubyte.gz.idxlabel-tmp-123456",
		"t10k-labels-idx1-ubyte.gz.changes.csv", "notes.txt",
	}
	idx := nameFilter(IsIDXName) // what the chooser's Browse… lists
	for _, name := range shown {
		if !IsIDXName(name) || !idx.Matches(storage.NewFileURI("/d/"+name)) {
			t.Errorf("%s is not listed", name)
		}
	}
	for _, name := range hidden {
		if IsIDXName(name) || idx.Matches(storage.NewFileURI("/d/"+name)) {
			t.Errorf("%s is listed", name)
		}
	}
	for _, name := range hidden[:6] {
		if (notStateFiles{}).Matches(storage.NewFileURI("/d/" + name)) {
			t.Errorf("the class-file chooser lists %s", name)
		}
	}
	if !(notStateFiles{}).Matches(storage.NewFileURI("/d/emnist-balanced-mapping.txt")) {
		t.Error("the class-file chooser hides a class-name file")
	}
}

// Fyne's file dialog (a chooser's Browse…) logs nothing on stderr when the user's XDG folders
// (Documents, Downloads, Music, Pictures, Videos) are not configured, whether the folders exist
// or not, once NameFavouriteFolders has named them (the window does it as it starts). Before,
// every file dialog logged "Fyne error: Getting favorite locations … this computer does not
// define a VIDEOS folder": Fyne asks xdg-user-dir, which answers the home folder for a folder not
// configured (and for DOWNLOADS, a name user-dirs.dirs never uses).
func TestFileDialogLogsNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Fyne asks xdg-user-dir for its favourite folders on Linux and the BSDs only")
	}
	for _, folders := range []bool{false, true} {
		home := t.TempDir()
		if folders {
			for _, f := range []string{"Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos"} {
				os.Mkdir(filepath.Join(home, f), 0o755)
			}
		}
		t.Setenv("HOME", home)
		for _, v := range xdgFolders {
			t.Setenv(v.env, "")
			os.Unsetenv(v.env)
		}
		var logged bytes.Buffer
		log.SetOutput(&logged)
		NameFavouriteFolders()
		d, win := testDialogs(t)
		(&chooser{win: win, d: d, prefs: d.prefs}).browse(Spec{Title: "Open", Purpose: PurposeOpen, Filter: IsIDXName}, home, func(string) {})
		log.SetOutput(os.Stderr)
		if win.Canvas().Overlays().Top() == nil {
			t.Fatal("no file dialog")
		}
		if strings.Contains(logged.String(), "Fyne error") {
			t.Fatalf("folders in the home folder %v: the file dialog logged %q", folders, logged.String())
		}
		win.Canvas().Overlays().Top().Hide()
	}
}
