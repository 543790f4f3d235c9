package atomicfile

import (
	"io/fs"
	"os"
)

// RemoveAbandoned removes the temporary files of target (IsTemp: ".<name>.idxlabel-tmp-<digits>"
// in target's own folder) that a killed write left, for a file beside a dataset that is written
// without following links (WriteFileNoFollow): target's own name is used, never the file a
// symbolic link there names, and each temporary file must be a regular file, opened without
// following a link or waiting on a FIFO to see whether a live writer holds its flock (Create
// takes it while writing; where flock is unavailable nothing is held, and on Windows an open
// file cannot be removed). No age is asked: the caller holds the lock every writer of target
// holds (a pair's lock, for a file beside the pair), so no writer in another process can be
// under way, and a temporary file that no one flocks and this process is not writing (Create
// until Commit or Abort: its flock goes when it is closed, before its rename) is a dead
// writer's. It returns the paths removed; best effort.
func RemoveAbandoned(target string) []string {
	return removeTemps(target, nil, func(p string, _ fs.FileInfo) bool {
		f, _, err := OpenNoFollow(p, os.O_RDONLY, 0)
		if err != nil {
			return false // a link or FIFO swapped in, or gone: left alone
		}
		defer f.Close()
		return !lockedFile(f)
	})
}
