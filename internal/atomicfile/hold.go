package atomicfile

import "os"

// Hold opens the file at path and takes an exclusive flock on it, so that Held, in this or
// another process, reports it in use until the returned file is closed or the process ends
// (killed or not: the system releases the lock). It marks a piece of work in progress that a
// cleanup of abandoned work must leave alone. Where flock is unavailable or has no effect (the
// lock is tested through a second open), it holds nothing and returns nil, nil: an open file
// would keep its folder from being renamed on Windows, and a cleanup there goes by age. Errors:
// those of opening path.
func Hold(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	lock(f)
	if !locked(path) {
		f.Close()
		return nil, nil
	}
	return f, nil
}

// Held reports whether a flock is held on the file at path (see Hold); false where flock is
// unavailable, and for a path that cannot be opened.
func Held(path string) bool { return locked(path) }
