package atomicfile

import (
	"os"
	"path/filepath"
	"sync"
)

// live holds the temporary files this process is writing: each from the instant it is created
// (create) until it is renamed into place or removed (Commit, CommitNew, Abort, a failed write).
// A sweep (removeTemps: RemoveAbandoned, RemoveStale) holds live's lock while it decides on a
// file and removes it, and leaves the files named here alone. The flock create takes on a
// temporary file while writing it tells a sweep in another process the same thing, but only
// until the file is closed, before its rename (and never where flock is unavailable); within
// this process live covers the whole life of the file. Other processes are kept out of that
// instant by the locks their writers hold (a pair's lock, for a file beside the pair). Keys are
// absolute cleaned paths; the map holds one entry a write in progress.
var live struct {
	sync.Mutex
	names map[string]bool
}

// liveKey is the key of the temporary file at path in live: its absolute cleaned path.
func liveKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// createLive creates a temporary file as os.CreateTemp(dir, pattern) does and enters it in live
// before any sweep can see it. Errors: those of os.CreateTemp.
func createLive(dir, pattern string) (*os.File, error) {
	live.Lock()
	defer live.Unlock()
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	if live.names == nil {
		live.names = map[string]bool{}
	}
	live.names[liveKey(f.Name())] = true
	return f, nil
}

// forget takes the temporary file at path out of live once it is renamed or removed.
func forget(path string) {
	live.Lock()
	delete(live.names, liveKey(path))
	live.Unlock()
}

// removeUnlessLive removes the file at path when it is no temporary file this process is
// writing (live) and stale says it is left behind, deciding and removing under live's lock so
// that no write of this process can be taken for abandoned in between. It reports whether it
// removed the file.
func removeUnlessLive(path string, stale func() bool) bool {
	live.Lock()
	defer live.Unlock()
	return !live.names[liveKey(path)] && stale() && os.Remove(path) == nil
}

// closedHook, nil but in tests, is called with a temporary file's name once create has closed
// it (its flock let go) and before it is returned for its rename.
var closedHook func(temp string)
