package store

import (
	"context"
	"errors"
	"fmt"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// WriteSamples writes the samples indices (sample numbers, in the order given, each once, none
// deleted) as a new pair at imagesPath and labelsPath, as SaveAsContext writes a dataset: images in
// the dtype and shape they were read in, streamed from the dataset's buffers in the order given
// (planImages), labels as edited in their dtype and columns (buildLabels), ".gz" names written
// gzip, each file to a temporary name, fsynced,
// decoded back and compared, then put in place together with a save record (as WritePair).
// labelsPath "" writes images alone, refused when one of the samples has a label. The dataset
// itself is not changed: its files, journal and edits stay as they are. The files are written
// under c, the claim of the outputs (ClaimOutputs: refused existing files, taken their locks),
// which the caller releases; no class-name file is written here. When ctx is cancelled before
// the files are put in place, nothing is replaced; once they are, the accepted-marks file beside
// them is removed (Claim.Write: the dataset's marks are not carried over). Memory: 4 bytes a sample for the rows, the
// labels' array, and the appended samples' values when the dtype is not ubyte; the images are
// not copied (the buffers they are read from are never written again). Errors: an
// index out of range, repeated or deleted; a label the dtype cannot hold; ErrClosed; the
// write's errors, naming the file; ErrNotClaimed when c does not hold the paths.
func (d *Dataset) WriteSamples(ctx context.Context, c *pairfile.Claim, indices []int, imagesPath, labelsPath string, progress func(float64)) error {
	if progress == nil {
		progress = func(float64) {}
	}
	images, labels, err := d.buildSamples(indices, labelsPath != "")
	if err != nil {
		return err
	}
	files := []pairfile.File{{Path: imagesPath, Data: images}}
	if labels != nil {
		files = append(files, pairfile.File{Path: labelsPath, Data: labels})
	}
	progress(0.1)
	if err := c.Write(ctx, files, progress); err != nil {
		return err
	}
	progress(1)
	return nil
}

// buildSamples assembles, under the read lock, the images of the samples indices as rows of the
// dataset's buffers (planImages: no copy of them) and their labels' array (nil when withLabels is
// false, refused then when a sample has one).
func (d *Dataset) buildSamples(indices []int, withLabels bool) (idx.Source, *idx.Array, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.closed {
		return nil, nil, ErrClosed
	}
	seen := make([]bool, len(d.labels))
	for _, i := range indices {
		if i < 0 || i >= len(d.labels) || seen[i] || d.deleted[i] {
			return nil, nil, fmt.Errorf("sample %d is not a live sample of this dataset, or is given twice", i)
		}
		seen[i] = true
	}
	images := d.planImages(indices) // rows of the dataset's buffers, written as they are read
	if !withLabels {
		for _, i := range indices {
			if d.labels[i] != sample.NoLabel {
				return nil, nil, errors.New("these samples have labels: choose a label file to write them to")
			}
		}
		return images, nil, nil
	}
	labels, err := d.buildLabels(indices)
	if err != nil {
		return nil, nil, err
	}
	return images, labels, nil
}
