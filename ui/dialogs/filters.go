package dialogs

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"fyne.io/fyne/v2"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// IsIDXName reports whether a file named name is listed as an IDX file: names with "idx" or
// "ubyte" in them (train-images-idx3-ubyte, t10k-labels.idx1-ubyte), ".idx", and gzip files; not
// idxlabel's own files beside them (pairfile.IsStateFile: journals, locks, save records, backups,
// temporaries) nor the change logs of saves (…-ubyte.gz.changes.csv), which are not IDX files.
func IsIDXName(name string) bool {
	name = strings.ToLower(name)
	if pairfile.IsStateFile(name) || strings.HasSuffix(name, store.ChangesSuffix) {
		return false
	}
	return strings.Contains(name, "idx") || strings.HasSuffix(name, ".gz") || strings.Contains(name, "ubyte")
}

// IsOtherFile reports whether a file named name is listed in a chooser of other files (a
// class-name file): every file but idxlabel's own (pairfile.IsStateFile).
func IsOtherFile(name string) bool { return !pairfile.IsStateFile(name) }

// notStateFiles shows every file but idxlabel's own (pairfile.IsStateFile), in choosers of other
// files (a class-name file).
type notStateFiles struct{}

func (notStateFiles) Matches(u fyne.URI) bool { return !pairfile.IsStateFile(u.Name()) }

// xdgFolders are the favourite folders Fyne's file dialog lists beside Home on Linux and the
// BSDs, each with the variable that names it for xdg-user-dir and the folder Fyne falls back to
// in the home folder. (Fyne asks xdg-user-dir for DESKTOP too, which answers ~/Desktop itself.)
var xdgFolders = []struct{ env, name string }{
	{"XDG_DOCUMENTS_DIR", "Documents"},
	{"XDG_DOWNLOADS_DIR", "Downloads"},
	{"XDG_MUSIC_DIR", "Music"},
	{"XDG_PICTURES_DIR", "Pictures"},
	{"XDG_VIDEOS_DIR", "Videos"},
}

// NameFavouriteFolders names, for xdg-user-dir, the favourite folders that neither the
// environment nor the user's user-dirs.dirs names (xdg-user-dir reads that file after the
// environment, so a folder the person configured still wins): each becomes the folder in the home
// folder that Fyne itself falls back to. xdg-user-dir answers the home folder itself for a
// folder nobody named, and for DOWNLOADS always (user-dirs.dirs names it XDG_DOWNLOAD_DIR);
// Fyne's file dialog took that answer for an error and logged "this computer does not define a
// VIDEOS folder" each time it opened. (One log line remains possible, from a slip in Fyne 2.7's
// loop over these folders, dialog/file.go getFavoriteLocations: a missing ~/Videos after folders
// that exist gives "uri is not listable".) Elsewhere than Linux and the BSDs it does nothing.
func NameFavouriteFolders() {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "android" || runtime.GOOS == "ios" {
		return
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return
	}
	for _, f := range xdgFolders {
		if _, set := os.LookupEnv(f.env); !set {
			os.Setenv(f.env, filepath.Join(home, f.name))
		}
	}
}
