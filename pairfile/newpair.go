package pairfile

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"idxlabel/idx"
)

// WriteNewPair writes a pair a writer made from other files (import, convert, the window's
// opening of a Parquet, CSV or NumPy file) under c, the outputs' claim it made before it read
// anything: it checks the arrays (CheckPair), writes the pair together, atomically (Write: when
// ctx is cancelled before the files are put in place, nothing is replaced), then the class names
// to namesPath (WriteClassNames), or removes a class-name file left there by an earlier write
// when there are none. progress (may be nil) is told the fraction written. The three paths must
// be outputs of c. Errors: those of CheckPair, Claim.Write and WriteClassNames, or the removal's.
func (c *Claim) WriteNewPair(ctx context.Context, imagesPath, labelsPath, namesPath string, images, labels *idx.Array, names map[int]string, progress func(float64)) error {
	if _, err := CheckPair(imagesPath, images, labelsPath, labels, 0, 0); err != nil {
		return err
	}
	files := []File{{Path: imagesPath, Data: images}}
	if labels != nil {
		files = append(files, File{Path: labelsPath, Data: labels})
	}
	if err := c.Write(ctx, files, progress); err != nil {
		return err
	}
	if len(names) == 0 {
		sweepSideFile(namesPath)
		if err := os.Remove(namesPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return WriteClassNames(namesPath, names)
}
