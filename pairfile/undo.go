package pairfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// AfterUndo, when set, runs at the moments of undoing a paired write whose rename failed
// (undoCommit): "undo" once the record says, synced, that the save is being undone; "rows" once
// its change-log rows are removed; "restored" after each file put back as it was (or removed,
// when the save had created it); "temporaries" once its temporary files and backups are
// removed, before the record is. The crash tests of this package stop there. Programs leave it
// nil.
var AfterUndo func(moment string)

func afterUndo(moment string) {
	if AfterUndo != nil {
		AfterUndo(moment)
	}
}

// placedID is what a temporary file looked like just before it was put in place (its size and
// modification time, which a rename keeps), so that an undo knows the target is still that file.
type placedID struct{ size, modTime int64 }

// idOf returns the placedID of the file at path (not followed); ok is false when it cannot be
// read.
func idOf(path string) (id placedID, ok bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return placedID{}, false
	}
	return placedID{fi.Size(), fi.ModTime().UnixNano()}, true
}

// placedStill reports whether f's target is still the file the save put there (f.Placed): a
// regular file of the size and modification time it had.
func placedStill(f manifestFile) bool {
	id, ok := idOf(f.Target)
	return ok && id == placedID{f.Size, f.ModTime}
}

// undoCommit undoes a paired write whose rename number k failed (pending[:k] were put in place,
// ids their placedIDs), in an order a kill cannot turn into a mixed pair: the record at
// manifestPath is rewritten, synced, to say the save is being undone and which files it had put
// in place (an undo record: FinishInterrupted then finishes the undo, never the save); the rows
// file beside it goes next, before anything is restored, so that rows of a save that did not
// happen are never appended; then each file put in place gets its old content back (undoFile);
// then the temporary files and backups go, and the record last. The journals are kept: their
// edits are offered again. It returns what could not be put back ("" when everything was).
func undoCommit(pending []*idx.Pending, m *manifest, manifestPath string, k int, ids []placedID) string {
	m.Undo = true
	for i := range m.Files[:k] {
		m.Files[i].Placed, m.Files[i].Size, m.Files[i].ModTime = true, ids[i].size, ids[i].modTime
	}
	// When the undo record cannot be written the undo goes on in the same order: the record
	// there then says to finish the save, which a kill from now on would do.
	if err := writeManifest(manifestPath, m); err == nil {
		afterUndo("undo")
	}
	var notes []string
	if err := removeRows(rowsPath(manifestPath)); err != nil {
		notes = append(notes, err.Error())
	}
	atomicfile.SyncDir(filepath.Dir(manifestPath))
	afterUndo("rows")
	for _, f := range m.Files[:k] {
		if note := undoFile(f); note != "" {
			notes = append(notes, note)
		}
		afterUndo("restored")
	}
	for _, p := range pending {
		p.Abort()
	}
	removeBackups(m)
	afterUndo("temporaries")
	os.Remove(manifestPath)
	atomicfile.SyncDir(filepath.Dir(manifestPath))
	return strings.Join(notes, "; ")
}

// undoFile gives the target of f, which the save had put in place (f.Placed), its old content
// back, only while it is still the file the save put there (placedStill): its backup is renamed
// over it, or, when the save had created it (no backup), it is removed. A target already put
// back (its backup gone, the target not the save's) or removed is left as it is, and so is one
// another program wrote since; with no target, the backup is put back without replacing
// anything (atomicfile.RenameNew). It returns what could not be done ("" when all was).
func undoFile(f manifestFile) string {
	if !f.Placed {
		return ""
	}
	ours := placedStill(f)
	_, terr := os.Lstat(f.Target)
	if f.Backup == "" {
		switch {
		case ours:
			if err := os.Remove(f.Target); err != nil {
				return fmt.Sprintf("%s, which the save created, could not be removed: %v", f.Target, err)
			}
			atomicfile.SyncDir(filepath.Dir(f.Target))
		case terr == nil:
			return fmt.Sprintf("%s, which the save created, was replaced by another program since; it was left as it is", f.Target)
		}
		return "" // removed already
	}
	if _, err := os.Lstat(f.Backup); err != nil {
		if ours {
			return fmt.Sprintf("%s could not be put back: its backup %s is gone", f.Target, f.Backup)
		}
		return "" // put back already
	}
	var err error
	switch {
	case ours:
		err = os.Rename(f.Backup, f.Target)
	case errors.Is(terr, fs.ErrNotExist):
		err = atomicfile.RenameNew(f.Backup, f.Target)
	default:
		return fmt.Sprintf("%s was changed by another program after the save put it in place; it was left as it is", f.Target)
	}
	if err != nil {
		return fmt.Sprintf("%s could not be put back from %s: %v", f.Target, f.Backup, err)
	}
	atomicfile.SyncDir(filepath.Dir(f.Target))
	return ""
}

// removeBackups removes the backups of m's files that are still there (those not put back).
func removeBackups(m *manifest) {
	for _, f := range m.Files {
		if f.Backup != "" {
			os.Remove(f.Backup)
		}
	}
}

// finishUndo finishes, for FinishInterrupted, the undo its record at path says was under way
// (m.Undo; undoCommit was killed): the save's rows file goes first, then every file the save had
// put in place gets its old content back (undoFile), then its temporary files (named in the
// record, checked by readManifest), its backups and the record are removed. Its journals are
// kept, for the dataset opening the pair to offer. It returns the notice for the person.
func finishUndo(path string, m *manifest) string {
	var notes []string
	if err := removeRows(rowsPath(path)); err != nil {
		notes = append(notes, err.Error())
	}
	atomicfile.SyncDir(filepath.Dir(path))
	for _, f := range m.Files {
		if note := undoFile(f); note != "" {
			notes = append(notes, note)
		}
	}
	for _, f := range m.Files {
		os.Remove(f.Temp)
	}
	removeBackups(m)
	os.Remove(path)
	atomicfile.SyncDir(filepath.Dir(path))
	notice := "A save of these files failed and was being undone when it was interrupted; the undo has been finished, so the files are as they were before that save, and its edits are still unsaved."
	if len(notes) > 0 {
		notice += " But " + strings.Join(notes, "; ") + "."
	}
	return notice
}
