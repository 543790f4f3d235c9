package store

import (
	"slices"
	"sync"
	"time"

	"idxlabel/sample"
)

// The change log: every label change since the files were opened, each with how and when it
// was made.
//
// What it lists. One entry per sample an edit changed, oldest first: a relabel or a review
// decision that changed the label (Original = the label before it), an added sample
// (Original = sample.NoLabel), a deletion (New = sample.NoLabel). Undone edits are not changes: undoing an
// edit takes its entries out, and redoing it puts them back with the time it was first made.
// Only an edit made before the log began cannot be taken out: undoing it is a change of its
// own, at the time of the undo: HowUndone for a label taken back, HowDeleted for a sample it
// removes. (The session's log begins when the files are
// opened; a journal replayed after a crash brings the edits saved before it back as history.
// What a save appends to the change log file begins at the save before, so there an undo of an
// edit an earlier save wrote is HowUndone.) A restore takes its sample's deletion out instead of
// adding an entry; a deleted sample has no entries after its deletion (relabelling it changes
// nothing the files will hold), and one both added and deleted has none. So the entries,
// applied in order to the labels of the files as opened, give the labels in effect. A review
// decision that keeps the label is not a change.
//
// Numbering. Index is the sample's number in the files as they were opened, the number the grid
// showed; samples added since are numbered after them in the order they were added. A save that
// leaves deleted samples out renumbers the samples after them in the files it writes, but not in
// the log: an entry keeps its number for the whole session, so every entry of one session refers
// to one numbering (and the entries of a sample a save dropped keep the number it had). After a
// crash the reopened files are a new session: the replayed edits are numbered as in them.
//
// How it is kept. Every edit carries its How and time, and every undo and redo its time, in its
// journal record (and each step of a history record its How and time), so a replayed journal
// rebuilds the same log. As edits, undos and redos are made or replayed (sessionLog.do, step) the
// Dataset keeps two lists of events: the session's, and the one since the last save, which
// the save turns into the entries it appends to the change log beside the label file. entries
// reads a list (restores cancel deletions; added-and-deleted samples are left out).

// ChangeLogEntry is one change in the change log (see the numbering above).
type ChangeLogEntry struct {
	Index         int       // the sample's number in the files as opened (added samples after them)
	Original, New int       // the label before and after; sample.NoLabel for an added sample's Original, a deleted sample's New, and a sample without a label
	How           How       // how the change was made: added-drawn/-imported add the sample, deleted removes it, the others change its label
	When          time.Time // when it was made (UTC); zero when unknown
	Source        string    // where an added sample came from (Dataset.Source), "" for none and for the other changes
}

// logEvent is one event of a change log list: an entry, or a restore, made by a step.
type logEvent struct {
	ChangeLogEntry
	kind    byte   // evLabel, evAdd, evDelete or evRestore
	step    uint64 // the provenance id of the step that made it
	inverse bool   // made by undoing the step
}

// Kinds of event.
const (
	evLabel   byte = iota // a label changed (from or to sample.NoLabel, too: images without labels)
	evAdd                 // a sample added
	evDelete              // a sample deleted
	evRestore             // a deleted sample restored: it cancels the deletion, no entry of its own
)

// sessionLog is a Dataset's change log (Dataset.log): the events of the session and of the
// edits since the last save, and what it needs to number samples across saves.
type sessionLog struct {
	session  []logEvent       // since the files were opened
	unsaved  []logEvent       // since the last save (or the opening)
	saved    []ChangeLogEntry // the entries of every save of the session, in order (sessionLog.save)
	index    []int            // session number of each base sample; nil when it is its number
	shift    int              // session number of the first appended sample, minus baseN
	nextID   uint64           // the last step id given (stepID)
	undoTime int64            // the time of the undo step (sessionLog.step) is logging, for its entries
	off      bool             // saves do not append to the changes file (SetWriteChanges)

	fileMu   sync.Mutex     // one append to a changes file at a time; guards appended and err
	appended map[string]int // each changes file this session appended to (absolute): how many of saved it holds
	err      error          // why the last save did not append its entries (ChangesFileError)
}

// sessionEntries returns the entries of the session's events (m.mu held).
func (l *sessionLog) sessionEntries(m *model) []ChangeLogEntry {
	return entries(l.session, l.addedDeleted(m, len(m.opened)))
}

// addedDeleted returns the session numbers of the samples from the from-th on (those added
// since the files as opened, or as last saved) that are deleted now: whatever their events, they
// never reach the files (m.mu held).
func (l *sessionLog) addedDeleted(m *model, from int) map[int]bool {
	out := map[int]bool{}
	for i := from; i < len(m.deleted); i++ {
		if m.deleted[i] {
			out[l.sessionIndex(m, i)] = true
		}
	}
	return out
}

// sessionIndex returns the session number of sample i (m.mu held).
func (l *sessionLog) sessionIndex(m *model, i int) int {
	if i >= m.baseN {
		return i + l.shift
	}
	if l.index != nil {
		return l.index[i]
	}
	return i
}

// stepID returns a's id, giving it one if it has none (m.mu held).
func (l *sessionLog) stepID(a action) uint64 {
	p := provOf(a)
	if p.id == 0 {
		l.nextID++
		p.id = l.nextID
	}
	return p.id
}

// events returns the events step a makes on the samples as they are now (m.mu held): applied,
// or, when inverse, just reverted by an undo, at log.undoTime: a label change taken back is
// HowUndone, a sample an undo removes (an added one, a restored one) HowDeleted. Deletions
// read the sample's label now, so it runs right after a.apply or a.revert. Each kind says which
// events it makes (action.logEvents).
func (l *sessionLog) events(m *model, a action, inverse bool) []logEvent {
	p := provOf(a)
	ev := &logSink{l: l, m: m, inverse: inverse}
	ev.base = logEvent{step: l.stepID(a), inverse: inverse}
	ev.base.How, ev.base.When = p.how, unixMilli(p.when)
	if inverse {
		ev.base.How, ev.base.When = HowUndone, unixMilli(l.undoTime)
	}
	a.logEvents(m, ev, inverse)
	return ev.out
}

// logSink gathers the events of one step (sessionLog.events): the eventSink a kind's logEvents
// tells what its step did to each sample, numbered in the session (sessionIndex).
type logSink struct {
	l       *sessionLog
	m       *model
	base    logEvent // the step's id, How and time, as every event of it has them
	inverse bool     // the step was undone
	out     []logEvent
}

func (s *logSink) event(kind byte, i int, from, to int32) {
	e := s.base
	e.kind, e.Index, e.Original, e.New = kind, s.l.sessionIndex(s.m, i), int(from), int(to)
	if kind == evDelete {
		e.How = HowDeleted
	}
	s.out = append(s.out, e)
}

// label: the step changes sample i's label from → to (taken back, to → from, when it is undone).
func (s *logSink) label(i int, from, to int32) {
	if s.inverse {
		from, to = to, from
	}
	s.event(evLabel, i, from, to)
}

// add: sample i is added with label, from source ("" for none).
func (s *logSink) add(i int, label int32, source string) {
	s.event(evAdd, i, sample.NoLabel, label)
	s.out[len(s.out)-1].Source = source
}

// remove: sample i, of label, is deleted (or its addition undone).
func (s *logSink) remove(i int, label int32) { s.event(evDelete, i, label, sample.NoLabel) }

// restore: sample i's deletion is cancelled.
func (s *logSink) restore(i int) { s.event(evRestore, i, sample.NoLabel, sample.NoLabel) }

// unixMilli returns the time of ms, Unix milliseconds, in UTC; the zero time for 0 (unknown).
func unixMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// do records the events of an edit just applied (Dataset.edit, after perform; m.mu held).
func (l *sessionLog) do(m *model, a action) {
	ev := l.events(m, a, false)
	l.session = append(l.session, ev...)
	l.unsaved = append(l.unsaved, ev...)
}

// step records an undo (undo true) or a redo of step a, just reverted or re-applied, made at
// when (Unix milliseconds; 0 unknown), in both lists (m.mu held). An undo takes the step's
// entries out of a list that has them, or else (the files already held the step when the list
// began) adds the entries of its undoing; a redo takes those out again, or else puts the step's
// entries back. An undone saved append always adds its deletions: its samples stay, deleted,
// and a restore can bring them back (entries then sees the deletion cancelled).
func (l *sessionLog) step(m *model, a action, undo bool, when int64) {
	l.undoTime = when
	fwd, inv := l.events(m, a, false), l.events(m, a, true)
	stays := a.undoneStays() // undone, its samples stay, deleted
	for _, list := range []*[]logEvent{&l.session, &l.unsaved} {
		if undo {
			if stays || !drop(list, fwd, false) {
				*list = append(*list, inv...)
			}
		} else if !drop(list, inv, true) {
			*list = append(*list, fwd...)
		}
	}
}

// drop removes from *l the events of evs's step in evs's direction (inverse or not) on the
// samples evs name, and reports whether there were any.
func drop(l *[]logEvent, evs []logEvent, inverse bool) bool {
	if len(evs) == 0 {
		return false
	}
	on := map[int]bool{}
	for _, e := range evs {
		on[e.Index] = true
	}
	step, n := evs[0].step, len(*l)
	*l = slices.DeleteFunc(*l, func(e logEvent) bool { return e.step == step && e.inverse == inverse && on[e.Index] })
	return len(*l) < n
}

// entries reads a list of events as change log entries: a restore cancels the last deletion of
// its sample before it; a sample deleted (not restored) has no entries after its deletion (a
// relabel of a deleted sample changes nothing the files will hold); and a sample added and then
// deleted, or one of dropped (addedDeleted), has no entries.
func entries(events []logEvent, dropped map[int]bool) []ChangeLogEntry {
	gone := make([]bool, len(events))
	deletion := map[int]int{} // sample → its last deletion not cancelled
	added := map[int]int{}    // sample → its last addition
	for k, e := range events {
		switch e.kind {
		case evRestore:
			gone[k] = true
			if j, ok := deletion[e.Index]; ok {
				gone[j] = true
				delete(deletion, e.Index)
			}
		case evDelete:
			deletion[e.Index] = k
		case evAdd:
			added[e.Index] = k
		}
	}
	for i, j := range deletion {
		if a, ok := added[i]; ok && a < j {
			dropped[i] = true
		}
	}
	out := make([]ChangeLogEntry, 0, len(events))
	for k, e := range events {
		if j, ok := deletion[e.Index]; ok && k > j {
			continue
		}
		if !gone[k] && !dropped[e.Index] {
			out = append(out, e.ChangeLogEntry)
		}
	}
	return out
}

// pending returns the entries of the events since the last save: those a save now adds to the
// session's saved entries (save), and appends to the change log (plan) (m.mu held).
func (l *sessionLog) pending(m *model) []ChangeLogEntry {
	return entries(l.unsaved, l.addedDeleted(m, m.baseN))
}

// save makes the entries of the events since the last save (pending, as plan read them when
// the save began: nothing changes them while it runs) saved entries, and carries the session
// numbering over the save's renumbering (renumber: each sample's number after the save, -1 when
// left out). finishSave calls it before rebase (m.mu held).
func (l *sessionLog) save(m *model, renumber []int, pending []ChangeLogEntry) {
	l.saved = append(l.saved, pending...)
	l.unsaved = nil
	kept := 0
	for _, k := range renumber {
		kept = max(kept, k+1)
	}
	index := make([]int, kept)
	identity := true
	for i, k := range renumber {
		if k >= 0 {
			index[k] = l.sessionIndex(m, i)
			identity = identity && index[k] == k
		}
	}
	if identity {
		index = nil
	}
	// Samples added later keep numbers after all the session's earlier ones, even deleted ones.
	l.shift = len(m.labels) + l.shift - kept
	l.index = index
}
