package store

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"

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
// the files are put in place, nothing is replaced; once they are, the accepted-marks file that
// was beside the labels is removed (Claim.Write) and the samples written whose labels are
// accepted suggestions now (State.Accepted) are marked in the new pair's own (Claim.KeepAccepted:
// renumbered to their places in it, keyed by the labels and images written, so that they stay
// pseudo-labels when the pair is opened or `idxlabel suggest` reads it). Memory: 4 bytes a sample
// for the rows, the labels' array, 8 bytes a mark carried, and the appended samples' values
// when the dtype is not ubyte; the images are not copied (the buffers they are read from are
// never written again; with marks they are read once more for their CRC-32C). Errors: an
// index out of range, repeated or deleted; a label the dtype cannot hold; ErrClosed; the
// write's errors, naming the file; ErrNotClaimed when c does not hold the paths.
func (d *Dataset) WriteSamples(ctx context.Context, c *pairfile.Claim, indices []int, imagesPath, labelsPath string, progress func(float64)) error {
	if progress == nil {
		progress = func(float64) {}
	}
	images, labels, marks, err := d.buildSamples(indices, labelsPath != "")
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
	if len(marks) > 0 {
		crc := crc32.New(castagnoli)
		if err := images.WriteData(crc); err != nil {
			return err
		}
		if err := c.KeepAccepted(labelsPath, pairfile.KeyOf(labels, crc.Sum32()), marks); err != nil {
			return fmt.Errorf("the pair is written, but which of its labels are accepted suggestions could not be kept beside %s (when it is opened they count as typed labels): %w", labelsPath, err)
		}
	}
	progress(1)
	return nil
}

// buildSamples assembles, under the read lock, the images of the samples indices as rows of the
// dataset's buffers (planImages: no copy of them), their labels' array (nil when withLabels is
// false, refused then when a sample has one) and the places k, ascending, whose sample
// indices[k] has a label that is an accepted suggestion (nil when none).
func (d *Dataset) buildSamples(indices []int, withLabels bool) (idx.Source, *idx.Array, []int, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.closed {
		return nil, nil, nil, ErrClosed
	}
	seen := make([]bool, len(d.labels))
	for _, i := range indices {
		if i < 0 || i >= len(d.labels) || seen[i] || d.deleted[i] {
			return nil, nil, nil, fmt.Errorf("sample %d is not a live sample of this dataset, or is given twice", i)
		}
		seen[i] = true
	}
	images := d.planImages(indices) // rows of the dataset's buffers, written as they are read
	if !withLabels {
		for _, i := range indices {
			if d.labels[i] != sample.NoLabel {
				return nil, nil, nil, errors.New("these samples have labels: choose a label file to write them to")
			}
		}
		return images, nil, nil, nil
	}
	labels, err := d.buildLabels(indices)
	if err != nil {
		return nil, nil, nil, err
	}
	var marks []int
	for k, i := range indices {
		if d.accepted[i] && d.labels[i] != sample.NoLabel {
			marks = append(marks, k)
		}
	}
	return images, labels, marks, nil
}
