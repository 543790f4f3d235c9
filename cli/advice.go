package cli

import (
	"errors"

	"idxlabel/pairfile"
)

// advice returns what a person at the command line can do about err, as text to follow its
// message ("" when there is nothing to add). The libraries' errors state facts; this is the one
// place the command line turns them into advice.
func advice(err error) string {
	var locked *pairfile.LockedError
	var unsaved *pairfile.UnsavedEditsError
	switch {
	case errors.Is(err, pairfile.ErrExists):
		return " (use --force to replace it)"
	case errors.As(err, &unsaved) && unsaved.Marker != "":
		return ": open that pair in idxlabel (this image file with its label file: the window offers to replay the edits, then save them, or to discard them; either removes that pair's line from the marker), then write again; remove the marker yourself only if no such pair has unsaved edits any more (its label folder moved or deleted)"
	case errors.As(err, &unsaved):
		return ": open that pair in idxlabel (the window offers to replay the edits, then save them, or to discard them), then write again"
	case errors.As(err, &locked) && locked.Self:
		return ownLockAdvice(locked)
	case errors.As(err, &locked) && locked.Writing:
		return ": wait for it to finish, or write elsewhere"
	case errors.As(err, &locked) && locked.PID == 0:
		return ": close it there (if no other idxlabel is running, delete " + locked.LockFile + ")"
	case errors.As(err, &locked):
		return ": close it there"
	case pairfile.CannotWrite(err):
		// A command-line process opens no pair for editing, so nothing of the window's notice
		// (pairfile.UnwritableNotice) applies: only the output it was told to write.
		return " (choose an output in a folder you may write to, or a shorter name)"
	}
	return ""
}

// ownLockAdvice is the advice on a lock whose file names this very process (LockedError.Self,
// for editing or writing). A command-line process opens no pair for editing and claims its
// outputs once, so no window or other job of it holds the pair: the program that runs the
// command in-process does, or an earlier process with this one's id left the lock file (where
// the file system has no flock, the lock is the file itself, and process ids repeat, as in a
// container).
func ownLockAdvice(locked *pairfile.LockedError) string {
	return ": this command holds no lock on it, so the program running the command holds it, or an earlier process with this one's id left " + locked.LockFile + " (if no idxlabel has the pair open, delete it)"
}
