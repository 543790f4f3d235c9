package pairfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gofrs/flock"

	"idxlabel/internal/atomicfile"
)

// LockSuffix is appended to the label file's path (the image file's when there is none) to
// name the pair's lock file: "t10k-labels-idx1-ubyte.gz.idxlabel-lock". When that file is a
// symbolic link, the lock file is beside the file it names (LockFile), so that every name of a
// file (the link, the file itself, another link) takes one lock. While a pair is open for
// editing, one process holds an advisory lock on it (flock on Unix, LockFileEx on Windows, via
// github.com/gofrs/flock); from byte 1 on, the file holds one line naming its holder,
// "idxlabel-lock pid=1234 host=name", with " job=write" when the holder is a writer
// (a Claim: a command-line writer, an export) rather than a window editing the pair. Byte 0 is
// the byte LockFileEx locks, so it is left alone.
const LockSuffix = ".idxlabel-lock"

// ErrLocked is what every *LockedError matches with errors.Is: another process (or another
// dataset of this process) has the pair open for editing.
var ErrLocked = errors.New("open for editing elsewhere")

// LockedError says that a pair is open for editing in another idxlabel: LockPair, Locks.Relock
// and ClaimOutputs return it when they cannot take a lock of the pair. PID and Host name the holder as it wrote itself into
// the lock file (0 and "" when it could not be read). Its message states who holds the pair, and
// only that: a lock of this process (Self) is said to be this process's, never what in it holds
// the pair, which the message cannot know (the window has one main window, whose pair or job it
// is; a command-line process opens no pair for editing, so there it is the program embedding the
// command, or an earlier process with this one's id that left its lock file). What the person
// can do about it is for the command line (cli's advice) and the window (ui/dialogs) to say.
type LockedError struct {
	Path     string // the file the lock protects: the label file, or the image file
	LockFile string // the lock file
	PID      int    // the holder's process id, 0 when unknown
	Host     string // the holder's host name, "" when unknown
	Self     bool   // the lock file names this process as its holder (PID and Host are its own)
	Writing  bool   // the holder is writing the file (a Claim), not editing its pair
}

func (e *LockedError) Error() string {
	switch {
	case e.Writing && e.Self:
		return fmt.Sprintf("%s is being written by this idxlabel", e.Path)
	case e.Writing && e.PID > 0:
		return fmt.Sprintf("%s is being written by another idxlabel (process %d on %s)", e.Path, e.PID, e.Host)
	case e.Writing:
		return fmt.Sprintf("%s is being written by another idxlabel (its lock file: %s)", e.Path, e.LockFile)
	case e.Self:
		return fmt.Sprintf("%s is already open for editing in this idxlabel process (its lock file %s names this process, %d)", e.Path, e.LockFile, e.PID)
	case e.PID > 0:
		return fmt.Sprintf("%s is open for editing in another idxlabel (process %d on %s)", e.Path, e.PID, e.Host)
	}
	return fmt.Sprintf("%s is open for editing in another idxlabel (its lock file: %s)", e.Path, e.LockFile)
}

// Is makes errors.Is(err, ErrLocked) true for a *LockedError.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lock is a held lock on a pair: an flock on the lock file, or, where the file system does
// not support flock, the lock file itself created with O_EXCL.
type lock struct {
	path string       // the lock file
	fl   *flock.Flock // nil in the O_EXCL fallback
}

// tryFlock takes fl without waiting; a variable so tests can play a file system without flock.
var tryFlock = (*flock.Flock).TryLock

// errLockFile marks a lock file that is not a regular file (a link, folder, FIFO or device
// planted beside the pair): it is never followed, written or waited on.
var errLockFile = errors.New("the lock file is not a regular file; remove it")

// LockFile returns the lock file that guards the file target (a pair's label file, or its image
// file): SideBase(target) + LockSuffix, beside the file a symbolic link names (through a link to
// a link, the last file), and beside target itself when it is no link, does not exist yet, or is
// a link to nothing. Every lock of a file is taken by this name (lockPair), so a window that
// opened a pair through links and a writer aimed at the files themselves (or the other way
// round) find each other's lock. A link changed after a lock was taken names another lock file
// from then on: a save takes that file's lock before it writes (Locks.Relock).
func LockFile(target string) string {
	return SideBase(target) + LockSuffix
}

// lockPair takes the lock of the pair whose label (or image) file is target, at LockFile(target). The lock file is
// opened without following links (O_NOFOLLOW) and without waiting on a FIFO (O_NONBLOCK) where
// the system has them, and must be a regular file. Errors: a *LockedError when another holder
// has it, errLockFile, or the error that kept the lock file from being created (a read-only
// folder). writing says the holder writes the file (ownerLine's job=write) rather than edits it.
func lockPair(target string, writing bool) (*lock, error) {
	l, err := lockAt(target, LockFile(target), writing, tryFlock)
	if errors.Is(err, errNoFlock) {
		return lockExclusive(target, LockFile(target), writing)
	}
	return l, err
}

// errNoFlock: the file system of a lock file has no flock (lockAt).
var errNoFlock = errors.New("no flock here")

// lockAt takes the flock on the lock file at path that guards target, with take (tryFlock, or
// one that waits): opened without following links and without waiting on a FIFO (openSafe), a
// regular file, and the file path names once it is held (the holder before may have removed
// it); it writes ownerLine into it. Errors: a *LockedError naming target when take did not get
// it, errLockFile, errNoFlock when the file system has no flock, or the error that kept the lock
// file from being created.
func lockAt(target, path string, writing bool, take func(*flock.Flock) (bool, error)) (*lock, error) {
	for range 4 {
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w", path, errLockFile)
		}
		fl := flock.New(path, flock.SetPermissions(0o644), flock.SetFlag(os.O_CREATE|os.O_RDONLY|openSafe))
		ok, err := take(fl)
		var pe *fs.PathError
		switch {
		case err != nil && errors.As(err, &pe) && pe.Op == "open":
			if isLink(pe.Err) {
				return nil, fmt.Errorf("%s: %w", path, errLockFile)
			}
			return nil, fmt.Errorf("cannot create the lock file %s: %w", path, pe.Err)
		case err != nil:
			return nil, errNoFlock
		case !ok:
			return nil, lockedBy(target, path)
		}
		// The holder before us may have removed the file between our open and our lock: the
		// lock counts only if it is on the file the path names now.
		held, err1 := fl.Stat()
		now, err2 := os.Lstat(path)
		if err1 == nil && !held.Mode().IsRegular() {
			fl.Unlock()
			return nil, fmt.Errorf("%s: %w", path, errLockFile)
		}
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			fl.Unlock()
			continue
		}
		writeOwner(path, held, writing)
		return &lock{path: path, fl: fl}, nil
	}
	return nil, lockedBy(target, path)
}

// lockExclusive is the fallback where flock is unsupported: the lock is the lock file itself,
// created with O_EXCL. A lock file left by a process of this host that no longer runs is stale
// and is replaced.
func lockExclusive(target, path string, writing bool) (*lock, error) {
	for range 2 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteAt(ownerLine(writing), 1)
			f.Close()
			return &lock{path: path}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("cannot create the lock file %s: %w", path, err)
		}
		e := lockedBy(target, path)
		host, _ := os.Hostname()
		if e.PID <= 0 || e.Host != host || processAlive(e.PID) {
			return nil, e
		}
		os.Remove(path)
	}
	return nil, lockedBy(target, path)
}

// release gives the lock up and removes the lock file. Where an open file can be removed (Unix)
// it is removed first, so that no one can lock the old file after we let it go (see lockPair's
// SameFile check). On Windows an open file cannot be removed, so the lock is let go first; the
// removal then fails, leaving the file to its new holder, if another process opened it meanwhile.
func (l *lock) release() error {
	if l == nil {
		return nil
	}
	if l.fl == nil {
		os.Remove(l.path)
		return nil
	}
	if removeWhileOpen {
		os.Remove(l.path)
		return l.fl.Unlock()
	}
	err := l.fl.Unlock()
	os.Remove(l.path)
	return err
}

// sameAs reports whether l is the lock of the pair whose label (or image) file is target.
func (l *lock) sameAs(target string) bool {
	if l == nil {
		return false
	}
	a, err1 := os.Stat(l.path)
	b, err2 := os.Stat(LockFile(target))
	if err1 == nil && err2 == nil {
		return os.SameFile(a, b)
	}
	x, err1 := filepath.Abs(l.path)
	y, err2 := filepath.Abs(LockFile(target))
	return err1 == nil && err2 == nil && x == y
}

// ownerLine is what a holder writes into its lock file from byte 1 on (LockSuffix).
func ownerLine(writing bool) []byte {
	host, _ := os.Hostname()
	job := ""
	if writing {
		job = " job=write"
	}
	return fmt.Appendf(nil, "idxlabel-lock pid=%d host=%s%s\n", os.Getpid(), host, job)
}

// writeOwner writes ownerLine into the lock file at path, the file held, through a handle of
// its own (the lock's handle is read-only). Best effort: the lock holds without it.
func writeOwner(path string, held os.FileInfo, writing bool) {
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if os.SameFile(fi, held) {
		f.WriteAt(ownerLine(writing), 1)
	}
}

// lockedBy reads the holder of the lock file at path (untrusted: at most one short line, the
// host name cleaned to printable text) into a LockedError.
func lockedBy(target, path string) *LockedError {
	e := &LockedError{Path: target, LockFile: path}
	f, _, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return e
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.ReadAt(buf, 1)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	for _, field := range strings.Fields(string(line)) {
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "pid":
			if pid, err := strconv.Atoi(v); err == nil && pid > 0 {
				e.PID = pid
			}
		case "host":
			e.Host, _ = cleanText(v, maxNameRunes)
		case "job":
			e.Writing = v == "write"
		}
	}
	host, _ := os.Hostname()
	e.Self = e.PID == os.Getpid() && e.Host == host
	return e
}

// lockTargets returns the files whose locks a dataset open for editing holds: the label file's
// (the pair's lock, found by every writer of the label file), and the image file's too when
// there is a label file, so that a writer of the image file, or a window opening it alone, finds
// the pair open (a Claim). A pair without a label file is locked by its image file.
func lockTargets(images, labels string) []string {
	switch {
	case labels != "":
		return []string{labels, images}
	case images != "":
		return []string{images}
	}
	return nil
}

// Locks are the locks a dataset holds on its pair while it is open for editing, one per file of
// lockTargets (LockPair), or those a save to other files takes (Relock).
type Locks []*lock

// Release gives every lock up; it returns the first error. Calling it on no locks does nothing.
func (ls Locks) Release() error {
	var first error
	for _, l := range ls {
		if err := l.release(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// holds reports whether one of ls is the lock of target (beside it, or in the per-user fallback
// folder where LockPair put it).
func (ls Locks) holds(target string) bool {
	return slices.ContainsFunc(ls, func(l *lock) bool {
		return l.sameAs(target) || l != nil && SamePath(l.path, Fallback(SideBase(target))+LockSuffix)
	})
}

// LockPair takes the locks of the pair (images, labels; labels may be "") for editing
// (lockTargets): a dataset opens a pair for editing with them, and holds them until it closes
// it. Where a lock file cannot be created because the folder is read-only or not ours
// (CannotWrite), the lock goes to the per-user fallback folder (Fallback), where the pair's
// journal goes too: two windows on such a pair would otherwise share that journal. Whenever the
// folder of a file's lock cannot be written (unwritable: also when a lock file left there opened
// without writing, and the lock needed no fallback), a notice says so (UnwritableNotice), once a
// folder, so that the person learns it when the pair opens rather than at the first edit or
// save. When even that fails, a notice says the file is not
// locked and the others are taken. Errors: the pair locked elsewhere (*LockedError, naming the
// file), a lock file that is not a regular file, or any other failure to create it; no lock is
// held then.
func LockPair(images, labels string) (held Locks, notices []string, err error) {
	var told []string // the folders a notice already named
	for _, target := range lockTargets(images, labels) {
		l, err := lockPair(target, false)
		cause := err
		if CannotWrite(err) {
			if fb := Fallback(SideBase(target)); fb != "" {
				if os.MkdirAll(filepath.Dir(fb), 0o755) == nil {
					l, err = lockPair(fb, false)
					if le, ok := err.(*LockedError); ok {
						le.Path = target
					}
				}
			}
		}
		if dir := filepath.Dir(SideBase(target)); err == nil && !slices.Contains(told, dir) {
			if cause := unwritable(target, cause); cause != nil {
				told = append(told, dir)
				notices = append(notices, UnwritableNotice(target, SamePath(target, Key(images, labels)), cause))
			}
		}
		if CannotWrite(err) {
			notices = append(notices, err.Error()+"; make sure no other program edits these files")
			continue
		}
		if err != nil {
			held.Release()
			return nil, nil, err
		}
		held = append(held, l)
	}
	return held, notices, nil
}

// HoldsPair reports whether ls, the locks LockPair took for the pair (images, labels), are still
// the locks of its files: false when a file of the pair is a symbolic link changed since then to
// name another file, whose lock (LockFile) ls does not hold. Locks LockPair could not take (its
// notices: a folder that cannot be written) are not asked for: with fewer locks than files it
// reports true.
func (ls Locks) HoldsPair(images, labels string) bool {
	targets := lockTargets(images, labels)
	if len(ls) < len(targets) {
		return true
	}
	for _, t := range targets {
		if !ls.holds(t) {
			return false
		}
	}
	return true
}

// LockJournal takes the lock of a journal that belongs to no pair: a new dataset's, kept in a
// per-user folder until its first save, which no pair's lock guards. The window writing it holds
// the lock (beside it, "<journal>.idxlabel-lock", the rule of LockPair) until it closes the
// dataset or saves it as a pair (Locks.MoveTo lets it go), so another window or process neither
// restores it nor sets it aside while it is written. Errors: a *LockedError (errors.Is
// ErrLocked) when another window or process holds it, a lock file that is not a regular file,
// or the error that kept the lock file (or the journal's folder, made when missing) from being
// created; no lock is held then.
func LockJournal(journal string) (Locks, error) {
	if err := os.MkdirAll(filepath.Dir(journal), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the lock file %s: %w", journal+LockSuffix, err)
	}
	l, err := lockPair(journal, false)
	if err != nil {
		return nil, err
	}
	return Locks{l}, nil
}

// Relock takes, for a save to other files (images, labels), the locks of that pair that ls (the
// dataset's locks) does not hold yet, and returns them; the old ones stay held. The save keeps
// what the saved pair needs and releases the rest (MoveTo) once it is done, or releases the new
// ones when it fails. Errors: *LockedError, or a lock file cannot be created; no new lock is
// held then.
func (ls Locks) Relock(images, labels string) (Locks, error) {
	var out Locks
	for _, target := range lockTargets(images, labels) {
		if ls.holds(target) {
			continue
		}
		l, err := lockPair(target, false)
		if err != nil {
			out.Release()
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// MoveTo returns the locks of the pair (images, labels) after a save to it: the ones of ls (the
// dataset's locks) that the pair needs, and those the save took (taken); the others are
// released.
func (ls Locks) MoveTo(images, labels string, taken Locks) Locks {
	var keep Locks
	for _, l := range ls {
		if slices.ContainsFunc(lockTargets(images, labels), func(t string) bool { return Locks{l}.holds(t) }) {
			keep = append(keep, l)
		} else {
			l.release()
		}
	}
	return append(keep, taken...)
}

// ErrSavePending: a file is part of a pair whose save was cut off between its renames (a save
// record lies beside it, SavePending); opening the pair for editing finishes that save.
var ErrSavePending = errors.New("a save of this pair was cut off; open the pair to finish it before writing it")

// lockForWrite takes, for a program about to replace the files in paths (a command-line writer),
// every lock that guards one of them as a file of a pair open for editing: the file's own (a label
// file, or an image file opened alone) and, for an image file, its label file's (FindLabels), which
// is where a pair's lock lives. The caller writes while it holds them and then calls release. A
// file of a pair whose save was cut off between its renames is refused too (ErrSavePending):
// writing it would be undone, or lost, when the pair opens and the save is finished. Paths are
// cleaned first, so a folder named with a trailing separator is locked beside itself as without it.
// A lock file that cannot be created because the folder is read-only or does not exist is skipped:
// no pair there can be open for editing, and the write itself will fail with its own error. Errors:
// ErrSavePending, a *LockedError (errors.Is ErrLocked) naming the pair's file when a window or
// process has it open for editing, or a lock file that is not a regular file.
func lockForWrite(paths ...string) (release func(), err error) {
	var held []*lock
	release = func() {
		for _, l := range held {
			l.release()
		}
	}
	var targets []string
	for _, p := range paths {
		p = filepath.Clean(p) // "out/" is the folder out: its lock lies beside it, not in it
		targets = append(targets, p)
		if r, err := atomicfile.Resolve(p); err == nil && !SamePath(r, p) {
			targets = append(targets, r) // a link: the file it names may be a pair's own
		}
		if l := FindLabels(p); l != "" {
			targets = append(targets, l)
		}
	}
	for _, t := range targets {
		if SavePending(t) {
			return nil, fmt.Errorf("%s: %w", t, ErrSavePending)
		}
	}
	for k, t := range targets {
		if slices.ContainsFunc(targets[:k], func(o string) bool { return SamePath(LockFile(o), LockFile(t)) }) {
			continue // a link and the file it names share one lock: taken once
		}
		l, err := lockPair(t, true)
		if err != nil {
			if !errors.Is(err, ErrLocked) && !errors.Is(err, errLockFile) && (CannotWrite(err) || errors.Is(err, fs.ErrNotExist)) {
				continue
			}
			release()
			return nil, err
		}
		held = append(held, l)
	}
	return release, nil
}
