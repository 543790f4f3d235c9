package build

import (
	"idxlabel/store"
	"idxlabel/ui/adding"
)

// File → Import Images… and File → Append Dataset… read samples from outside in a job with a
// progress dialog and add them as one undoable step after the inputs typed meanwhile: package
// adding's, which File → Import Sheets… shares.

// startProgress starts a job that holds edits, with a progress dialog titled title showing note
// and a bar (infinite: it moves without a fraction) and Cancel (adding.Start).
func (b base) startProgress(title, note string, infinite bool) *adding.Progress {
	return adding.Start(b.jobs, b.d, b.win, title, note, infinite)
}

// addition is what a job brings in: the samples, and the class names the dataset has once they
// are added (nil: the names do not change).
type addition = adding.Addition

// addAfterInputs adds a to ds as one undoable step after the inputs that wait (adding.AfterInputs).
func (b base) addAfterInputs(ds *store.Dataset, how store.How, a addition, done func(first int)) {
	adding.AfterInputs(b.h, ds, how, a, done)
}
