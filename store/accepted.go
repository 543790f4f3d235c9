package store

import (
	"fmt"
	"os"
	"path/filepath"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// Accepted suggestions are pseudo-labels: a label set by a step made as HowSuggestedAccepted (a
// model's suggestion accepted, many at once or one at a time) marks its sample accepted
// (model.accepted); any other step that sets the label (a digit typed, a review's decision, a
// batch) takes the mark away; undoing a step gives each sample back the mark it had before
// (the step keeps it, and so does its history record after a save: relabel.go, decide.go). A
// save keeps the marks beside the saved label file (pairfile.AcceptedFile, written once the
// pair is in place, keyed by the saved contents), and opening the pair reads them back, so
// that a reopened pair's next round of suggestions still learns them as pseudo-labels. A file
// that does not match the pair (stale, damaged) is said in Notices and ignored: its marks
// count as typed labels then, never as marks of other samples.
//
// A crash between the save's renames and the marks' own rename leaves the marks of the save
// before: ignored as stale unless the pair's contents came out byte for byte the same (then
// they may mark a sample whose same label was meanwhile typed).

// Accepted returns the samples whose labels are accepted suggestions (State.Accepted), in
// order, deleted ones included. O(N).
func (m *model) Accepted() []int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []int
	for i, a := range m.accepted {
		if a {
			out = append(out, i)
		}
	}
	return out
}

// readAccepted takes the accepted marks kept beside the label file (d.labelsPath) for the pair
// as read (labels: its label array), before any edit: marks on samples without a label are
// left out. A file that cannot be used (stale, damaged, a symbolic link) is a notice. It costs
// nothing without a file; with one, a pass over the image data (its CRC-32C) and the label data
// (its SHA-256).
func (d *Dataset) readAccepted(labels *idx.Array) {
	path := pairfile.AcceptedFile(d.labelsPath)
	if path == "" || labels == nil {
		return
	}
	if _, err := os.Lstat(path); err != nil {
		return // none (the common case): the pair's data is not hashed for nothing
	}
	marks, err := pairfile.ReadAccepted(path, pairfile.KeyOf(labels, d.imageCRC()))
	if err != nil {
		d.notices = append(d.notices, err.Error())
		return
	}
	for _, i := range marks {
		if d.labels[i] != sample.NoLabel {
			d.accepted[i] = true
		}
	}
}

// keepAccepted writes the accepted marks of the pair just saved beside its label file, keyed by
// what the save wrote (written atomically; removed when no sample is marked), so that opening
// the pair finds them; a failure is a note in LastSave's (the pair itself is saved). It holds
// the read lock while it gathers the marks (O(N)); the image data's CRC-32C is computed after
// (its buffers are never written again), and only when a sample is marked.
func (d *Dataset) keepAccepted() {
	d.mu.RLock()
	path := pairfile.AcceptedFile(d.labelsPath)
	var marks []int
	for i, a := range d.accepted {
		if a && d.labels[i] != sample.NoLabel {
			marks = append(marks, i)
		}
	}
	labels := &idx.Array{Header: d.labelHeader, Data: d.labelData}
	base := d.base()
	d.mu.RUnlock()
	if path == "" {
		return
	}
	var err error
	if len(marks) == 0 {
		err = pairfile.RemoveAccepted(path)
	} else {
		err = pairfile.WriteAccepted(path, pairfile.KeyOf(labels, base.crc()), marks)
	}
	if err != nil {
		d.mu.Lock()
		d.lastSave.Notes = append(d.lastSave.Notes, fmt.Sprintf("Which labels are accepted suggestions could not be kept beside %s (%v): when it is opened again they count as typed labels.", filepath.Base(d.labelsPath), err))
		d.mu.Unlock()
	}
}

// AcceptedIn returns, for each sample of s (a Snapshot of this dataset: its k-th is sample
// s.Index[k]), whether its label is an accepted suggestion now (State.Accepted) and s holds a
// label for it: activelearn.Options.Accepted of a round that learns from s. Nil when no sample
// is marked. A sample s names that no longer exists is not marked. O(N).
func (m *model) AcceptedIn(s sample.Set) []bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []bool
	for k, i := range s.Index {
		if i >= 0 && i < len(m.accepted) && m.accepted[i] && s.Labels[k] != sample.NoLabel {
			if out == nil {
				out = make([]bool, s.N)
			}
			out[k] = true
		}
	}
	return out
}
