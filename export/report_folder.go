package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// checkReportDir is WriteReportFolder's rule for what may be at dir (ReportAt). Errors: as ReportAt's.
func checkReportDir(dir string) error {
	_, err := ReportAt(dir)
	return err
}

// ReportAt tells what WriteReportFolder would find at dir: true when dir is an earlier report, which it
// would replace (a caller asks first); false when there is nothing to replace (no dir, or an empty
// folder). dir is cleaned first, as WriteReportFolder cleans it. It reads only dir's entries and its
// ReportMarker file (at most a few hundred bytes). Errors: ErrInTheWay (wrapped, naming dir and
// what is there) when WriteReportFolder would refuse dir, or a read error.
func ReportAt(dir string) (bool, error) {
	dir = filepath.Clean(dir)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := folderReplaceable(dir, fi); err != nil {
		return false, err
	}
	t, err := reportTree(dir, dir)
	if err != nil {
		return false, err
	}
	return len(t.samples) > 0, nil
}

// folderReplaceable refuses anything at dir but a folder (of FileInfo fi, from Lstat): the rule
// of the folder outputs, the report and the Parquet export.
func folderReplaceable(dir string, fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return inTheWay(dir, "a symbolic link")
	case !m.IsDir():
		return inTheWay(dir, "not a folder")
	}
	return nil
}

// listFolder returns the folder dir's FileInfo (Lstat) and entries: a folder output's first
// look at what is there. Errors: a read error, or ErrInTheWay (wrapped, naming name) when dir
// is not a folder.
func listFolder(dir, name string) (fs.FileInfo, []os.DirEntry, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		return nil, nil, inTheWay(name, "not a folder")
	}
	entries, err := os.ReadDir(dir)
	return fi, entries, err
}

// reportTree checks that dir is empty or an earlier report: a folder (not a link) holding the
// ReportMarker file with ReportMarkerText, index.html and .png files, all regular, nothing
// else; and returns what it holds (as a tree whose samples are its files, for tree.remove).
// Errors name what is in the way by its path under name (wrapping ErrInTheWay), or are a read
// error.
func reportTree(dir, name string) (*tree, error) {
	fi, entries, err := listFolder(dir, name)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 && !hasMarkerText(filepath.Join(dir, ReportMarker), ReportMarkerText) {
		return nil, inTheWay(name, fmt.Sprintf("a folder that is not an idxlabel report (it has no %s file; it holds %q)", ReportMarker, entries[0].Name()))
	}
	t := &tree{dir: dir, fi: fi}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || n != ReportMarker && n != "index.html" && !strings.HasSuffix(n, ".png") {
			return nil, inTheWay(name, "an earlier report with something added: "+filepath.Join(name, n))
		}
		t.samples = append(t.samples, n)
	}
	return t, nil
}
