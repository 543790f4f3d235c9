package store

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"idxlabel/idx"
)

// manifest is written (atomically) just before a paired save renames its files, and removed
// when every rename and cleanup is done. Finding one at Open means the save was cut off between
// its renames: every temporary file it names was complete and verified, so the save is finished
// by renaming what is left.
type manifest struct {
	Files    []manifestFile `json:"files"`
	Journals []string       `json:"journals"` // journals whose edits the save contains
}

type manifestFile struct {
	Temp   string `json:"temp"`   // complete, fsynced, verified
	Target string `json:"target"` // the file it replaces
	Backup string `json:"backup"` // hard link (or copy) of the old target, "" when there was none
}

// afterCommit, when set (by the crash tests), runs after each rename of a paired save, to widen
// the window in which a crash leaves one file renamed and the other not.
var afterCommit func(k int)

// backupPath names the backup of a target during a save: ".<name>.idxlabel-backup" beside it.
func backupPath(target string) string {
	dir, name := filepath.Split(target)
	return filepath.Join(dir, "."+name+".idxlabel-backup")
}

// commitAll puts pending files in place as one operation. It keeps a backup of each existing
// target (a hard link, or a copy where links are not supported), writes the manifest, renames
// every file, and then removes the journals, backups and manifest. If a rename fails, the
// targets already replaced get their backups back and every temporary file is removed: the
// originals are untouched. Errors: the backup, manifest or rename error.
func commitAll(pending []*idx.Pending, manifestPath string, journals []string) error {
	m := manifest{Journals: journals}
	abort := func() {
		for _, p := range pending {
			p.Abort()
		}
		for _, f := range m.Files {
			if f.Backup != "" {
				os.Remove(f.Backup)
			}
		}
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
	if err := writeManifest(manifestPath, &m); err != nil {
		abort()
		return err
	}
	for k, p := range pending {
		if err := p.Commit(); err != nil {
			for _, f := range m.Files[:k] {
				if f.Backup != "" {
					os.Rename(f.Backup, f.Target)
				} else {
					os.Remove(f.Target)
				}
			}
			abort()
			os.Remove(manifestPath)
			return fmt.Errorf("%s: %w (the files were left as they were)", p.Target, err)
		}
		if afterCommit != nil {
			afterCommit(k)
		}
	}
	finishManifest(manifestPath, &m)
	return nil
}

// finishManifest removes what a completed save no longer needs, the manifest last.
func finishManifest(path string, m *manifest) {
	for _, j := range m.Journals {
		if j != "" {
			os.Remove(j)
		}
	}
	for _, f := range m.Files {
		if f.Backup != "" {
			os.Remove(f.Backup)
		}
	}
	os.Remove(path)
	idx.SyncDir(filepath.Dir(path))
}

// writeManifest writes m to path atomically (temporary file, fsync, rename).
func writeManifest(path string, m *manifest) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	idx.SyncDir(filepath.Dir(path))
	return nil
}

// finishInterruptedSave completes a save whose manifest is at path: it renames every temporary
// file that is still there over its target, then cleans up. It returns a notice for the user,
// or "" when there was no manifest. Leftovers of saves that crashed before writing a manifest
// (temporary files, backups) are removed. Errors: an unreadable manifest or a failed rename.
func finishInterruptedSave(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		os.Remove(path + ".tmp")
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("%s: unreadable record of an interrupted save: %v", path, err)
	}
	finished := 0
	for _, f := range m.Files {
		if _, err := os.Stat(f.Temp); err != nil {
			continue // already renamed
		}
		if err := os.Rename(f.Temp, f.Target); err != nil {
			return "", fmt.Errorf("%s: finishing an interrupted save: %w", f.Target, err)
		}
		finished++
	}
	finishManifest(path, &m)
	if finished == 0 {
		return "", nil
	}
	return fmt.Sprintf("A save of these files was interrupted; it has been finished (%d file(s) put in place).", finished), nil
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
	out, err := os.Create(dst)
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
