package store

import (
	"fmt"
	"math"
	"slices"
	"time"

	"idxlabel/idx"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
)

// action is one step on the undo or redo stack. apply and revert run with d.mu held; remap
// carries it through a save (carry.go) and history encodes it for the journal begun after one
// (history.go).
type action interface {
	apply(d *Dataset) Change
	revert(d *Dataset) Change
	String() string
	remap(r renumbering, applied bool) action
	history(e enc) enc
}

// edit is an action a person makes (not one a save turned into another): record is its journal
// payload (see journal.go).
type edit interface {
	action
	record() []byte
}

// relabel sets the labels of some samples; old is filled in when it is first applied.
type relabel struct {
	provenance
	idx []int32
	to  []int32
	old []int32
}

func (a *relabel) apply(d *Dataset) Change {
	a.old = make([]int32, len(a.idx))
	for k, i := range a.idx {
		a.old[k] = d.labels[i]
		d.labels[i] = a.to[k]
	}
	return Change{Kind: Relabelled, Indices: ints(a.idx)}
}

func (a *relabel) revert(d *Dataset) Change {
	for k, i := range a.idx {
		d.labels[i] = a.old[k]
	}
	return Change{Kind: Relabelled, Indices: ints(a.idx)}
}

func (a *relabel) String() string {
	if len(a.idx) == 0 { // never on a stack (a journal's relabel of no sample is refused)
		return "Relabel no samples"
	}
	if len(a.idx) == 1 {
		return numfmt.Sprintf("Relabel sample %d as %s", a.idx[0], labelText(a.to[0]))
	}
	if same(a.to) {
		return numfmt.Sprintf("Relabel %d samples as %s", len(a.idx), labelText(a.to[0]))
	}
	return numfmt.Sprintf("Relabel %d samples", len(a.idx))
}

// appendSamples adds samples at the end; pixels are in stored order. first is where the
// samples went when it was last applied.
type appendSamples struct {
	provenance
	labels []int32
	pixels []byte
	first  int
}

func (a *appendSamples) apply(d *Dataset) Change {
	a.first = len(d.labels)
	d.labels = append(d.labels, a.labels...)
	d.deleted = append(d.deleted, make([]bool, len(a.labels))...)
	d.reviewed = append(d.reviewed, make([]bool, len(a.labels))...)
	d.added = append(d.added, a.pixels...)
	return Change{Kind: Appended, Indices: span(a.first, len(d.labels))}
}

// revert removes the samples from the end. Their pixels stay in d.added's old buffer for anyone
// who holds them (Pixels, Snapshot): the capacity is clipped, so the next append copies to a new
// buffer instead of writing over them.
func (a *appendSamples) revert(d *Dataset) Change {
	n := len(d.labels) - len(a.labels)
	d.labels = d.labels[:n]
	d.deleted = d.deleted[:n]
	d.reviewed = d.reviewed[:n]
	m := len(d.added) - len(a.pixels)
	d.added = d.added[:m:m]
	return Change{Kind: Truncated, Indices: span(n, n+len(a.labels))}
}

func (a *appendSamples) String() string { return appendName(a.labels) }

// appendName describes an append of samples with these labels, before and after a save.
func appendName(labels []int32) string {
	if len(labels) == 1 {
		return "Add a sample labelled " + labelText(labels[0])
	}
	return numfmt.Sprintf("Add %d samples", len(labels))
}

// setDeleted marks samples deleted (to = true) or restores them.
type setDeleted struct {
	provenance
	idx []int32
	to  bool
}

func (a *setDeleted) apply(d *Dataset) Change {
	for _, i := range a.idx {
		d.deleted[i] = a.to
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *setDeleted) revert(d *Dataset) Change {
	for _, i := range a.idx {
		d.deleted[i] = !a.to
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *setDeleted) String() string {
	verb := "Delete"
	if !a.to {
		verb = "Restore"
	}
	if len(a.idx) == 1 {
		return numfmt.Sprintf("%s sample %d", verb, a.idx[0])
	}
	return numfmt.Sprintf("%s %d samples", verb, len(a.idx))
}

// decide records a review decision on one sample: its label (changed or kept) and that it was
// reviewed.
type decide struct {
	provenance
	i, to, old  int32
	wasReviewed bool
}

func (a *decide) apply(d *Dataset) Change {
	a.old, a.wasReviewed = d.labels[a.i], d.reviewed[a.i]
	d.labels[a.i], d.reviewed[a.i] = a.to, true
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) revert(d *Dataset) Change {
	d.labels[a.i], d.reviewed[a.i] = a.old, a.wasReviewed
	return Change{Kind: Relabelled, Indices: []int{int(a.i)}}
}

func (a *decide) String() string {
	if a.to == a.old {
		return numfmt.Sprintf("Keep label %s of sample %d", labelText(a.to), a.i)
	}
	return numfmt.Sprintf("Relabel sample %d as %s (review)", a.i, labelText(a.to))
}

// Decide records a person's decision on sample i in a review of suspects: its label becomes
// label (which may be the label it has: the decision to keep it) and it is marked reviewed, as
// one undoable, journaled step; the change log says how: manual (DecideAs says otherwise).
// Errors as for Relabel.
func (d *Dataset) Decide(i, label int) error { return d.decideAs(HowManual, i, label) }

func (d *Dataset) decideAs(how How, i, label int) error {
	return d.edit(func() (edit, error) {
		if err := d.checkIndex(i); err != nil {
			return nil, err
		}
		if err := d.checkLabel(label); err != nil {
			return nil, err
		}
		return &decide{provenance: madeNow(how), i: int32(i), to: int32(label)}, nil
	})
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
	return d.setLabels(relabelHow(len(indices)), indices, labels)
}

func (d *Dataset) setLabels(how How, indices, labels []int) error {
	if len(indices) != len(labels) {
		return fmt.Errorf("SetLabels: %d indices but %d labels", len(indices), len(labels))
	}
	return d.edit(func() (edit, error) {
		a := &relabel{provenance: madeNow(how)}
		seen := map[int]bool{}
		for k, i := range indices {
			if err := d.checkIndex(i); err != nil {
				return nil, err
			}
			if err := d.checkLabel(labels[k]); err != nil {
				return nil, err
			}
			if int(d.labels[i]) != labels[k] && !seen[i] {
				seen[i] = true
				a.idx = append(a.idx, int32(i))
				a.to = append(a.to, int32(labels[k]))
			}
		}
		if len(a.idx) == 0 {
			return nil, nil
		}
		return a, nil
	})
}

// Append adds samples at the end (display pixels, Height×Width each, transposed for storage
// when the dataset is Transposed) as one undoable, journaled step, and returns the index of the
// first. The change log says they were imported (AppendAs says otherwise). Errors: a sample with
// the wrong number of pixels, a label the dtype cannot hold, ErrRecoveryPending, or the
// journal's write error.
func (d *Dataset) Append(samples []Sample) (int, error) {
	return d.appendAs(HowAddedImported, samples)
}

func (d *Dataset) appendAs(how How, samples []Sample) (int, error) {
	if len(samples) == 0 {
		return d.Len(), nil
	}
	first := 0
	err := d.edit(func() (edit, error) {
		n := d.h * d.w
		a := &appendSamples{provenance: madeNow(how), labels: make([]int32, len(samples)), pixels: make([]byte, 0, n*len(samples))}
		for k, s := range samples {
			if len(s.Pixels) != n {
				return nil, fmt.Errorf("sample %d has %d pixels; this dataset's samples are %d×%d = %d", k, len(s.Pixels), d.h, d.w, n)
			}
			if err := d.checkLabel(s.Label); err != nil {
				return nil, err
			}
			a.labels[k] = int32(s.Label)
			h, w := d.Size()
			a.pixels = sample.AppendStored(a.pixels, s.Pixels, h, w, d.transposed)
		}
		first = len(d.labels)
		return a, nil
	})
	return first, err
}

// Delete marks samples deleted (they stay, dimmed, until the next save removes them) as one
// undoable, journaled step; samples already deleted are left out. Errors as for Relabel.
func (d *Dataset) Delete(indices []int) error { return d.setDeleted(indices, true) }

// Restore unmarks deleted samples as one undoable, journaled step. Errors as for Relabel.
func (d *Dataset) Restore(indices []int) error { return d.setDeleted(indices, false) }

func (d *Dataset) setDeleted(indices []int, to bool) error {
	return d.edit(func() (edit, error) {
		a := &setDeleted{provenance: madeNow(HowDeleted), to: to}
		if !to {
			a.how = howRestore
		}
		seen := map[int]bool{}
		for _, i := range indices {
			if err := d.checkIndex(i); err != nil {
				return nil, err
			}
			if d.deleted[i] != to && !seen[i] {
				seen[i] = true
				a.idx = append(a.idx, int32(i))
			}
		}
		if len(a.idx) == 0 {
			return nil, nil
		}
		return a, nil
	})
}

// edit makes one edit: build, called with d.mu held, makes the step from the current state (nil
// when there is nothing to do, or an error for a bad index or label), and commit journals and
// applies it. Subscribers are told (notify) once d.mu is released.
func (d *Dataset) edit(build func() (edit, error)) error {
	ch, err := func() (*Change, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		a, err := build()
		if err != nil || a == nil {
			return nil, err
		}
		return d.commit(a.record(), func() Change { return d.perform(a) })
	}()
	if ch != nil {
		d.notify(*ch)
	}
	return err
}

// commit is the gate every edit, undo and redo passes (d.mu held): the dataset must take edits
// (not closed, read-only, saving or awaiting a decision on a journal found at Open), and the
// step's journal record must be written and synced; only then does apply change the samples,
// so an edit is shown as done only once it would survive a crash. Errors: ErrClosed,
// ErrReadOnly, ErrSaving, ErrRecoveryPending, or the journal's write error (ErrJournalWrite).
func (d *Dataset) commit(record []byte, apply func() Change) (*Change, error) {
	switch {
	case d.closed:
		return nil, ErrClosed
	case d.readOnly:
		return nil, ErrReadOnly
	case d.saving:
		return nil, ErrSaving
	case d.recovery != nil:
		return nil, ErrRecoveryPending
	}
	if err := d.writeJournal(record); err != nil {
		return nil, err
	}
	ch := apply()
	return &ch, nil
}

// perform applies a, pushes it on the undo stack and clears redo (d.mu held). When the state
// the files hold was only reachable by redoing, it is not any more (see Dirty).
func (d *Dataset) perform(a action) Change {
	ch := d.changed(a.apply(d))
	if d.clean > len(d.undo) {
		d.clean = -1
	}
	d.undo = append(d.undo, a)
	d.redo = d.redo[:0]
	d.logDo(a)
	return ch
}

// Undo reverts the last step, journaled, and returns its description ("Relabel 3 samples as 7");
// false when there is nothing to undo. The history outlives a save, renumbered; what a save
// makes of each step (a saved deletion leaves it, a saved append is undone by marking its
// samples deleted) is in carry.go. Errors: ErrRecoveryPending or the journal's write error
// (nothing is undone then).
func (d *Dataset) Undo() (string, bool, error) { return d.step(true) }

// Redo re-applies the last undone step, journaled; as Undo.
func (d *Dataset) Redo() (string, bool, error) { return d.step(false) }

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
			d.logStep(a, undo, when)
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

// performStep moves the top action from the undo stack to redo (reverting it) or back
// (re-applying it); the stack must not be empty (d.mu held).
func (d *Dataset) performStep(undo bool) (action, Change) {
	from, to := &d.redo, &d.undo
	if undo {
		from, to = &d.undo, &d.redo
	}
	a := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	var ch Change
	if undo {
		ch = a.revert(d)
	} else {
		ch = a.apply(d)
	}
	ch = d.changed(ch)
	*to = append(*to, a)
	return a, ch
}

// UndoName and RedoName describe what Undo and Redo would do ("Relabel 3 samples as 7", "Delete
// 5,923 samples": counts and sample numbers with thousands separators, as the window writes
// them, numfmt), or "" when there is nothing; for menu items.
func (d *Dataset) UndoName() string { return d.topName(true) }

// RedoName: see UndoName.
func (d *Dataset) RedoName() string { return d.topName(false) }

func (d *Dataset) topName(undo bool) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	s := d.redo
	if undo {
		s = d.undo
	}
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1].String()
}

func (d *Dataset) checkIndex(i int) error {
	if i < 0 || i >= len(d.labels) {
		return fmt.Errorf("sample %d does not exist (the dataset has %d)", i, len(d.labels))
	}
	return nil
}

// checkLabel refuses labels the label file's dtype cannot hold.
func (d *Dataset) checkLabel(l int) error {
	h := d.labelHeader
	if d.ownLabels {
		h = idx.Header{} // any label: the next save chooses a dtype that holds it
	}
	lo, hi := labelRange(h)
	if l < lo || l > hi {
		return fmt.Errorf("label %d does not fit the labels' dtype %s (%d–%d)", l, d.labelHeader.Type, lo, hi)
	}
	return nil
}

// labelRange returns the labels a label file of header h can hold; an unlabelled dataset takes
// 0–MaxInt32 (it is saved as ubyte or int32, whichever fits).
func labelRange(h idx.Header) (int, int) {
	switch h.Type {
	case idx.UByte:
		return 0, 255
	case idx.SByte:
		return math.MinInt8, math.MaxInt8
	case idx.Int16:
		return math.MinInt16, math.MaxInt16
	case idx.Int32:
		return math.MinInt32 + 1, math.MaxInt32
	}
	return 0, math.MaxInt32
}

// stepLabels returns every label step a sets or restores when done or undone (sample.NoLabel among
// them when it restores the lack of a label).
func stepLabels(a action) []int32 {
	switch a := a.(type) {
	case *relabel:
		return slices.Concat(a.to, a.old)
	case *decide:
		return []int32{a.to, a.old}
	case *appendSamples:
		return a.labels
	case *savedAppend:
		return a.labels
	}
	return nil
}

func labelText(l int32) string {
	if l == sample.NoLabel {
		return "none"
	}
	return fmt.Sprint(l)
}

func same(s []int32) bool { return !slices.ContainsFunc(s, func(v int32) bool { return v != s[0] }) }

func ints(s []int32) []int {
	out := make([]int, len(s))
	for k, v := range s {
		out[k] = int(v)
	}
	return out
}

func span(from, to int) []int {
	out := make([]int, to-from)
	for k := range out {
		out[k] = from + k
	}
	return out
}
