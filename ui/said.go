package ui

import (
	"idxlabel/store"
	"idxlabel/ui/mode"
)

// said is the message the status bar says in place of the state's line (tell: controller.say,
// and modeHost.Note for a note): a refusal, a job's outcome ("nothing was written"), where the
// cursor went. It stays, whatever redraws the window meanwhile (a job's progress, a round of
// suggestions, a scan's result, a resize), until the state it was said in changes (its stamp:
// the cursor on another sample, an edit, an undo, a save's result, a mode entered or chosen, a
// filter or a selection changed), or a later message replaces it. A note (a background job's
// report: a round's summary, a layout's time) replaces only a note, or a message that no longer
// holds: it never hides what the person was told. Nor does it hide the state's line: a note is
// shown after it (noteAfter), so a person waiting for a round of the Suggested list reads its
// summary and the counts it changed (labelled, accepted, left) at once.
type said struct {
	text string // "": none
	note bool
	at   stamp
}

// stamp is the state a message is said in, as far as the status bar shows it: the dataset and
// its generation (an edit, an undo or a save's result change it), the sample at the cursor, the
// mode and how many times a mode was entered or chosen (showing a mode's list afresh ends a
// message too), the filter and how many samples are selected. Comparing two is O(1).
type stamp struct {
	ds      *store.Dataset
	gen     uint64
	sample  int
	mode    mode.Mode
	entered int
	subset  store.Subset
	class   int // the filter's class, -1 for every class
	nsel    int
}

// stamp returns the state's stamp now.
func (s *state) stamp() stamp {
	class := -1
	if f := s.v.filter.Class; f != nil {
		class = *f
	}
	return stamp{ds: s.ds, gen: s.v.gen, sample: s.v.Current(), mode: s.mode, entered: s.entered, subset: s.v.filter.Subset, class: class, nsel: s.v.nsel}
}

// hold makes text the message said now (a note: only when no message holds), and reports
// whether it is.
func (s *state) hold(text string, note bool) bool {
	if note && s.said.text != "" && !s.said.note && s.said.at == s.stamp() {
		return false
	}
	s.said = said{text: text, note: note, at: s.stamp()}
	return true
}

// noteAfter separates the state's line from a note shown after it.
const noteAfter = "   —   "

// statusLine is the status bar's text: the message said while it holds; the state's line
// (statusText) followed by the note said while it holds; else the state's line. A message that
// no longer holds is forgotten, so that coming back to the same state does not bring it back.
func (s *state) statusLine() string {
	if s.said.text != "" && s.said.at == s.stamp() {
		if s.said.note {
			return s.statusText() + noteAfter + s.said.text
		}
		return s.said.text
	}
	s.said = said{}
	return s.statusText()
}
