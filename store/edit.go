package store

import (
	"fmt"
	"time"

	"idxlabel/pairfile"
)

// The session's edits: every edit, undo and redo passes the gate (takesEdits), is journaled and
// synced (sessionJournal.append), and only then is applied to the model (perform, performStep) and
// logged (changelog.go); subscribers are told once d.mu is released. The model builds and
// checks each step (modeledit.go).

// DecideAs records a person's decision on sample i in a review of suspects: its label becomes
// label (which may be the label it has: the decision to keep it) and it is marked reviewed, as
// one undoable, journaled step. how says how the label was chosen, and the change log says it:
// HowSuspectAccepted when the person accepted the suggestion, HowManual when they typed a label.
// Errors: as Relabel, and a How of another kind.
func (d *Dataset) DecideAs(how How, i, label int) error {
	if err := checkHow(recDecide, how); err != nil || how == HowUnknown {
		return fmt.Errorf("DecideAs: %q is not how a label is decided", how)
	}
	return d.edit(func() (edit, error) { return newDecide(&d.model, how, i, label) })
}

// Relabel sets the label of every sample in indices to label, as one undoable, journaled step
// (a batch of 500 is one step). Samples that already have the label are left out; when none is
// left it does nothing. Errors: an index out of range, a label the label file's dtype cannot
// hold (ubyte 0–255 for MNIST), ErrRecoveryPending, or the journal's write error (the edit is
// then not made).
func (d *Dataset) Relabel(indices []int, label int) error {
	labels := make([]int, len(indices))
	for k := range labels {
		labels[k] = label
	}
	return d.SetLabels(indices, labels)
}

// SetLabels sets sample indices[k] to labels[k] for every k, as one undoable, journaled step.
// The change log says how: manual when one sample is named, batch for several (SetLabelsAs says
// otherwise); Relabel likewise. Errors as for Relabel, and indices and labels of different
// lengths.
func (d *Dataset) SetLabels(indices, labels []int) error {
	how := relabelHow(len(indices))
	return d.edit(func() (edit, error) { return newRelabel(&d.model, how, indices, labels) })
}

// SetLabelsAs is SetLabels for a caller that says how the labels were chosen: HowManual,
// HowBatch, HowSuspectAccepted or HowSuggestedAccepted (a model's suggestion accepted for
// unlabelled samples). Errors: as SetLabels, and a How of another kind.
func (d *Dataset) SetLabelsAs(how How, indices, labels []int) error {
	if err := checkHow(recRelabel, how); err != nil || how == HowUnknown {
		return fmt.Errorf("SetLabelsAs: %q is not how labels are set", how)
	}
	return d.edit(func() (edit, error) { return newRelabel(&d.model, how, indices, labels) })
}

// Append adds samples at the end (display pixels, Height×Width each, transposed for storage
// when the dataset is Transposed) as one undoable, journaled step, and returns the index of the
// first. The change log says they were imported (AppendAs says otherwise). Errors: a sample with
// the wrong number of pixels, a label the dtype cannot hold, ErrRecoveryPending, or the
// journal's write error.
func (d *Dataset) Append(samples []Sample) (int, error) {
	return d.AppendAs(HowAddedImported, samples)
}

// AppendAs is Append for a caller that says where the samples come from: HowAddedDrawn or
// HowAddedImported. Errors: as Append, and a How of another kind.
func (d *Dataset) AppendAs(how How, samples []Sample) (int, error) {
	if how != HowAddedDrawn && how != HowAddedImported {
		return 0, fmt.Errorf("AppendAs: %q is not how samples are added", how)
	}
	if len(samples) == 0 {
		return d.Len(), nil
	}
	first := 0
	err := d.edit(func() (edit, error) {
		a, err := newAppend(&d.model, how, samples)
		if err == nil {
			first = len(d.labels)
		}
		return a, err
	})
	return first, err
}

// Delete marks samples deleted (they stay, dimmed, until the next save removes them) as one
// undoable, journaled step; samples already deleted are left out. Errors as for Relabel.
func (d *Dataset) Delete(indices []int) error {
	return d.edit(func() (edit, error) { return newSetDeleted(&d.model, indices, true) })
}

// Restore unmarks deleted samples as one undoable, journaled step. Errors as for Relabel.
func (d *Dataset) Restore(indices []int) error {
	return d.edit(func() (edit, error) { return newSetDeleted(&d.model, indices, false) })
}

// edit makes one edit: build, called with d.mu held, makes the step from the current state (nil
// when there is nothing to do, or an error for a bad index or label), and commit journals it;
// then the model applies it (perform) and the change log records it. Subscribers are told
// (notify) once d.mu is released.
func (d *Dataset) edit(build func() (edit, error)) error {
	ch, err := func() (*Change, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		a, err := build()
		if err != nil || a == nil {
			return nil, err
		}
		return d.commit(a.record(), func() Change {
			ch := d.perform(a)
			d.log.do(&d.model, a)
			return ch
		})
	}()
	if ch != nil {
		d.notify(*ch)
	}
	return err
}

// commit is the gate every edit, undo and redo passes (d.mu held): the dataset must take edits
// (takesEdits), and the step's journal record must be written and synced; only then does apply
// change the samples, so an edit is shown as done only once it would survive a crash. Errors:
// those of takesEdits, or the journal's write error (ErrJournalWrite; also when the journal would
// start beside a file whose lock the dataset does not hold: journalMoved).
func (d *Dataset) commit(record []byte, apply func() Change) (*Change, error) {
	if err := d.takesEdits(); err != nil {
		return nil, err
	}
	if d.journal == nil && d.journalPath == "" && len(d.locks) > 0 && !d.locks.HoldsPair(d.imagesPath, d.labelsPath) {
		return nil, journalMoved(pairfile.Key(d.imagesPath, d.labelsPath))
	}
	if err := d.sessionJournal.append(d.journalFile, d.pair(), d.baseRecord, record); err != nil {
		return nil, err
	}
	ch := apply()
	return &ch, nil
}

// takesEdits says whether the session takes an edit or a save now (d.mu held): not after Close
// (ErrClosed), never when opened read-only (ErrReadOnly), not while a save writes the files
// (ErrSaving), and not while a journal found at Open awaits a decision (ErrRecoveryPending).
func (d *Dataset) takesEdits() error {
	switch {
	case d.closed:
		return ErrClosed
	case d.readOnly:
		return ErrReadOnly
	case d.saving:
		return ErrSaving
	case d.recovery != nil:
		return ErrRecoveryPending
	}
	return nil
}

// Undo reverts the last step, journaled, and returns its description ("Relabel 3 samples as 7");
// false when there is nothing to undo. The history outlives a save, renumbered; what a save
// makes of each step (a saved deletion leaves it, a saved append is undone by marking its
// samples deleted) is in carry.go. Errors: ErrRecoveryPending or the journal's write error
// (nothing is undone then).
func (d *Dataset) Undo() (string, bool, error) { return d.step(true) }

// Redo re-applies the last undone step, journaled; as Undo.
func (d *Dataset) Redo() (string, bool, error) { return d.step(false) }

// step is Undo (undo true) or Redo: the step is journaled, then the model moves it between its
// stacks and the change log records it.
func (d *Dataset) step(undo bool) (string, bool, error) {
	var name string
	ch, err := func() (*Change, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if len(d.undo) == 0 && undo || len(d.redo) == 0 && !undo {
			return nil, nil
		}
		rec := recRedo
		if undo {
			rec = recUndo
		}
		when := time.Now().UnixMilli()
		return d.commit(stepRecord(rec, when), func() Change {
			a, ch := d.performStep(undo)
			d.log.step(&d.model, a, undo, when)
			name = a.String()
			return ch
		})
	}()
	if ch == nil {
		return "", false, err
	}
	d.notify(*ch)
	return name, true, nil
}
