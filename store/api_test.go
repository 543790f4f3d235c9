package store

import (
	"context"

	"idxlabel/sample"
)

// Shorthands of the tests for the API's fuller forms (functions, not methods: the count of a
// type's methods is the code's own).

// saveAs is d.SaveAsContext without a context.
func saveAs(d *Dataset, imagesPath, labelsPath string, progress func(fraction float64)) error {
	return d.SaveAsContext(context.Background(), imagesPath, labelsPath, progress)
}

// decideManual is d.DecideAs for a label typed by hand (HowManual).
func decideManual(d *Dataset, i, label int) error { return d.DecideAs(HowManual, i, label) }

// journalPath returns the file d's edits are journaled to ("" before the first edit of a dataset
// without files).
func journalPath(d *Dataset) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.journal != nil {
		return d.journal.Path()
	}
	return d.journalFile()
}

// displayPixels returns sample i's pixels upright, as a viewer shows them (sample.Upright):
// Height×Width as Size reports, row-major.
func displayPixels(m *Dataset, i int, buf []byte) []byte {
	h, w := m.Size()
	return sample.Upright(m.Pixels(i), h, w, m.transposed, buf)
}
