package ui

import (
	"fmt"

	"idxlabel/internal/numfmt"
	"idxlabel/ui/jobs"
)

// Inputs that wait. While a job that holds edits runs (a save, a load, an import, the scan's
// snapshot: jobKind.holdsEdits), an edit cannot reach the store (a save has closed the journal,
// and would write the samples without it). Such an edit is not dropped: the input that asked for
// it (a key, a menu item, the class picker's choice) waits, and so does every input after it that
// moves the cursor or changes what the grid shows, so that when the job ends they are applied in
// the order they came, each as if typed then: each edit journaled before it is shown, the cursor
// moving as those edits move it. Until then the cursor stays where the first waiting input found
// it (it never runs ahead of the edits) and the status bar counts the inputs that wait.
//
// The edits are not applied during a save, though the journal would record them: the store's
// save closes the journal for its whole length and rebases the dataset on the arrays it built
// when it began (store/save.go), so an edit made meanwhile would be missing from the files and
// from the journal the save starts over with.
//
// The queue grows with the inputs made during one job (a few per second), never with the
// dataset.

// heldInput is one input that waits: run makes it again. samples are the sample numbers it
// captured (a clicked tile's sample), renumbered in place when a save renumbers the samples.
type heldInput struct {
	run     func()
	samples []*int
	click   bool // a mouse input (for the status bar's count)
	// at is, for the first input of the queue, the sample the cursor was on when it was made, or,
	// when the inputs before it started the job it now waits for, when that job started
	// (renumbered with samples; -1 once a save left it out); nil for the others, made where the
	// inputs before them will have put the cursor, and when there was no cursor.
	at *int
}

// inputs is the queue of the person's inputs that wait for a job holding edits, oldest first,
// and the input being made. The controller holds it (state.in) and asks it whether an input must
// wait; it reads the window's cursor and dialogs and shows its count through the functions it is
// built with.
type inputs struct {
	held []heldInput
	// asking is the input being made: an edit it asks for that must wait queues it.
	asking *heldInput
	// replaying: the inputs that waited are being applied.
	replaying bool
	// last counts the inputs the last replay applied and left out (replay).
	last [2]int

	jobs    *jobs.Jobs
	cursor  func() int  // the sample at the cursor (-1: none)
	covered func() bool // a dialog covers the window: the inputs wait for it to close
	changed func()      // the inputs that wait changed: show their count
}

// input runs f, an input of the person's (a key, a menu item, a click), now; or, when inputs
// already wait for a job, queues it behind them. While f runs, an edit it asks for that must
// wait (controller.cannotEdit) queues f itself.
func (q *inputs) input(f func()) { q.inputOf(heldInput{run: f}) }

// afterInputs runs f after every input that waits (typed while a job ran: an import's samples
// are added after the keys typed meanwhile), or now, as an input, when none waits.
func (q *inputs) afterInputs(f func()) {
	if len(q.held) > 0 {
		q.hold(heldInput{run: f})
		return
	}
	q.input(f)
}

// inputOf is input for an input that captured sample numbers or came from the mouse.
func (q *inputs) inputOf(h heldInput) {
	if q.mustWait() {
		q.hold(h)
		return
	}
	q.asked(&h, h.run)
}

// asked runs f as the input h, so that an edit f asks for that must wait queues h (holdAsked);
// it reports whether h was queued so.
func (q *inputs) asked(h *heldInput, f func()) (queued bool) {
	prev := q.asking
	q.asking = h
	f()
	queued = q.asking == nil
	q.asking = prev
	return queued
}

// mustWait reports whether an input now must wait: inputs already wait for a job that holds
// edits (and none is being applied from the queue).
func (q *inputs) mustWait() bool {
	return len(q.held) > 0 && !q.replaying && q.jobs.EditsHeld()
}

// holdAsked queues the input being made, whose edit must wait for the job running; it reports
// false when there is none to queue (an edit asked for outside an input: nothing to make again).
func (q *inputs) holdAsked() bool {
	if q.asking == nil {
		return false
	}
	q.hold(*q.asking)
	q.asking = nil // the input is queued once, however many edits it asks for
	return true
}

// hold queues h behind the inputs that wait and shows their count.
func (q *inputs) hold(h heldInput) {
	q.held = append(q.held, h)
	if len(q.held) == 1 {
		q.noteFirst()
	}
	q.changed()
}

// renumber makes the samples the waiting inputs captured follow a save's renumbering
// (renumber[i] is sample i's new number, -1 for a sample the save left out).
func (q *inputs) renumber(renumber []int) {
	for _, h := range q.held {
		for _, p := range h.samples {
			if *p >= 0 && *p < len(renumber) {
				*p = renumber[*p]
			} else {
				*p = -1
			}
		}
	}
}

// replay applies the inputs that waited, in order, once no job holds edits; it stops when one
// of them starts such a job (a Ctrl+S typed during a save: the rest wait for that one) or opens a
// dialog (the class picker: the rest wait until it closes, as they would have gone to it). The
// first input is not applied when the save left out the sample it was typed on (a digit typed on
// a deleted sample): it would land on another one; the cursor is already on the sample after it,
// where that input would have moved it. It returns how many inputs it applied and how many it
// left out so (and keeps them in last); the controller says so (controller.replayed).
func (q *inputs) replay() (applied, lost int) {
	for len(q.held) > 0 && !q.jobs.EditsHeld() && !q.covered() {
		h := q.held[0]
		q.held = q.held[1:]
		if h.at != nil && *h.at < 0 {
			lost++
			continue
		}
		q.replaying = true
		q.inputOf(h)
		q.replaying = false
		applied++
	}
	if len(q.held) == 0 {
		q.held = nil
	} else {
		q.noteFirst() // the rest wait for the job an input started, or for the dialog
	}
	q.last = [2]int{applied, lost}
	return applied, lost
}

// noteFirst gives the first input that waits the sample the cursor is on now, when it has none:
// it is the first input typed during the job now running, as if typed then (hold does the same
// for an input queued first), so it is left out when that job's save removes the sample.
func (q *inputs) noteFirst() {
	h := &q.held[0]
	if at := q.cursor(); h.at == nil && at >= 0 {
		h.at = &at
		h.samples = append(h.samples, h.at)
	}
}

// replayNote is what the status bar says once inputs that waited were applied (applied) or left
// out because the save removed the sample they were typed on (lost).
func replayNote(applied, lost int) string {
	text := "applied " + numfmt.Plural(applied, "input") + " made meanwhile"
	if lost > 0 {
		text += "; left out " + numfmt.Plural(lost, "key") + " typed on a deleted sample the save removed"
	}
	return text
}

// text is what the status bar says of the inputs that wait ("" when none): "3 keys wait,
// applied when it is done".
func (q *inputs) text() string {
	if len(q.held) == 0 {
		return ""
	}
	clicks := 0
	for _, h := range q.held {
		if h.click {
			clicks++
		}
	}
	what := numfmt.Plural(len(q.held)-clicks, "key")
	switch {
	case clicks == len(q.held):
		what = numfmt.Plural(clicks, "click")
	case clicks > 0:
		what += " and " + numfmt.Plural(clicks, "click")
	}
	return fmt.Sprintf("%s wait, applied in order when it is done", what)
}
