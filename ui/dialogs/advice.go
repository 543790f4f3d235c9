package dialogs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"idxlabel/internal/clip"
	"idxlabel/pairfile"
)

// Advice is an error with what a person in the window can do about it, where the error states
// only the fact: Error is the fact, a full stop, a blank line and the advice. ShowError shows
// each part as one paragraph of its own (ShownError), so that a newline in a file's name the
// fact quotes never reads as the message's own paragraph break. It unwraps to the fact.
type Advice struct {
	Err  error  // the fact
	What string // what a person can do: one paragraph, no newline
}

// Error is the fact, a full stop, a blank line and the advice.
func (a *Advice) Error() string { return a.Err.Error() + ".\n\n" + a.What }

// Unwrap returns the fact.
func (a *Advice) Unwrap() error { return a.Err }

// Advise returns err with the advice what (an *Advice).
func Advise(err error, what string) error { return &Advice{Err: err, What: what} }

// ShownError is err's message as the window shows it (ShowError, and a message that quotes an
// error): one line, its control characters (a newline, an escape) and bytes that are not UTF-8
// escaped (clip.Printable), the names it quotes from the disk included; an *Advice (the
// outermost error, or the fact of one) shows the fact and the advice so, each a paragraph, a
// blank line between them.
func ShownError(err error) string {
	if a, ok := err.(*Advice); ok {
		return ShownError(a.Err) + ".\n\n" + clip.Printable(a.What)
	}
	return clip.Printable(err.Error())
}

// withAdvice returns err with what a person in the window can do about it (an *Advice), where
// the library's error states only the fact (a pair open for editing, or a file being written,
// elsewhere); other errors as they are. open returns the files of the pair this window has open
// for editing ("" for none; nil: none).
//
// A lock this process holds (LockedError.Self) is this window's, as the process has one main
// window: the pair it has open for editing, or, for another pair, a job of the window (a save to
// other files, an export or a conversion writing it, a pair being opened); pairfile's message
// says only that this process holds it, so the fact is said again naming which (ownLockError),
// still matching pairfile.ErrLocked.
func withAdvice(err error, open func() (images, labels string)) error {
	var locked *pairfile.LockedError
	switch {
	case !errors.As(err, &locked):
		return err
	case locked.Writing && locked.Self:
		return Advise(err, "Wait for this window's job that writes it to finish, or choose other files")
	case locked.Writing:
		return Advise(err, "Wait for it to finish, or choose other files")
	case locked.Self && isOpen(locked.Path, open):
		return Advise(&ownLockError{locked, "is the pair this window has open for editing"}, "Choose other files")
	case locked.Self:
		return Advise(&ownLockError{locked, "is open for editing in this idxlabel, held by a job of this window under way (a save to it, or its opening)"},
			fmt.Sprintf("Wait for it to finish, or choose other files. (If nothing is under way, an earlier process with this one's id left its lock file: delete %s.)", locked.LockFile))
	}
	return Advise(err, "Close it there, or choose other files")
}

// ownLockError is a lock held by this window (withAdvice): the file and what holds it. It
// unwraps to the *pairfile.LockedError.
type ownLockError struct {
	*pairfile.LockedError
	what string
}

func (e *ownLockError) Error() string { return fmt.Sprintf("%s %s", e.Path, e.what) }
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
