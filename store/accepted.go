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

// Reviewed marks (model.reviewed: a review's decision, Decide) are kept the same way, beside
// the label file in their own file (pairfile.ReviewedMarks), so that a review spread over several
// sessions does not show the samples already decided as undecided again. A mark stays when the
// sample is relabelled afterwards (a relabel is a decision too); undoing a decision gives the
// sample back the mark it had before it (a mark read from the file stays). A file that does not
// match the pair is said in Notices and ignored: its samples count as not reviewed. A pair
// derived from this one (Save Shown As: writesamples.go, and the CLI's writers) keeps none.

// sideMark is one kind of marks a save keeps beside the label file: its file's kind, the
// model's marks (d.mu held when taken), whether a mark holds only on a labelled sample, and what
// the marks are and what losing them means (for a save's note).
type sideMark struct {
	kind     pairfile.MarksKind
	marks    []bool
	labelled bool
	what     string
	lost     string
}

// sideMarks returns the marks a save keeps (m.mu held).
func sideMarks(m *model) []sideMark {
	return []sideMark{
		{pairfile.AcceptedMarks, m.accepted, true, "Which labels are accepted suggestions", "they count as typed labels"},
		{pairfile.ReviewedMarks, m.reviewed, false, "Which samples were reviewed", "they count as not reviewed"},
	}
}

// readMarks takes the marks of each kind kept beside the label file (d.labelsPath) for the pair
// as read (labels: its label array), before any edit: accepted marks on samples without a label
// are left out. A file that cannot be used (stale, damaged, a symbolic link) is a notice. It
// costs nothing without a file; with one, a pass over the image data (its CRC-32C) and the label
// data (its SHA-256), once for both kinds.
func (d *Dataset) readMarks(labels *idx.Array) {
	if d.labelsPath == "" || labels == nil {
		return
	}
	var key *pairfile.AcceptedKey
	for _, s := range sideMarks(&d.model) {
		path := s.kind.File(d.labelsPath)
		if _, err := os.Lstat(path); err != nil {
			continue // none (the common case): the pair's data is not hashed for nothing
		}
		if key == nil {
			k := pairfile.KeyOf(labels, d.imageCRC())
			key = &k
		}
		marks, err := s.kind.Read(path, *key)
		if err != nil {
			d.notices = append(d.notices, err.Error())
			continue
		}
		for _, i := range marks {
			if !s.labelled || d.labels[i] != sample.NoLabel {
				s.marks[i] = true
			}
		}
	}
}

// keepMarks writes the marks of each kind of the pair just saved beside its label file, keyed by
// what the save wrote (written atomically; removed when no sample is marked), so that opening
// the pair finds them; a failure is a note in LastSave's (the pair itself is saved). It holds
// the read lock while it gathers the marks (O(N)); the image data's CRC-32C is computed after
// (its buffers are never written again), once, and only when a sample is marked.
func (d *Dataset) keepMarks() {
	d.mu.RLock()
	sides := sideMarks(&d.model)
	marks := make([][]int, len(sides))
	for k, s := range sides {
		for i, a := range s.marks {
			if a && (!s.labelled || d.labels[i] != sample.NoLabel) {
				marks[k] = append(marks[k], i)
			}
		}
	}
	labelsPath := d.labelsPath
	labels := &idx.Array{Header: d.labelHeader, Data: d.labelData}
	base := d.base()
	d.mu.RUnlock()
	if labelsPath == "" {
		return
	}
	var key *pairfile.AcceptedKey
	for k, s := range sides {
		path := s.kind.File(labelsPath)
		var err error
		if len(marks[k]) == 0 {
			err = pairfile.RemoveAccepted(path)
		} else {
			if key == nil {
				c := pairfile.KeyOf(labels, base.crc())
				key = &c
			}
			err = s.kind.Write(path, *key, marks[k])
		}
		if err != nil {
			d.mu.Lock()
			d.lastSave.Notes = append(d.lastSave.Notes, fmt.Sprintf("%s could not be kept beside %s (%v): when it is opened again %s.", s.what, filepath.Base(labelsPath), err, s.lost))
			d.mu.Unlock()
		}
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
