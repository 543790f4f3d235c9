package pairfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/internal/atomicfile"
)

// manifestVersion is the on-disk version of the save record. Version 1 (no "version" field)
// stored paths as they were typed, relative to the working directory; it is not trusted.
const manifestVersion = 2

// undoVersion is the version of a record that says its save is being undone (manifest.Undo):
// version 2 with the files it had put in place. An idxlabel that knows only version 2 refuses
// it (and so never finishes, forward, a save that was being undone).
const undoVersion = 3

// maxManifest bounds the size of a save record read from disk (bytes): a real one is a few
// hundred bytes.
const maxManifest = 64 << 10

// manifest is written (atomically) just before a paired save renames its files, and removed
// when every rename and cleanup is done. Finding one when the pair is opened means the save was cut off between
// its renames: every temporary file it names was complete and verified, so the save is finished
// by renaming what is left; unless it says Undo (a rename failed and the save was being undone
// when it was cut off): then the undo is finished (finishUndo), nothing is renamed. In memory it holds full paths; on disk only names that the reader
// checks against the pair it opens (see diskManifest).
type manifest struct {
	Files    []manifestFile
	Journals []string // journals whose edits the save contains
	// Undo: a rename failed and the save is being undone (undo.go): the files it had put in
	// place (manifestFile.Placed) get their old content back, nothing is renamed forward, its
	// change-log rows are never appended and its journals are kept.
	Undo bool
}

type manifestFile struct {
	Temp   string // complete, fsynced, verified; atomicfile's temporary name of Target
	Target string // the file it replaces
	Backup string // backupPath(Target): a hard link (or copy) of the old target; "" when none
	// Placed (an undo record only): the save had put Temp in place at Target before it failed.
	// Size and ModTime (Unix nanoseconds) are that file's, so that an undo replaces or removes
	// Target only while it is still the file the save put there (placedStill).
	Placed  bool
	Size    int64
	ModTime int64
}

// diskManifest is the save record as stored: every path relative to the record's own folder
// (with '/' separators), temporary names as bare names beside their target, and backups and
// journals as flags, because their names follow from the target by rule. Nothing in it can name
// a file the reader does not already know: see readManifest.
type diskManifest struct {
	Version  int                `json:"version"`
	Files    []diskManifestFile `json:"files"`
	Journals []string           `json:"journals,omitempty"` // targets whose "<target>.idxlabel-journal" the save contains
	Fallback []string           `json:"fallback,omitempty"` // targets whose per-user fallback journal it contains
	// Others names files of the pair the save did not write (the image file of a save that
	// changed only labels) whose "<name>.idxlabel-journal" it contains.
	Others []string `json:"others,omitempty"`
	Undo   bool     `json:"undo,omitempty"` // manifest.Undo; only in a record of undoVersion
}

type diskManifestFile struct {
	Target  string `json:"target"`           // relative to the record's folder
	Temp    string `json:"temp"`             // a bare name in the target's folder
	Backup  bool   `json:"backup"`           // backupPath(target) exists
	Placed  bool   `json:"placed,omitempty"` // manifestFile.Placed (undo records)
	Size    int64  `json:"size,omitempty"`   // manifestFile.Size
	ModTime int64  `json:"mtime,omitempty"`  // manifestFile.ModTime
}

// backupPath names the backup of a target during a save: ".<name>.idxlabel-backup" beside it.
func backupPath(target string) string {
	dir, name := filepath.Split(target)
	return filepath.Join(dir, "."+name+".idxlabel-backup")
}

// toDisk encodes m for the record at path: names relative to its folder. Journals that follow
// no rule of this pair (a new dataset's journal in the config folder) are left out: the saving
// process removes them itself, and a reader could not check them.
func (m *manifest) toDisk(path string) (*diskManifest, error) {
	dir := filepath.Dir(Abs(path))
	dm := &diskManifest{Version: manifestVersion, Undo: m.Undo}
	if m.Undo {
		dm.Version = undoVersion
	}
	for _, f := range m.Files {
		rel, err := filepath.Rel(dir, Abs(f.Target))
		if err != nil {
			return nil, fmt.Errorf("%s: cannot be named relative to %s: %w", f.Target, dir, err)
		}
		dm.Files = append(dm.Files, diskManifestFile{Target: filepath.ToSlash(rel), Temp: filepath.Base(f.Temp), Backup: f.Backup != "", Placed: f.Placed, Size: f.Size, ModTime: f.ModTime})
	}
	for _, j := range m.Journals {
		named := false
		for _, f := range dm.Files {
			target := filepath.Join(dir, filepath.FromSlash(f.Target))
			if SamePath(j, target+JournalSuffix) {
				dm.Journals, named = append(dm.Journals, f.Target), true
			} else if SamePath(j, Fallback(target+JournalSuffix)) {
				dm.Fallback, named = append(dm.Fallback, f.Target), true
			}
		}
		if !named && j != "" && SamePath(filepath.Dir(j), dir) && strings.HasSuffix(j, JournalSuffix) {
			dm.Others = append(dm.Others, strings.TrimSuffix(filepath.Base(j), JournalSuffix))
		}
	}
	return dm, nil
}

// errManifest marks a save record that was refused: damaged, of an old version, or naming
// files that are not this pair's own.
var errManifest = errors.New("record of an interrupted save refused")

// refusal is a refused save record's reason, worded to follow "…was not used because"; it
// matches errManifest with errors.Is.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }
func (r *refusal) Unwrap() error { return errManifest }

func refuse(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// parseManifest reads the save record at path (at most maxManifest bytes, a regular file, of
// this version, or an undo record of undoVersion) without checking the files it names; nil, nil
// when there is none. Errors as for readManifest.
func parseManifest(path string) (*diskManifest, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) || nameTooLong(err) {
		return nil, nil // a name too long for the file system names no record
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse("it is not a regular file")
	}
	f, _, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, atomicfile.ErrNotRegular) {
		return nil, refuse("it is not a regular file")
	}
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	f.Close()
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifest {
		return nil, refuse("it is over %d bytes", maxManifest)
	}
	var version struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &version); err != nil {
		return nil, refuse("it is damaged (%v)", err)
	}
	switch version.Version {
	case manifestVersion, undoVersion:
	case 0:
		return nil, refuse("it is in the old format, which named files as they were typed and cannot be checked")
	default:
		return nil, refuse("it is of version %d, which this idxlabel does not know", version.Version)
	}
	var dm diskManifest
	if err := json.Unmarshal(b, &dm); err != nil {
		return nil, refuse("it is damaged (%v)", err)
	}
	if dm.Undo != (dm.Version == undoVersion) {
		return nil, refuse("its version (%d) and what it says (undo: %v) disagree", dm.Version, dm.Undo)
	}
	return &dm, nil
}

// readManifest reads and checks the save record at path for the pair whose files are pair (the
// image and label paths as opened; "" entries are ignored). Each target must be one of the
// pair's files (compared after following symbolic links, as a save writes through them); each
// temporary file must carry the exact name a save makes for that target (atomicfile.IsTemp)
// and be a regular file or absent; backups and journals are named by rule, never read. It
// returns nil, nil when there is no record. Errors match errManifest and say what was wrong;
// reading errors other than "does not exist" are returned as they are.
func readManifest(path string, pair []string) (*manifest, error) {
	dm, err := parseManifest(path)
	if dm == nil || err != nil {
		return nil, err
	}
	if len(dm.Files) == 0 || len(dm.Files) > len(pair) {
		return nil, refuse("it names %d files", len(dm.Files))
	}
	own := pairFiles(pair)
	dir := filepath.Dir(path)
	m := &manifest{Undo: dm.Undo}
	targets := map[string]string{} // as written in the record → full path
	for _, df := range dm.Files {
		target := filepath.Clean(filepath.Join(dir, filepath.FromSlash(df.Target)))
		if filepath.IsAbs(filepath.FromSlash(df.Target)) || !slices.ContainsFunc(own, func(p string) bool { return SamePath(p, target) }) {
			return nil, refuse("%q is not one of this pair's files", df.Target)
		}
		if _, dup := targets[df.Target]; dup {
			return nil, refuse("%q is named twice", df.Target)
		}
		targets[df.Target] = target
		temp := filepath.Join(filepath.Dir(target), df.Temp)
		if filepath.Base(df.Temp) != df.Temp || !atomicfile.IsTemp(temp, target) {
			return nil, refuse("%q is not a temporary name idxlabel makes for %s", df.Temp, filepath.Base(target))
		}
		if tfi, err := os.Lstat(temp); err == nil && !tfi.Mode().IsRegular() {
			return nil, refuse("%s is not a regular file", temp)
		}
		mf := manifestFile{Temp: temp, Target: target, Placed: df.Placed && dm.Undo, Size: df.Size, ModTime: df.ModTime}
		if df.Backup {
			mf.Backup = backupPath(target)
		}
		m.Files = append(m.Files, mf)
	}
	for _, name := range dm.Journals {
		target, ok := targets[name]
		if !ok {
			return nil, refuse("journal of %q, a file it does not save", name)
		}
		m.Journals = append(m.Journals, target+JournalSuffix)
	}
	for _, name := range dm.Others {
		// The journal of a file of the pair the save did not write: only when that file is
		// this pair's own (a bare name beside the record); anything else is left alone.
		other := filepath.Join(dir, name)
		if filepath.Base(name) == name && slices.ContainsFunc(own, func(p string) bool { return SamePath(p, other) }) {
			m.Journals = append(m.Journals, other+JournalSuffix)
		}
	}
	for _, name := range dm.Fallback {
		target, ok := targets[name]
		if !ok {
			return nil, refuse("journal of %q, a file it does not save", name)
		}
		if fb := Fallback(target + JournalSuffix); fb != "" {
			m.Journals = append(m.Journals, fb)
		}
	}
	return m, nil
}

// pairFiles returns the absolute, cleaned paths a save of the pair writes: each file as given
// and, when it is a symbolic link, the file it names.
func pairFiles(pair []string) []string {
	var out []string
	for _, p := range pair {
		if p == "" {
			continue
		}
		out = append(out, Abs(p))
		if r, err := atomicfile.Resolve(p); err == nil {
			out = append(out, Abs(r))
		}
	}
	return out
}

// writeManifest writes m to path atomically (temporary file, fsync, rename, folder fsync).
func writeManifest(path string, m *manifest) error {
	dm, err := m.toDisk(path)
	if err != nil {
		return err
	}
	b, err := json.Marshal(dm)
	if err != nil {
		return err
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// finishManifest removes what a completed save no longer needs, its change-log rows just before
// the manifest, the manifest last.
func finishManifest(path string, m *manifest) {
	removeJournals(m)
	removeBackups(m)
	os.Remove(rowsPath(path))
	os.Remove(path)
	atomicfile.SyncDir(filepath.Dir(path))
}

// removeJournals removes the journals whose edits the save of m contains.
func removeJournals(m *manifest) {
	for _, j := range m.Journals {
		if j != "" {
			os.Remove(j)
		}
	}
}

// changedSince says how the target of f changed after the save that wrote f's temporary file
// was cut off ("" when it did not): a save keeps a backup of a target that existed (a hard link,
// or a copy where links fail), so the target must still be that file, or have its bytes; a
// target that did not exist must still not exist.
func changedSince(f manifestFile) string {
	ti, err := os.Stat(f.Target)
	if f.Backup == "" {
		if err == nil {
			return "created"
		}
		return ""
	}
	bi, berr := os.Stat(f.Backup)
	switch {
	case err != nil && berr != nil:
		return "" // both gone: the temporary file is all that is left of either
	case err != nil:
		return "removed"
	case berr != nil:
		return "changed (the save's backup of it is gone, so it cannot be told)"
	case os.SameFile(ti, bi):
		return ""
	case ti.Size() == bi.Size():
		if a, okA := hashFile(f.Target); okA {
			if b, okB := hashFile(f.Backup); okB && a == b {
				return "" // a copied backup, the same bytes
			}
		}
	}
	return "replaced or rewritten"
}

// setAside moves a refused save record (or rows file, or whatever else is in the way) out of
// the way, to "<path>.<time>.refused", so that it neither blocks the pair nor is lost, and
// returns the new name ("" when it could not be moved). It is atomicfile.MoveAside, the one rule
// for setting a file aside: a name taken already (two openings in one second) is never
// replaced; "<path>.<time>-2.refused", "-3", … follow.
func setAside(path string) string {
	to, err := atomicfile.MoveAside(path, "refused")
	if err != nil {
		return ""
	}
	return to
}

// finishInterruptedSave completes a save of the pair (images, labels) whose record is at path:
// it renames every temporary file that is still there over its target, appends the change-log
// rows the save kept beside its record to log (finishRows: the pair's change log, ChangesFile),
// then cleans up. It returns a notice for the user ("" when there was nothing to say) and the
// temporary files the record names (which must not be swept as stale). A record that fails
// readManifest's checks is moved aside and touches nothing (its rows are moved aside with it):
// the notice says so and the pair opens as it is on disk. Rows without a record are those of a
// save cut off before it wrote its record, which replaced nothing: they are removed. The
// journals a record names are removed only when it renamed at least one file now: a record with
// nothing left to finish (a save stopped after its last rename, or a record planted beside files
// it never wrote) leaves them for the dataset opening the pair to offer, so edits that are in no
// file are never deleted. A record that says its save was being undone (manifest.Undo) has the
// undo finished instead (finishUndo): nothing is renamed, its rows are removed, its journals
// kept. Errors: a rename that fails while finishing a valid record.
func finishInterruptedSave(path string, pair []string, log string) (notice string, keep []string, err error) {
	if path == "" {
		return "", nil, nil
	}
	atomicfile.RemoveStale(path, atomicfile.StaleAge)
	rows := rowsPath(path)
	atomicfile.RemoveStale(rows, atomicfile.StaleAge)
	m, err := readManifest(path, pair)
	if err != nil {
		moved := setAside(path)
		if moved == "" {
			moved = "its place (it could not be moved)"
		}
		setAside(rows)
		return fmt.Sprintf("A record of an interrupted save, %s, was not used because %v; the files were left as they are and the record was moved to %s.", path, err, moved), nil, nil
	}
	if m == nil {
		os.Remove(rows) // a save cut off before its record: it replaced nothing, its rows name no change made
		return "", nil, nil
	}
	if m.Undo {
		return finishUndo(path, m), nil, nil // a save that failed, killed while it was undone
	}
	for _, f := range m.Files {
		keep = append(keep, f.Temp)
	}
	for _, f := range m.Files {
		if _, err := os.Lstat(f.Temp); err != nil {
			continue // already renamed
		}
		if why := changedSince(f); why != "" {
			// Another program wrote the target after the save was cut off: finishing the save
			// would put an older file over theirs. Nothing is renamed; the record is set aside
			// (its temporary files are swept once stale; the save's edits are still in its
			// journal, which is kept).
			moved := setAside(path)
			if moved == "" {
				moved = "its place (it could not be moved)"
			}
			setAside(rows)
			return fmt.Sprintf("A save of these files was interrupted, but %s was %s since; the save was not finished, so as not to replace it, and its record was moved to %s.", f.Target, why, moved), nil, nil
		}
	}
	finished := 0
	for _, f := range m.Files {
		if _, err := os.Lstat(f.Temp); err != nil {
			continue // already renamed
		}
		if err := os.Rename(f.Temp, f.Target); err != nil {
			return "", keep, fmt.Errorf("%s: finishing an interrupted save: %w", f.Target, err)
		}
		finished++
	}
	if finished == 0 {
		// Nothing was left to rename: either the save had put every file in place before it
		// stopped, or the record was planted beside files it never wrote. Its journals are kept
		// (the dataset opening the pair offers one that still matches the files; one of the old files is set
		// aside there), since removing them could lose edits that are in no file.
		m.Journals = nil
	}
	// The save is done: the rows it kept go to the change log (once, whether it stopped before
	// appending them, in the middle, or after), before the record that vouches for them goes.
	rowsNote := finishRows(rows, log, "the interrupted save")
	finishManifest(path, m)
	if finished == 0 {
		return rowsNote, nil, nil
	}
	files := "1 file"
	if finished > 1 {
		files = fmt.Sprintf("%d files", finished)
	}
	return strings.TrimSpace(fmt.Sprintf("A save of these files was interrupted; it has been finished (%s put in place). %s", files, rowsNote)), nil, nil
}

// ReadView returns the files to read to see the pair (images, labels; labels may be "") as it is
// saved, the rule a dataset opened read-only follows: when a valid record of an interrupted save
// is beside the pair, the temporary files that save had not yet renamed stand in for their
// targets. Nothing on disk is changed. notice says what was found ("" when there is no record);
// a record that is refused is named in notice and the files are read as they are.
func ReadView(images, labels string) (readImages, readLabels, notice string) {
	for _, p := range recordPaths(images, labels) {
		if ri, rl, notice := interruptedSaveView(p, images, labels); notice != "" {
			return ri, rl, notice
		}
	}
	return images, labels, ""
}

// interruptedSaveView returns, for a read-only open of the pair, the files to read in place of
// images and labels when a valid record of an interrupted save is present: the temporary files
// the save had not yet renamed. Nothing on disk is changed. The notice says what was done.
func interruptedSaveView(path, images, labels string) (string, string, string) {
	m, err := readManifest(path, []string{images, labels})
	if err != nil {
		return images, labels, fmt.Sprintf("A record of an interrupted save, %s, is not used: %v.", path, err)
	}
	if m == nil {
		return images, labels, ""
	}
	swap := func(p string) string {
		for _, f := range m.Files {
			if p != "" && (SamePath(p, f.Target) || slices.Contains(pairFiles([]string{p}), f.Target)) {
				stand := f.Temp // the save's file not yet in place
				if m.Undo {
					stand = "" // a file the save never replaced is as it was
					if f.Placed {
						stand = f.Backup // the old file not yet put back
					}
				}
				if _, err := os.Lstat(stand); stand != "" && err == nil {
					return stand
				}
			}
		}
		return p
	}
	if m.Undo {
		return swap(images), swap(labels), "A save of these files failed and was being undone when it was interrupted; they are shown as they were before it, and the undo will be finished when the pair is opened for editing."
	}
	return swap(images), swap(labels), "A save of these files was interrupted; it is shown as saved, and it will be finished when the pair is opened for editing."
}

// FinishInterrupted readies the pair (images, labels; labels may be "") to be opened for editing,
// its locks held (LockPair): it appends the change-log rows held beside a record after their
// append failed (finishHeldRows), oldest first, once each; it finishes a save of the pair that was
// cut off between its renames or before it appended its change-log rows, from its record
// (RecordPath, or beside the name used where an earlier version put it: recordPaths), the rows
// going to the pair's change log (ChangesFile) once, or, when the record says the save was being
// undone, finishes the undo (finishUndo); it removes the rows of a save cut off before its record, and what saves killed before writing a record left beside the files: the
// backup ".<name>.idxlabel-backup" (a hard link to, or copy of, the target, which such a save never
// touched) and atomicfile's temporary files of any age that no live writer flocks (the pair's lock
// is held, which every writer of its files holds: a save killed a moment ago leaves them, as big as
// the files), but for those a record still names, and those of its accepted-marks, class-name and
// sources files that no live writer holds (sweepSideFiles: the pair's lock is held). A record that
// is damaged or names files that are not this pair's own, or whose targets changed since, is moved
// aside unused and touches nothing. notice says what was done or refused ("" when nothing). Errors:
// a rename that fails while finishing a valid record.
func FinishInterrupted(images, labels string) (notice string, err error) {
	var notices, keep []string
	for _, p := range recordPaths(images, labels) {
		// Rows held after their append failed come first: a save the record names, kept after
		// them, made its rows after them (and, a window's, with them: appendRows).
		notices = append(notices, finishHeldRows(p, ChangesFile(images, labels))...)
	}
	for _, p := range recordPaths(images, labels) {
		n, k, err := finishInterruptedSave(p, []string{images, labels}, ChangesFile(images, labels))
		if err != nil {
			return "", err
		}
		if n != "" {
			notices = append(notices, n)
		}
		keep = append(keep, k...)
	}
	notice = strings.Join(notices, " ")
	for _, p := range []string{images, labels} {
		if p != "" {
			os.Remove(backupPath(p))
			atomicfile.RemoveStale(p, 0, keep...)
		}
	}
	sweepSideFiles(images, labels) // a writer killed between the label file and the files beside it
	return notice, nil
}
