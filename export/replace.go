package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
)

// Marker is the file a PNG export writes at the top of its tree (OUT/.idxlabel-export, holding
// MarkerText). A folder is replaced (Options.Force) only when it holds this marker and nothing
// but what an export writes. ImageFolder readers (torchvision, Keras, idxlabel import) read only
// the class folders, so the file does not disturb them.
const Marker = ".idxlabel-export"

// MarkerText is the content of Marker.
const MarkerText = "idxlabel export: an ImageFolder tree written by idxlabel; `idxlabel export --force` replaces this folder whole.\n"

// ErrInTheWay: OUT exists and is not what the format writes (a regular file for CSV and NPZ, an
// earlier PNG export for PNG), so it is not replaced, with or without Options.Force. The error wrapping it names OUT and what is in the way.
var ErrInTheWay = errors.New("refusing to replace it; remove it yourself or choose another output")

// CheckOut returns an error wrapping ErrInTheWay when something is at out that Write would
// refuse to replace even with Options.Force (checkOut's rule): a caller says so before it asks
// for --force. It reads out's metadata and, for a folder, its entries. Errors: ErrInTheWay
// (wrapped, naming out and what is there), Lstat's error.
func CheckOut(out string, f Format) error {
	return checkOut(filepath.Clean(out), f, true)
}

// checkOut is the rule for what Write may replace: nothing is at out; or, with force, a regular
// file for CSV and NPZ, a folder that is an earlier PNG export (exportTree) for PNG, an empty
// folder or an earlier Parquet export for Parquet (checkHubOut). Errors:
// ErrInTheWay (wrapped, naming out and what is there) for anything else, with or without force;
// ErrExists (wrapped) for a replaceable out without force; Lstat's error.
func checkOut(out string, f Format, force bool) error {
	if f == Parquet {
		return checkHubOut(out, force)
	}
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := replaceable(out, fi, f); err != nil {
		return err
	}
	if !force {
		return fmt.Errorf("%s: %w", out, ErrExists)
	}
	return nil
}

// replaceable returns nil when out (of FileInfo fi, from Lstat) may be replaced by format f
// (checkOut's rule), else an error wrapping ErrInTheWay that says what it is.
func replaceable(out string, fi fs.FileInfo, f Format) error {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return inTheWay(out, "a symbolic link")
	case f == CSV || f == KaggleCSV || f == NPZ:
		if m.IsRegular() {
			return nil
		}
		if m.IsDir() {
			return inTheWay(out, fmt.Sprintf("a folder, and a %s export is a file", f))
		}
	case m.IsRegular():
		return inTheWay(out, "a file, and a PNG export is a folder")
	case m.IsDir():
		_, err := exportTree(out, out)
		return err
	}
	return inTheWay(out, fmt.Sprintf("not a regular file or folder (mode %v)", m))
}

func inTheWay(out, what string) error {
	return fmt.Errorf("%s: %s; %w", out, what, ErrInTheWay)
}

// tree is an earlier PNG export as exportTree found it: the names of its files and folders,
// relative to its folder.
type tree struct {
	dir     string      // the export's folder
	fi      fs.FileInfo // the folder as exportTree found it (Lstat)
	samples []string    // regular files: "<class>/<index>.png" (a report's: its own files)
	classes []string    // "<class>", folders (not links)
}

// exportTree checks that dir is an earlier PNG export: a folder (not a link) that holds a Marker
// file with MarkerText and otherwise only folders (not links) holding only regular files named
// <digits>.png, and returns what it holds. Errors name the first thing in the way by its path
// under name (dir's name in messages), wrapping ErrInTheWay, or are a read error.
func exportTree(dir, name string) (*tree, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, inTheWay(name, "not a folder")
	}
	if !hasMarker(filepath.Join(dir, Marker)) {
		what := "a folder that is not an idxlabel PNG export (it has no " + Marker + " file"
		if first := firstEntry(dir); first != "" {
			what += fmt.Sprintf("; it holds %q", first)
		}
		return nil, inTheWay(name, what+")")
	}
	foreign := func(rel string) error {
		return inTheWay(name, "an earlier export with something added: "+filepath.Join(name, rel))
	}
	top, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	t := &tree{dir: dir, fi: fi}
	for _, e := range top {
		switch {
		case e.Name() == Marker:
		case e.Type() == fs.ModeDir:
			entries, err := os.ReadDir(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			for _, f := range entries {
				if !f.Type().IsRegular() || !isSampleName(f.Name()) {
					return nil, foreign(filepath.Join(e.Name(), f.Name()))
				}
				t.samples = append(t.samples, filepath.Join(e.Name(), f.Name()))
			}
			t.classes = append(t.classes, e.Name())
		default:
			return nil, foreign(e.Name())
		}
	}
	return t, nil
}

// remove removes what exportTree found in the export, and nothing else: the sample files, the
// class folders, then the Marker, then the folder itself, so that a removal cut off midway
// leaves the Marker on what remains and a later export still knows the rest as its own
// (recoverTrees). Every removal goes through an os.Root of the folder, checked to be the folder
// exportTree read, so a folder swapped for a link meanwhile never leads outside it; a file added
// meanwhile keeps its folder, and the removal stops there. Errors: the first removal that fails.
func (t *tree) remove() error {
	root, err := os.OpenRoot(t.dir)
	if err != nil {
		return err
	}
	if fi, err := root.Stat("."); err != nil || !os.SameFile(fi, t.fi) {
		root.Close()
		return inTheWay(t.dir, "no longer the folder that was checked")
	}
	for k, names := range [][]string{t.samples, t.classes, {Marker}} {
		for _, n := range names {
			if err := root.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
				root.Close()
				return err
			}
		}
		if k == 0 {
			step("emptied")
		}
	}
	root.Close()
	return os.Remove(t.dir)
}

// hasMarker reports whether path is a regular file holding exactly MarkerText (reading at most
// one byte more).
func hasMarker(path string) bool { return hasMarkerText(path, MarkerText) }

// hasMarkerText reports whether path is a regular file holding exactly text (reading at most one
// byte more).
func hasMarkerText(path, text string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(len(text))+1))
	return err == nil && bytes.Equal(b, []byte(text))
}

// firstEntry returns the name of one entry of dir ("" for none or an error), to say what a
// folder holds without listing it all.
func firstEntry(dir string) string {
	f, err := os.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// isSampleName reports whether name is a PNG export's sample file name: <digits>.png.
func isSampleName(name string) bool {
	digits, ok := strings.CutSuffix(name, ".png")
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// oldSuffix is appended to a new tree's temporary name to name the earlier export it replaces
// while the two are renamed: ".<name>.idxlabel-export-<digits>.old" (see place).
const oldSuffix = ".old"

// step, when set (by the tests), is called at each step of an export's replacing of its output
// ("built", "aside", "placed", "emptied"), so that a test can kill the process there.
var step = func(string) {}

// replace puts the new tree tmp in place of out. An existing out is checked again (it must still
// be an earlier export: exportTree), moved aside to tmp+oldSuffix, held there (atomicfile.Hold on
// its Marker, so recoverTrees in another export leaves it alone), checked once more under its new
// name (so nothing added meanwhile is removed; if it fails the move is undone), tmp renamed to
// out, and only then the earlier export removed (tree.remove). A kill between the renames is
// made good by the next export of out (recoverTrees). Errors: ErrInTheWay, the rename's error
// (out is as it was), or a removal's error (the new tree is in place; the error names the folder
// left aside).
func replace(tmp, out string) error {
	return replaceTree(tmp, out, Marker, func(fi fs.FileInfo) error { return replaceable(out, fi, PNG) }, exportTree)
}

// replaceTree is replace for any folder output: check refuses what may not be replaced at out
// (from its Lstat), find lists an earlier output (failing, wrapping ErrInTheWay, for anything
// else), and marker names its marker file, held while it sits aside.
func replaceTree(tmp, out, marker string, check func(fs.FileInfo) error, find func(dir, name string) (*tree, error)) error {
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
		step("placed")
		return nil
	}
	if err != nil {
		return err
	}
	if err := check(fi); err != nil {
		return err
	}
	old := tmp + oldSuffix
	if err := os.Rename(out, old); err != nil {
		return err
	}
	step("aside")
	if held, _ := atomicfile.Hold(filepath.Join(old, marker)); held != nil {
		defer held.Close()
	}
	t, err := find(old, out)
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Rename(old, out)
		return err
	}
	step("placed")
	if err := t.remove(); err != nil {
		return fmt.Errorf("%s written; what was there, moved aside to %s, is left: %w", out, old, err)
	}
	return nil
}
