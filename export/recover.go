package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"idxlabel/internal/atomicfile"
)

// hidden is a pair of folders one PNG export of out leaves beside it while it runs: its new tree
// (".<name>.idxlabel-export-<digits>") and the earlier export it set aside (the same + oldSuffix);
// "" for one that is not there.
type hidden struct{ tree, old string }

// recoverTrees makes good, before a new export of out, what earlier exports of out that were
// killed midway left beside it:
//   - a new tree and the earlier export set aside for it, with nothing at out: the export was
//     killed between its renames, after its tree was complete (it sets the earlier export aside
//     only then), so it is finished: the tree is put in place and the earlier export removed;
//   - an earlier export set aside, with nothing at out and no new tree that is an export: it is
//     put back (the export is rolled back);
//   - any other of these folders (the partial tree of an export killed while writing it, an
//     earlier export whose removal was cut off) is removed once abandoned: nothing in it (its
//     folder and class folders) changed for atomicfile.StaleAge.
//
// Only folders named that way are touched, never links, and only when they hold an export's
// files and nothing else (exportTree; a tree is also removed when it holds nothing at all) and
// no export that still runs holds them (atomicfile.Held on their Marker, where the system has
// flock). It returns a notice for the person per folder it finished, put back or removed. It is
// best effort: what it cannot read, check, rename or remove it leaves as it is. Time: one listing
// of out's folder, and a walk of each folder by those names.
func recoverTrees(out string) (notices []string) {
	dir, pattern := place(out)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	found := map[string]*hidden{}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), pattern)
		digits, isOld := strings.CutSuffix(rest, oldSuffix)
		if !ok || !allDigits(digits) || e.Type() != fs.ModeDir {
			continue
		}
		h := found[digits]
		if h == nil {
			h = &hidden{}
			found[digits] = h
		}
		if isOld {
			h.old = filepath.Join(dir, e.Name())
		} else {
			h.tree = filepath.Join(dir, e.Name())
		}
	}
	for _, digits := range slices.Sorted(func(yield func(string) bool) {
		for k := range found {
			if !yield(k) {
				return
			}
		}
	}) {
		h := found[digits]
		if held(h.tree) || held(h.old) {
			continue // an export that runs now
		}
		justReplaced := false
		if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) && h.old != "" && isExport(h.old) {
			if h.tree != "" && isExport(h.tree) {
				if os.Rename(h.tree, out) == nil {
					notices = append(notices, fmt.Sprintf("%s: an export killed between its renames was finished (its tree put in place)", out))
					h.tree, justReplaced = "", true
				}
			} else if os.Rename(h.old, out) == nil {
				notices = append(notices, fmt.Sprintf("%s: an export killed between its renames was rolled back (the earlier export put back)", out))
				h.old = ""
			}
		}
		for _, p := range []string{h.tree, h.old} {
			if p == "" || !(justReplaced && p == h.old) && !abandoned(p) {
				continue
			}
			if removeOwn(p) == nil {
				notices = append(notices, fmt.Sprintf("removed %s, left by an export of %s that was killed", p, filepath.Base(out)))
			}
		}
	}
	return notices
}

// allDigits reports whether s is one or more decimal digits (os.MkdirTemp's random part).
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// held reports whether an export that still runs holds the folder dir ("" holds nothing): a
// flock on its Marker (atomicfile.Held).
func held(dir string) bool { return dir != "" && atomicfile.Held(filepath.Join(dir, Marker)) }

// isExport reports whether dir is a complete-looking export (exportTree accepts it).
func isExport(dir string) bool {
	_, err := exportTree(dir, dir)
	return err == nil
}

// abandoned reports whether nothing in the folder dir changed for atomicfile.StaleAge: neither
// the folder nor any folder in it (an export writing its tree changes a class folder with every
// file it adds, and one removing a tree with every file it removes).
func abandoned(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil {
		return false
	}
	newest := fi.ModTime()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() {
			if sub, err := e.Info(); err == nil && sub.ModTime().After(newest) {
				newest = sub.ModTime()
			}
		}
	}
	return time.Since(newest) > atomicfile.StaleAge
}

// removeOwn removes the folder dir when it is an export's (exportTree: a partial tree, written
// Marker first, or an earlier export whose removal was cut off, which keeps its Marker to the
// end) or an empty folder (an export killed before it wrote its Marker). Errors: the folder is
// neither (ErrInTheWay, or os.Remove's error for a folder that is not empty), or a removal's
// error.
func removeOwn(dir string) error {
	t, err := exportTree(dir, dir)
	if err == nil {
		return t.remove()
	}
	if fi, lerr := os.Lstat(dir); lerr != nil || !fi.IsDir() {
		return err
	}
	return os.Remove(dir) // removes only an empty folder
}
