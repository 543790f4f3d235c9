package pairfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// AfterRename, when set, runs after each rename of a paired write (k: the file's place in it, 0
// for the image file): the crash tests of this package and of package store set it to widen, or
// to stop at, the moment when a crash leaves one file renamed and the other not. Programs leave
// it nil.
var AfterRename func(k int)

// AfterRows, when set, runs at the moments of a paired write's change-log rows (ChangeRows):
// "kept" once they are on disk beside the record, before the record is written; "appended" once
// they are in the change log, before their file and the record are removed. The crash tests of
// package store stop there. Programs leave it nil.
var AfterRows func(moment string)

// commitAll puts pending files in place as one operation. It keeps a backup of each existing
// target (a hard link, or a copy where links are not supported), keeps rows (may be nil) beside
// the manifest (writeRows), writes the manifest, renames every file (a target marked in creates,
// one that did not exist when the save began, is put in place only if nothing is there yet:
// atomicfile's CommitNew), removes the journals, appends rows to their change log, and then
// removes the backups, rows and manifest. With no rows (nil, or rows that could not be kept), a
// rows file already beside the manifest (a save cut off before its record left it) is removed
// before the manifest is written, so that the next opening never appends it as this write's. So a crash before the manifest leaves rows that name no save (the
// next opening removes them: FinishInterrupted), and one after it leaves rows the next opening
// appends. If a rename fails, the save is undone (undoCommit): the record first says so, synced,
// its rows file goes, the targets already replaced get their backups back (a target it created
// is removed), each only while it is still the file the save put there, and every temporary file
// is removed: the originals are untouched, and a kill during the undo leaves a record with which
// the next opening finishes the undo, never the save. Rows that cannot be kept are rows.Err;
// rows that cannot be appended are rows.Err too, and their file is kept beside the record under
// a name of its own (holdRows) for the next opening to append: neither fails the write. Errors:
// the backup, manifest or rename error, and a rows file there that cannot be removed.
func commitAll(pending []*idx.Pending, creates []bool, manifestPath string, journals []string, rows *ChangeRows) error {
	m := manifest{Journals: journals}
	abort := func() {
		for _, p := range pending {
			p.Abort()
		}
		removeBackups(&m)
		os.Remove(rowsPath(manifestPath)) // before the manifest: rows without one name no save
	}
	for _, p := range pending {
		f := manifestFile{Temp: p.Temp, Target: p.Target}
		if _, err := os.Stat(p.Target); err == nil {
			f.Backup = backupPath(p.Target)
			if err := linkOrCopy(p.Target, f.Backup); err != nil {
				abort()
				return fmt.Errorf("%s: cannot keep a backup while saving: %w", p.Target, err)
			}
		}
		m.Files = append(m.Files, f)
	}
	if rows == nil {
		// Rows there now are those of a save cut off before its record (this pair's lock is
		// held): under this write's record they would be appended as its own.
		if err := removeRows(rowsPath(manifestPath)); err != nil {
			abort()
			return err
		}
	} else {
		if err := writeRows(rowsPath(manifestPath), rows); err != nil {
			rows.Err = fmt.Errorf("the change-log rows could not be kept beside %s: %w", filepath.Base(manifestPath), err)
			rows = nil
			if err := removeRows(rowsPath(manifestPath)); err != nil {
				abort()
				return err
			}
		} else if AfterRows != nil {
			AfterRows("kept")
		}
	}
	if err := writeManifest(manifestPath, &m); err != nil {
		abort()
		return err
	}
	ids := make([]placedID, len(pending))
	for k, p := range pending {
		commit := p.Commit
		if creates[k] {
			commit = p.CommitNew // no file was there when the save began: never replace one made since
		}
		ids[k], _ = idOf(p.Temp)
		if err := commit(); err != nil {
			if note := undoCommit(pending, &m, manifestPath, k, ids); note != "" {
				return fmt.Errorf("%s: %w (the save was undone, but %s)", p.Target, err, note)
			}
			return fmt.Errorf("%s: %w (the files were left as they were)", p.Target, err)
		}
		if AfterRename != nil {
			AfterRename(k)
		}
	}
	if rows != nil {
		dropHeldWithin(manifestPath, rows) // rows held back by an earlier save that these hold
		// The journals the save contains go first: a crash while the rows are appended then
		// leaves no journal of edits that are in the files for the next opening to offer.
		removeJournals(&m)
		if err := AppendRows(rows); err != nil {
			rows.Err = holdRows(manifestPath, rows, true, err)
		} else if AfterRows != nil {
			AfterRows("appended")
		}
	}
	finishManifest(manifestPath, &m)
	return nil
}

// linkOrCopy makes dst a hard link to src, or a copy (fsynced) where hard links fail.
func linkOrCopy(src, dst string) error {
	os.Remove(dst)
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, _, err := atomicfile.OpenNoFollow(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}
