package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// AsideStamp is the layout of the time in the name of a file set aside (AsideName).
const AsideStamp = "20060102-150405"

// MaxAsideNames bounds the names PlaceAside tries for one file within one second.
const MaxAsideNames = 1000

// AsideName returns the k-th name (k ≥ 1) of the file at path set aside at now with tag:
// "<path>.<time>.<tag>" (time: AsideStamp) for k = 1, then "<path>.<time>-<k>.<tag>", so that
// files set aside within one second keep apart and the tag still ends the name. The counter
// adds 2 to 4 bytes (k ≤ MaxAsideNames).
func AsideName(path, tag string, now time.Time, k int) string {
	stamp := now.Format(AsideStamp)
	if k > 1 {
		stamp += "-" + strconv.Itoa(k)
	}
	return path + "." + stamp + "." + tag
}

// PlaceAside calls place with AsideName(path, tag, now, k) for k = 1, 2, … until place does not
// fail with fs.ErrExist, and returns the name placed. place must never replace a file already
// at its name (RenameNew, Pending.CommitNew): so nothing set aside earlier, in this second or
// another, is ever overwritten. It tries at most MaxAsideNames names, one Lstat or link each.
// Errors: place's error other than fs.ErrExist, or one matching fs.ErrExist once every name is
// taken.
func PlaceAside(path, tag string, now time.Time, place func(to string) error) (string, error) {
	var err error
	for k := 1; k <= MaxAsideNames; k++ {
		to := AsideName(path, tag, now, k)
		if err = place(to); !errors.Is(err, fs.ErrExist) {
			if err != nil {
				return "", err
			}
			return to, nil
		}
	}
	return "", fmt.Errorf("%s: cannot set it aside, %d names of this second are taken: %w", path, MaxAsideNames, err)
}

// MoveAside renames the file at path (a symbolic link is renamed, not followed) to a name of
// its own (PlaceAside with RenameNew) and returns it. Errors: those of RenameNew and
// PlaceAside.
func MoveAside(path, tag string) (string, error) {
	return PlaceAside(path, tag, time.Now(), func(to string) error { return RenameNew(path, to) })
}

// WriteAside writes a new file with write beside path (a temporary file, synced: Create), puts
// it at a name of its own (PlaceAside with CommitNew: never over a file) and returns that name.
// On error nothing is left. Errors: those of creating, writing and committing the file.
func WriteAside(path, tag string, write func(w io.Writer) error) (string, error) {
	dir, name := filepath.Split(path)
	p, err := create(path, filepath.Join(dir, name+"."+tag), write)
	if err != nil {
		return "", err
	}
	to, err := PlaceAside(path, tag, time.Now(), func(to string) error {
		p.Target = to
		return p.CommitNew()
	})
	if err != nil {
		p.Abort()
	}
	return to, err
}

// RenameNew renames old to new only if nothing is at new: it links old to new (which fails if
// new exists; a symbolic link at old is linked, not followed), then removes old, and syncs the
// folder. Where the file system has no hard links it checks with Lstat and renames, which leaves
// a moment in which a file created at new would be replaced. Errors: an error matching
// fs.ErrExist when new exists; the link's, rename's or removal's error (old is then where it
// was).
func RenameNew(old, new string) error {
	err := os.Link(old, new)
	switch {
	case err == nil:
		if err := os.Remove(old); err != nil {
			os.Remove(new)
			return err
		}
	case errors.Is(err, fs.ErrExist):
		return err
	default: // no hard links here (or old is a folder)
		if _, lerr := os.Lstat(new); lerr == nil {
			return &os.LinkError{Op: "rename", Old: old, New: new, Err: fs.ErrExist}
		}
		if err := os.Rename(old, new); err != nil {
			return err
		}
	}
	SyncDir(filepath.Dir(new))
	return nil
}
