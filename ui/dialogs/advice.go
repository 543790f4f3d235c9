package dialogs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"idxlabel/pairfile"
)

// withAdvice returns err with what a person in the window can do about it, where the library's
// error states only the fact (a pair open for editing, or a file being written, elsewhere); other
// errors as they are. open returns the files of the pair this window has open for editing ("" for
// none; nil: none).
//
// A lock this process holds (LockedError.Self) is this window's, as the process has one main
// window: the pair it has open for editing, or, for another pair, a job of the window (a save to
// other files, an export or a conversion writing it, a pair being opened); pairfile's message
// says only that this process holds it, so the message is said again naming which (ownLockError),
// still matching pairfile.ErrLocked.
func withAdvice(err error, open func() (images, labels string)) error {
	var locked *pairfile.LockedError
	switch {
	case !errors.As(err, &locked):
		return err
	case locked.Writing && locked.Self:
		return fmt.Errorf("%w.\n\nWait for this window's job that writes it to finish, or choose other files", err)
	case locked.Writing:
		return fmt.Errorf("%w.\n\nWait for it to finish, or choose other files", err)
	case locked.Self && isOpen(locked.Path, open):
		return &ownLockError{locked, "is the pair this window has open for editing", "Choose other files"}
	case locked.Self:
		return &ownLockError{locked, "is open for editing in this idxlabel, held by a job of this window under way (a save to it, or its opening)",
			fmt.Sprintf("Wait for it to finish, or choose other files. (If nothing is under way, an earlier process with this one's id left its lock file: delete %s.)", locked.LockFile)}
	}
	return fmt.Errorf("%w.\n\nClose it there, or choose other files", err)
}

// ownLockError is a lock held by this window (withAdvice): what holds it and what to do. It
// unwraps to the *pairfile.LockedError.
type ownLockError struct {
	*pairfile.LockedError
	what, advice string
}

func (e *ownLockError) Error() string { return fmt.Sprintf("%s %s.\n\n%s", e.Path, e.what, e.advice) }
func (e *ownLockError) Unwrap() error { return e.LockedError }

// isOpen reports whether path is one of open's files: the same path, absolute and cleaned, or the
// same file (os.SameFile, which sees through links).
func isOpen(path string, open func() (images, labels string)) bool {
	if open == nil || path == "" {
		return false
	}
	images, labels := open()
	abs, _ := filepath.Abs(path)
	fi, err := os.Stat(path)
	for _, f := range []string{images, labels} {
		if f == "" {
			continue
		}
		if a, _ := filepath.Abs(f); a == abs {
			return true
		}
		if g, err2 := os.Stat(f); err == nil && err2 == nil && os.SameFile(fi, g) {
			return true
		}
	}
	return false
}
