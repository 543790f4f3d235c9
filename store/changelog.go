package store

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// The change log: every label change in effect since the files were opened, each with how and
// when it was made (issue 13's provenance).
//
// What it lists. One entry per sample an edit changed, for every edit in effect, oldest first:
// a relabel or a review decision that changed the label (Original = the label before it), an
// appended sample (Original = NoLabel), a deletion (New = NoLabel). Undone edits are not listed:
// an undo takes an edit back, so it is no longer a change; a redo puts it back with the time it
// was first made. A restore takes its sample's deletion out of the log instead of adding an
// entry, and a sample both appended and deleted before it reached the files has none: the log
// explains how the files' labels became the labels in effect, and applying its entries in order
// to the files' labels gives them. A decision that keeps the label is not a change.
//
// Numbering. Index is the sample's number in the files as they were opened, the number the grid
// showed; appended samples are numbered after them in the order they were added. A save that
// leaves deleted samples out renumbers the samples after them in the files it writes, but not in
// the log: an entry keeps its number for the whole session, so every entry of one session refers
// to one numbering (and the entries of a sample the save dropped keep the number it had). After
// a crash the reopened files are a new session: the replayed edits are numbered as in them.
//
// Where it comes from. Edits carry their How and time in the journal records, so a journal
// replayed after a crash gives the same entries. Entries of edits already saved are kept in
// memory for the session; the others are read from the undo history when asked for.

// How says how a change was made. Its values are stored in journals (version 2): they are
// never renumbered, and new ones go at the end.
type How uint8

const (
	// HowUnknown: an edit replayed from a journal an older idxlabel wrote, which did not record
	// how (it is written as an empty field).
	HowUnknown           How = iota
	HowManual                // a person set one sample's label (a digit, the class picker)
	HowBatch                 // a person set the label of several samples in one step
	HowSuspectAccepted       // a review of suspects: the suggested label accepted
	HowSuggestedAccepted     // a model's suggested label accepted for an unlabelled sample
	HowAddedDrawn            // a sample drawn in the draw window
	HowAddedImported         // a sample imported from image files
	HowDeleted               // a sample deleted
	howRestore               // a restore (never in the log: it cancels the deletion)
	howCount
)

var howNames = [howCount]string{"", "manual", "batch", "suspect-accepted", "suggested-accepted", "added-drawn", "added-imported", "deleted", ""}

// String returns the name written in the change log's how column ("manual", "suspect-accepted",
// …), "" for HowUnknown.
func (h How) String() string {
	if h < howCount {
		return howNames[h]
	}
	return fmt.Sprintf("How(%d)", h)
}

// relabelHow is the How of SetLabels and Relabel, which do not say: manual for one sample
// named, batch for several.
func relabelHow(n int) How {
	if n == 1 {
		return HowManual
	}
	return HowBatch
}

// checkHow refuses a How that does not describe an edit of record type t: a label change is
// manual, batch, suspect-accepted or suggested-accepted; an append added-drawn or
// added-imported; a deletion deleted; a restore has none of its own. HowUnknown fits every type
// (old journals). It is the one rule for the API and for journal records.
func checkHow(t byte, h How) error {
	ok := h == HowUnknown
	switch t {
	case recRelabel, recDecide:
		ok = ok || h >= HowManual && h <= HowSuggestedAccepted
	case recAppend:
		ok = ok || h == HowAddedDrawn || h == HowAddedImported
	case recDelete:
		ok = ok || h == HowDeleted
	case recRestore:
		ok = ok || h == howRestore
	}
	if !ok {
		return fmt.Errorf("how %q does not describe this kind of edit", h)
	}
	return nil
}

// provenance is how and when an edit was made; every action embeds it.
type provenance struct {
	how   How
	when  int64 // Unix time in milliseconds; 0 when unknown
	saved bool  // a save wrote the edit: its entries are in the session's saved entries
}

func (p *provenance) prov() *provenance { return p }

// madeNow returns the provenance of an edit made now.
func madeNow(how How) provenance { return provenance{how: how, when: time.Now().UnixMilli()} }

// provOf returns a's provenance.
func provOf(a action) provenance {
	if p, ok := a.(interface{ prov() *provenance }); ok {
		return *p.prov()
	}
	return provenance{}
}

// SetLabelsAs is SetLabels for a caller that says how the labels were chosen: HowManual,
// HowBatch, HowSuspectAccepted or HowSuggestedAccepted (a model's suggestion accepted for
// unlabelled samples). Errors: as SetLabels, and a How of another kind.
func (d *Dataset) SetLabelsAs(how How, indices, labels []int) error {
	if err := checkHow(recRelabel, how); err != nil || how == HowUnknown {
		return fmt.Errorf("SetLabelsAs: %q is not how labels are set", how)
	}
	return d.setLabels(how, indices, labels)
}

// DecideAs is Decide for a review that says how the label was chosen: HowSuspectAccepted when
// the person accepted the suggestion, HowManual when they typed a label. Errors: as Decide, and
// a How of another kind.
func (d *Dataset) DecideAs(how How, i, label int) error {
	if err := checkHow(recDecide, how); err != nil || how == HowUnknown {
		return fmt.Errorf("DecideAs: %q is not how a label is decided", how)
	}
	return d.decideAs(how, i, label)
}

// AppendAs is Append for a caller that says where the samples come from: HowAddedDrawn or
// HowAddedImported. Errors: as Append, and a How of another kind.
func (d *Dataset) AppendAs(how How, samples []Sample) (int, error) {
	if how != HowAddedDrawn && how != HowAddedImported {
		return 0, fmt.Errorf("AppendAs: %q is not how samples are added", how)
	}
	return d.appendAs(how, samples)
}

// ChangeLogEntry is one change in the change log (see the numbering above).
type ChangeLogEntry struct {
	Index         int       // the sample's number in the files as opened (appended samples after them)
	Original, New int       // the label before and after; NoLabel for an added sample's Original and a deleted sample's New
	How           How       // how the change was made
	When          time.Time // when it was made (UTC); zero when unknown
}

// sessionLog is a Dataset's change log of the edits already saved in this session, and what it
// needs to number entries across saves (Dataset.log).
type sessionLog struct {
	saved []ChangeLogEntry // entries of the edits saved in this session, oldest first
	index []int            // session number of each base sample; nil when it is its number
	shift int              // session number of the first appended sample, minus baseN
	off   bool             // saves do not append to the changes file (SetWriteChanges)

	fileMu  sync.Mutex     // one append to a changes file at a time; guards written and err
	written map[string]int // how many entries of saved each changes file has had appended
	err     error          // why the last save did not append its entries (ChangesFileError)
}

// ChangeLog returns every change in effect since the files were opened, oldest first: those of
// the edits saved in this session, then those not yet saved (see the rules above). It is a copy.
func (d *Dataset) ChangeLog() []ChangeLogEntry {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return append(slices.Clone(d.log.saved), d.unsavedLog()...)
}

// sessionIndex returns the session number of sample i (d.mu held).
func (d *Dataset) sessionIndex(i int) int {
	if i >= d.baseN {
		return i + d.log.shift
	}
	if d.log.index != nil {
		return d.log.index[i]
	}
	return i
}

// unsavedLog returns the entries of the edits in effect that are not saved yet, from the undo
// stack (d.mu held).
func (d *Dataset) unsavedLog() []ChangeLogEntry {
	type row struct {
		i         int // sample number now
		from, to  int32
		p         provenance
		cancelled bool
	}
	var rows []row
	label := map[int]int32{}  // labels set by the edits walked so far
	deletion := map[int]int{} // sample → its deletion's row, while in effect
	labelOf := func(i int) int32 {
		if l, ok := label[i]; ok {
			return l
		}
		return d.orig[i] // a sample not yet touched is a base sample as in the files
	}
	n := d.baseN
	for _, a := range d.undo {
		p := provOf(a)
		if p.saved {
			continue
		}
		switch a := a.(type) {
		case *relabel:
			for k, i := range a.idx {
				rows = append(rows, row{i: int(i), from: a.old[k], to: a.to[k], p: p})
				label[int(i)] = a.to[k]
			}
		case *decide:
			if a.to != a.old {
				rows = append(rows, row{i: int(a.i), from: a.old, to: a.to, p: p})
				label[int(a.i)] = a.to
			}
		case *appendSamples:
			for k, l := range a.labels {
				rows = append(rows, row{i: n + k, from: NoLabel, to: l, p: p})
				label[n+k] = l
			}
			n += len(a.labels)
		case *setDeleted:
			for _, i := range a.idx {
				if a.to {
					deletion[int(i)] = len(rows)
					rows = append(rows, row{i: int(i), from: labelOf(int(i)), to: NoLabel, p: p})
				} else if r, ok := deletion[int(i)]; ok {
					rows[r].cancelled = true
					delete(deletion, int(i))
				}
			}
		}
	}
	out := make([]ChangeLogEntry, 0, len(rows))
	for _, r := range rows {
		if r.cancelled || r.i >= d.baseN && r.i < len(d.deleted) && d.deleted[r.i] {
			continue // restored, or appended and deleted: it never reaches the files
		}
		e := ChangeLogEntry{Index: d.sessionIndex(r.i), Original: int(r.from), New: int(r.to), How: r.p.how}
		if r.p.when != 0 {
			e.When = time.UnixMilli(r.p.when).UTC()
		}
		out = append(out, e)
	}
	return out
}

// logSave moves the entries of the edits a save wrote into the session's saved entries (marking
// the edits saved, should they outlive the save in the undo history), and carries the session
// numbering over the save's renumbering (renumber: each sample's number after the save, -1 when
// left out). finishSave calls it before rebase (d.mu held).
func (d *Dataset) logSave(renumber []int) {
	d.log.saved = append(d.log.saved, d.unsavedLog()...)
	for _, a := range d.undo { // the edits in effect; those undone (redo) are not in the files
		if p, ok := a.(interface{ prov() *provenance }); ok {
			p.prov().saved = true
		}
	}
	kept := 0
	for _, k := range renumber {
		kept = max(kept, k+1)
	}
	index := make([]int, kept)
	identity := true
	for i, k := range renumber {
		if k >= 0 {
			index[k] = d.sessionIndex(i)
			identity = identity && index[k] == k
		}
	}
	if identity {
		index = nil
	}
	// Appended samples keep numbers after all the session's earlier ones, even those deleted.
	d.log.shift = len(d.labels) + d.log.shift - kept
	d.log.index = index
}

// SetWriteChanges says whether saves append their changes to the change log beside the label
// file (ChangesSuffix); it is on until turned off.
func (d *Dataset) SetWriteChanges(on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log.off = !on
}

// ChangesFileError returns why the last save could not append its changes to the change log
// beside the label file, or nil when it did (or had nothing to append, or SetWriteChanges is
// off). The save itself succeeded either way: the labels are written; the entries not appended
// are appended by the next save to the same files.
func (d *Dataset) ChangesFileError() error {
	d.log.fileMu.Lock()
	defer d.log.fileMu.Unlock()
	return d.log.err
}
