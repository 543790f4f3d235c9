// Package atomicfile writes files so that a reader never sees one half-written and a failure
// never damages the file that was there: the new content goes to a temporary file in the target's
// own folder, is fsynced, renamed over the target, and the folder is fsynced (POSIX rename(2)
// semantics; on Windows os.Rename replaces the target with MoveFileEx). It also holds the rule
// for which paths idxlabel reads and writes at all: only regular files (OpenRegular, Resolve).
//
// Temporary files are named ".<name>.idxlabel-tmp-<random>" beside the target (TempPrefix), so
// they are hidden, sort next to their target and are recognisably idxlabel's: RemoveStale deletes
// those of one target that are older than an age and not locked by a live writer, and never one
// this process is still writing.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// TempMarker is the part of a temporary file's name that marks it as idxlabel's: a temporary
// file for target "<dir>/<name>" is "<dir>/.<name>" + TempMarker + "<random digits>".
const TempMarker = ".idxlabel-tmp-"

// StaleAge is the age (by modification time) after which RemoveStale treats an unlocked
// temporary file as left behind by a writer that was killed: one hour, far longer than any
// write takes.
const StaleAge = time.Hour

// ErrNotRegular: a path names something that exists but is not a regular file (a folder, FIFO,
// socket or device), so idxlabel neither reads nor replaces it.
var ErrNotRegular = errors.New("not a regular file")

// ErrExists: an output already exists and the writer was not told to replace it (the command
// line's --force). Its message states the fact; the command line adds its advice, the window
// asks. Every writer returns this one error for it (pairfile.ErrExists is it too).
var ErrExists = errors.New("exists")

// TempPrefix returns the name prefix every temporary file for target has:
// "<dir>/.<name>.idxlabel-tmp-". The random suffix is decimal digits (os.CreateTemp's).
func TempPrefix(target string) string {
	dir, name := filepath.Split(target)
	return filepath.Join(dir, "."+name+TempMarker)
}

// IsTemp reports whether path is a temporary file of target: the same folder and the name
// TempPrefix(target) followed by one or more decimal digits.
func IsTemp(path, target string) bool {
	prefix := TempPrefix(target)
	if !strings.HasPrefix(path, prefix) || len(path) == len(prefix) {
		return false
	}
	for _, c := range path[len(prefix):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Resolve returns the path a write to target really replaces, after checking it. A target
// that does not exist is returned unchanged (its folder must exist when written). A symbolic
// link is followed, so the write goes through the link to the file it names and the link
// itself stays (a link to a missing file is refused). What is finally named must be a regular
// file: anything else (a folder, FIFO, socket or device such as /dev/null) is refused.
// Errors: an *fs.PathError wrapping ErrNotRegular, or the error of Lstat or EvalSymlinks.
func Resolve(target string) (string, error) {
	fi, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return target, nil
	}
	if err != nil {
		return "", err
	}
	real := target
	if fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(target); err != nil {
			return "", &fs.PathError{Op: "write", Path: target, Err: fmt.Errorf("symbolic link to a missing or unreadable file: %w", err)}
		}
		if fi, err = os.Stat(real); err != nil {
			return "", err
		}
	}
	if !fi.Mode().IsRegular() {
		return "", &fs.PathError{Op: "write", Path: target, Err: fmt.Errorf("%w (%s); refusing to replace it", ErrNotRegular, Kind(fi.Mode()))}
	}
	return real, nil
}

// Kind names a file mode that is not a regular file's for messages: "a folder", "a FIFO", "a
// socket", "a character device", "a device", "a symbolic link", else "an irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// OpenRegular opens name for reading only if it is a regular file (symbolic links are followed),
// and returns it with its FileInfo. It never blocks on a FIFO: on POSIX systems the file is
// checked with stat before it is opened, opened non-blocking and checked again with fstat
// before any read. Errors: an *fs.PathError wrapping
// ErrNotRegular (naming what it is instead), or the error of opening it.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	// Stat first so a device is never opened at all (opening some has side effects); the fstat
	// below catches a file swapped in between.
	if fi, err := os.Stat(name); err != nil {
		return nil, nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return openRegular(name, os.O_RDONLY, 0)
}

// openRegular opens name with flag (and never waits for a FIFO's writer) and checks with fstat
// that what it opened is a regular file; the file is closed otherwise. Errors: an
// *fs.PathError wrapping ErrNotRegular naming what it is, or those of opening.
func openRegular(name string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, flag|openNonblock, perm)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return f, fi, nil
}

// Pending is a file written in full to a temporary name in its target's folder and synced to
// disk, but not yet in place. Commit renames it over the target; Abort removes it. Writing two
// Pendings and committing both is how a paired save keeps the originals untouched until both
// new files are complete.
type Pending struct {
	Target string // the path the file replaces: the target as given, or what its symlink names
	Temp   string // the temporary file beside Target, already complete, fsynced and closed
}

// Create checks target (see Resolve), writes a new temporary file TempPrefix(target)+<random>
// beside the file it resolves to with write, fsyncs and closes it, gives it the target's
// permissions (0644 for a new target, subject to nothing else: no umask applies to chmod) and
// returns it uncommitted. While write runs the temporary file is locked (flock, where the
// system has it) so RemoveStale in another process leaves it alone; in this process no sweep
// (RemoveStale, RemoveAbandoned) touches it from its creation until Commit, CommitNew or Abort,
// which the caller must call. On any error the
// temporary file is removed and the target is untouched. Errors: those of Resolve; an
// *fs.PathError naming target when no file can be created in its folder (missing, read-only);
// write's error; or the *fs.PathError of syncing or chmod-ing the temporary file.
func Create(target string, write func(w io.Writer) error) (*Pending, error) {
	real, err := Resolve(target)
	if err != nil {
		return nil, err
	}
	return create(target, real, write)
}

// create is Create once target is resolved to real, the path the temporary file goes beside and
// is renamed to (and whose permissions, Lstat's, it takes).
func create(target, real string, write func(w io.Writer) error) (*Pending, error) {
	dir, name := filepath.Split(real)
	if dir == "" {
		dir = "."
	}
	f, err := createLive(dir, "."+name+TempMarker+"*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "create", Path: target, Err: fmt.Errorf("cannot create a file in %s: %w", filepath.Dir(real), err)}
	}
	lock(f)
	p := &Pending{Target: real, Temp: f.Name()}
	fail := func(err error) (*Pending, error) {
		f.Close()
		p.Abort()
		return nil, err
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Lstat(real); err == nil && fi.Mode().IsRegular() {
		mode = fi.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil && runtime.GOOS != "windows" {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		p.Abort()
		return nil, err
	}
	if closedHook != nil {
		closedHook(p.Temp)
	}
	return p, nil
}

// Commit renames the temporary file over the target (atomically on POSIX and on Windows, where
// os.Rename replaces; a sharing violation from a virus scanner or indexer is retried for about
// two seconds) and syncs the folder. Errors: the *os.LinkError of the rename; the temporary file
// is then left for Abort to remove.
func (p *Pending) Commit() error {
	var err error
	for attempt := 0; ; attempt++ {
		err = os.Rename(p.Temp, p.Target)
		if err == nil || runtime.GOOS != "windows" || attempt == 20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	forget(p.Temp)
	SyncDir(filepath.Dir(p.Target))
	return nil
}

// CommitNew puts the file in place only if nothing is at the target: a new file is never put
// over one that another program created meanwhile (RenameNew: a hard link, then the temporary
// name removed; where the file system has no hard links, Lstat and a rename, which leaves a
// moment in which a file created at the target would be replaced). Errors: an error matching
// fs.ErrExist when the target exists, or RenameNew's other errors; the temporary file is then
// left for Abort.
func (p *Pending) CommitNew() error {
	if err := RenameNew(p.Temp, p.Target); err != nil {
		return err
	}
	forget(p.Temp)
	return nil
}

// Abort removes the temporary file; the target is untouched. It is safe after Commit.
func (p *Pending) Abort() {
	os.Remove(p.Temp)
	forget(p.Temp)
}

// WriteFile writes target atomically with write (see Create and Commit): target is never
// half-written, and on any error it keeps its old content and no temporary file is left.
// Errors: those of Create and Commit.
func WriteFile(target string, write func(w io.Writer) error) error {
	real, err := Resolve(target)
	if err != nil {
		return err
	}
	return writeFile(target, real, write)
}

// writeFile is WriteFile once target is resolved to real (create).
func writeFile(target, real string, write func(w io.Writer) error) error {
	p, err := create(target, real, write)
	if err != nil {
		return err
	}
	if err := p.Commit(); err != nil {
		p.Abort()
		return err
	}
	return nil
}

// SyncDir fsyncs a folder so a file created, renamed or removed in it survives a power cut
// (POSIX); where folders cannot be opened or synced (Windows) it does nothing.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// RemoveStale removes the temporary files of target (IsTemp) that were last modified more than age
// ago (any age when age <= 0: for a caller that holds the lock every writer of target holds, so
// that a temporary file no one flocks is a dead writer's) and that no live writer holds locked,
// except those named in keep (a paired save's record of temporary files it still needs, compared by
// cleaned path), and returns the paths it removed. Temporary files of other targets, those this
// process is still writing (Create until Commit or Abort), and every other file, are left alone. It
// is best effort: files it cannot inspect or remove are skipped.
func RemoveStale(target string, age time.Duration, keep ...string) []string {
	real, err := Resolve(target)
	if err != nil {
		return nil
	}
	return removeTemps(real, keep, func(p string, fi fs.FileInfo) bool {
		return (age <= 0 || time.Since(fi.ModTime()) > age) && !locked(p)
	})
}

// removeTemps removes the temporary files of target (IsTemp: in target's own folder, named for
// target's own name; regular files, a link of that name is not one) that stale says are left
// behind, except those in keep and those this process is writing (live), and returns the paths
// it removed. Best effort.
func removeTemps(target string, keep []string, stale func(p string, fi fs.FileInfo) bool) []string {
	dir, name := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !IsTemp(p, filepath.Join(dir, name)) || !e.Type().IsRegular() || kept(p, keep) {
			continue
		}
		fi, err := e.Info()
		if err == nil && removeUnlessLive(p, func() bool { return stale(p, fi) }) {
			removed = append(removed, p)
		}
	}
	if len(removed) > 0 {
		SyncDir(dir)
	}
	return removed
}

// kept reports whether path is one of keep, compared as cleaned absolute paths.
func kept(path string, keep []string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true
	}
	for _, k := range keep {
		if ka, err := filepath.Abs(k); err != nil || ka == abs {
			return true
		}
	}
	return false
}
