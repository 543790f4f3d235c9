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

// checkOut is the rule for what Write may replace: nothing is at out; or, with force, a regular
// file for CSV and NPZ, a folder that is an earlier PNG export (exportTree) for PNG. Errors:
// ErrInTheWay (wrapped, naming out and what is there) for anything else, with or without force;
// ErrExists (wrapped) for a replaceable out without force; Lstat's error.
func checkOut(out string, f Format, force bool) error {
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
	case f == CSV || f == NPZ:
		if m.IsRegular() {
			return nil
		}
		if m.IsDir() {
			return inTheWay(out, fmt.Sprintf("a folder, and a %s export is a file", f))
		}
	case m.IsRegular():
		return inTheWay(out, "a file, and a PNG export is a folder")
	case m.IsDir():
		_, _, err := exportTree(out, out)
		return err
	}
	return inTheWay(out, fmt.Sprintf("not a regular file or folder (mode %v)", m))
}

func inTheWay(out, what string) error {
	return fmt.Errorf("%s: %s; %w", out, what, ErrInTheWay)
}

// exportTree checks that dir is an earlier PNG export: it holds a Marker file with MarkerText
// and otherwise only folders (not links) holding only regular files named <digits>.png. It
// returns those files and folders (the folders deepest first, dir last) to remove. Errors name
// the first thing in the way by its path under name (dir's name in messages), wrapping
// ErrInTheWay, or are a read error.
func exportTree(dir, name string) (files, dirs []string, err error) {
	if !hasMarker(filepath.Join(dir, Marker)) {
		what := "a folder that is not an idxlabel PNG export (it has no " + Marker + " file"
		if first := firstEntry(dir); first != "" {
			what += fmt.Sprintf("; it holds %q", first)
		}
		return nil, nil, inTheWay(name, what+")")
	}
	foreign := func(rel string) error {
		return inTheWay(name, "an earlier export with something added: "+filepath.Join(name, rel))
	}
	top, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range top {
		switch {
		case e.Name() == Marker:
			files = append(files, filepath.Join(dir, e.Name()))
		case e.Type() == fs.ModeDir:
			sub := filepath.Join(dir, e.Name())
			entries, err := os.ReadDir(sub)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range entries {
				if !f.Type().IsRegular() || !isSampleName(f.Name()) {
					return nil, nil, foreign(filepath.Join(e.Name(), f.Name()))
				}
				files = append(files, filepath.Join(sub, f.Name()))
			}
			dirs = append(dirs, sub)
		default:
			return nil, nil, foreign(e.Name())
		}
	}
	return files, append(dirs, dir), nil
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

// replace puts the new tree tmp in place of out (replaceTree with the PNG export's rule).
func replace(tmp, out string) error {
	return replaceTree(tmp, out, func(fi fs.FileInfo) error { return replaceable(out, fi, PNG) }, exportTree)
}

// replaceTree puts the new folder tmp in place of out. An existing out is checked (check, on its
// Lstat, then tree: it must be what may be replaced), moved aside, checked again by tree under
// its new name (so nothing added meanwhile is removed; if it fails the move is undone), tmp
// renamed to out, and only then the files and folders tree listed removed, one by one. Errors:
// check's and tree's (ErrInTheWay), the rename's error (out is as it was), or a removal's error
// (the new folder is in place; the error names the folder left aside).
func replaceTree(tmp, out string, check func(fs.FileInfo) error, tree func(dir, name string) (files, dirs []string, err error)) error {
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, out)
	}
	if err != nil {
		return err
	}
	if err := check(fi); err != nil {
		return err
	}
	old := tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return err
	}
	files, dirs, err := tree(old, out)
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Rename(old, out)
		return err
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("%s written; what was there, moved aside to %s, is left: %w", out, old, err)
		}
	}
	for _, d := range dirs {
		if err := os.Remove(d); err != nil {
			return fmt.Errorf("%s written; what was there, moved aside to %s, is left: %w", out, old, err)
		}
	}
	return nil
}
