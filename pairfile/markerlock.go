package pairfile

import (
	"context"
	"errors"
	"time"

	"github.com/gofrs/flock"
)

// markerWait is how long a change of an unsaved-edits marker waits for another one to end: 10
// seconds. Each holds the marker for one read of at most maxUnsaved bytes and one small atomic
// write, so only a stuck or hostile holder makes it wait that long. A variable so that a test
// need not wait that long.
var markerWait = 10 * time.Second

// markerPoll is how often a change of a marker tries again for its lock while another holds it.
const markerPoll = 5 * time.Millisecond

// markerLock takes the lock under which the unsaved-edits marker at marker is read, changed and
// rewritten (MarkUnsaved, UnmarkUnsaved), so that two processes (or two datasets of one)
// changing it at once never lose each other's line: an flock on "<marker>.idxlabel-lock" beside
// it, taken as a pair's lock is (lockAt: flock on Unix, LockFileEx on Windows, never through a
// symbolic link, never waiting on a FIFO), waiting up to markerWait for another holder. The
// caller releases it (lock.release, which removes the lock file). Where the file system has no
// flock, or the lock file's name would be too long for it, nothing is held (nil, nil) and the
// marker is changed unlocked. Errors: a *LockedError when another holder kept it for
// markerWait, errLockFile when something other than a regular file is at the lock file's path,
// or the error that kept the lock file from being created (a folder that cannot be written,
// where the marker cannot be written either).
func markerLock(marker string) (*lock, error) {
	l, err := lockAt(marker, marker+LockSuffix, true, waitFlock)
	if errors.Is(err, errNoFlock) || nameTooLong(err) {
		return nil, nil
	}
	return l, err
}

// waitFlock takes fl, waiting up to markerWait while another holds it (checked every
// markerPoll): false, nil when it is still held then. Errors: those of taking it (tryFlock).
func waitFlock(fl *flock.Flock) (bool, error) {
	ok, err := tryFlock(fl)
	if ok || err != nil {
		return ok, err
	}
	if markerBusyHook != nil {
		markerBusyHook(fl.Path())
	}
	ctx, cancel := context.WithTimeout(context.Background(), markerWait)
	defer cancel()
	ok, err = fl.TryLockContext(ctx, markerPoll)
	if errors.Is(err, context.DeadlineExceeded) {
		return false, nil
	}
	return ok, err
}

// markerBusyHook, nil but in tests, is called with the lock file's path when a change of a
// marker finds another holding it and starts to wait.
var markerBusyHook func(lockFile string)

// unsavedReadHook, nil but in tests, is called with the marker's path when a change of it has
// read it, its lock held, and not yet written it.
var unsavedReadHook func(marker string)
