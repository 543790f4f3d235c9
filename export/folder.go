package export

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"idxlabel/internal/atomicfile"
)

// folderOutput is a writer whose output is a folder built whole and renamed into place: the
// health report (WriteReportFolder) and the Hugging Face export (WriteParquet).
type folderOutput struct {
	what               string // "the report": what errors say was being written
	marker, markerText string // the marker file at its top and its content
	// place returns the parent folder and the temporary folders' name prefix (os.MkdirTemp adds
	// digits; an earlier output set aside while it is replaced adds oldSuffix).
	place func(dir string) (parent, pattern string)
	// replaceable refuses what may not be replaced at dir (from its Lstat); find lists an
	// earlier output (failing, wrapping ErrInTheWay, for anything else).
	replaceable func(dir string, fi fs.FileInfo) error
	find        func(dir, name string) (*tree, error)
}

// write builds the folder dir with build (given the temporary folder, which holds the marker)
// under a temporary name beside dir, its marker written first and held while it runs
// (atomicfile.Hold), then puts it in place of dir (replaceTree: an earlier output is replaced,
// anything else refused). A failed or cancelled build leaves nothing. Errors: the context's,
// ErrInTheWay, or a write error naming dir (not the temporary folder).
func (o folderOutput) write(ctx context.Context, dir string, build func(tmp string) error) error {
	parent, pattern := o.place(dir)
	tmp, err := os.MkdirTemp(parent, pattern+"*")
	if err != nil {
		return fmt.Errorf("%s: cannot create %s's folder in %s: %w", dir, o.what, parent, pathCause(err))
	}
	os.Chmod(tmp, 0o755) // MkdirTemp makes it private; the output is an ordinary folder
	marker := filepath.Join(tmp, o.marker)
	err = atomicfile.WriteNew(marker, []byte(o.markerText))
	if err == nil {
		var held *os.File
		if held, err = atomicfile.Hold(marker); held != nil {
			defer held.Close()
		}
	}
	if err == nil {
		err = build(tmp)
	}
	if err != nil {
		os.RemoveAll(tmp)
		if ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("%s: writing %s: %w", dir, o.what, pathCause(err))
	}
	if err := replaceTree(tmp, dir, o.marker, func(fi fs.FileInfo) error { return o.replaceable(dir, fi) }, o.find); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}
