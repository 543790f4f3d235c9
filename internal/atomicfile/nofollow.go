package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Files beside a dataset (its journal, lock, save record, change log, class-name and sources
// files, scan cache, a report's files) are opened without following symbolic links: a link
// planted in their place, by anyone who can write the dataset's folder, must never send a read or
// a write to another file. OpenNoFollow opens one; WriteFileNoFollow replaces one whole.

// OpenNoFollow opens the file at path with flag (os.O_RDONLY, or os.O_WRONLY|os.O_CREATE…; perm
// when it creates one) without following a symbolic link there, and only when it is a regular
// file. Whatever is at path is looked at first (Lstat: a link, folder, FIFO, socket or device is
// refused, nothing opened); the open itself does not follow a link (NoFollow: O_NOFOLLOW on Unix,
// FILE_FLAG_OPEN_REPARSE_POINT on Windows, which opens a link itself) nor wait for a FIFO's
// writer; and the file opened must be a regular file, the one path names after the open (Lstat
// again, os.SameFile), so a swap made in between is refused too. It returns the file and its
// FileInfo. Errors: an *fs.PathError wrapping ErrNotRegular that names what is there ("a
// symbolic link"), or the open's.
func OpenNoFollow(path string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, notRegular("open", path, fi.Mode())
	}
	f, fi, err := openRegular(path, flag|NoFollow, perm)
	if err != nil {
		if followRefused(err) {
			return nil, nil, notRegular("open", path, fs.ModeSymlink)
		}
		return nil, nil, err // ErrNotRegular too, naming what was opened (a link itself on Windows)
	}
	li, err := os.Lstat(path)
	if err != nil || !li.Mode().IsRegular() || !os.SameFile(fi, li) {
		f.Close()
		mode := fs.ModeIrregular
		if err == nil {
			mode = li.Mode()
		}
		return nil, nil, notRegular("open", path, mode)
	}
	return f, fi, nil
}

// notRegular is the refusal to op (open, write) path, found to be of mode m.
func notRegular(op, path string, m fs.FileMode) error {
	return &fs.PathError{Op: op, Path: path, Err: fmt.Errorf("%w (%s); refusing to follow or use it", ErrNotRegular, Kind(m))}
}

// WriteFileNoFollow writes target atomically with write, as WriteFile does, for a file beside a
// dataset: whatever is at target must be a regular file or nothing (Lstat: a symbolic link is
// refused, not followed, so the file it names is never written), and the new content is renamed
// over the name target itself, with the permissions of the file it replaces (0644 for a new one).
// Errors: an *fs.PathError wrapping ErrNotRegular naming what is there, and those of WriteFile.
func WriteFileNoFollow(target string, write func(w io.Writer) error) error {
	fi, err := os.Lstat(target)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return notRegular("write", target, fi.Mode())
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return writeFile(target, target, write)
}

// ReadFileNoFollow reads the whole file at path (OpenNoFollow), at most limit bytes (limit ≥ 0),
// without holding more than that: a file larger is an error naming it ("more than limit bytes").
// Errors: those of OpenNoFollow and reading, naming path.
func ReadFileNoFollow(path string, limit int64) ([]byte, error) {
	f, _, err := OpenNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", path, limit)
	}
	return b, nil
}

// WriteNew writes b to name, a file that must not exist yet (a file of a folder being built, such
// as a report's or an export's temporary folder): created with O_EXCL, never through a symbolic
// link (OpenNoFollow). Errors: fs.ErrExist when name exists (a link included), and the write's
// or close's error.
func WriteNew(name string, b []byte) error {
	f, _, err := OpenNoFollow(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
