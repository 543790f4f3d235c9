package store

import (
	"context"

	"idxlabel/sample"
)

// Shorthands of the tests for the API's fuller forms.

// SaveAs is SaveAsContext without a context.
func (d *Dataset) SaveAs(imagesPath, labelsPath string, progress func(fraction float64)) error {
	return d.SaveAsContext(context.Background(), imagesPath, labelsPath, progress)
}

// Decide is DecideAs for a label typed by hand (HowManual).
func (d *Dataset) Decide(i, label int) error { return d.DecideAs(HowManual, i, label) }

// JournalPath returns the file the dataset's edits are journaled to ("" before the first edit
// of a dataset without files).
func (d *Dataset) JournalPath() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.journal != nil {
		return d.journal.Path()
	}
	return d.journalFile()
}

// DisplayPixels returns sample i's pixels upright, as a viewer shows them (sample.Upright):
// Height×Width as Size reports, row-major.
func (m *model) DisplayPixels(i int, buf []byte) []byte {
	h, w := m.Size()
	return sample.Upright(m.Pixels(i), h, w, m.transposed, buf)
}
