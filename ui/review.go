package ui

import (
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/store"
	"idxlabel/suspect"
)

// The review mode: the grid shows a list of samples, each with the label a model suggests, for
// a person to decide one by one. Two sources fill it, each a choice of the side panel's Show
// list: the suspects (likely label errors, suspects.go) and the suggested labels of samples
// without one (suggest.go). In both, Enter (or Space) accepts the suggestion, a digit (or the
// class picker, for classes above 9) sets another label, → keeps the label a sample has or skips
// one without, and every decision is one undoable, journaled edit (store.Decide,
// recordDecision). The review keeps its order while decisions change the labels.

// reviewKind names a review's source.
type reviewKind int

const (
	reviewSuspects  reviewKind = iota // labelled samples whose label is likely wrong
	reviewSuggested                   // samples without a label
)

// review is a list of samples to decide, with the model's verdict on each.
type review struct {
	kind       reviewKind
	order      []int                   // samples to review, in sample indices: most suspicious or most confident first
	of         map[int]suspect.Suspect // verdict by sample index (Index is the sample index)
	neighbours map[int][]int           // nearest samples by sample index (suspects only)
	took       time.Duration
	method     string // what made the verdicts: the kNN, or the CNN and what it learnt from
	// pending: the model is still training or predicting (suggested only); order is in sample
	// order and of is empty until it is done.
	pending bool
}

// Badge colours of the samples a review has not decided yet: a suspect ("7→1?"), a suggestion
// for a sample without a label ("7? 93%").
var (
	badgeSuspect   = color.NRGBA{200, 150, 255, 255}
	badgeSuggested = color.NRGBA{110, 200, 255, 255}
)

// review returns the review the grid shows, nil when it shows none.
func (w *mainWindow) review() *review {
	switch w.side.show.Selected {
	case suspectsText:
		return w.sus
	case suggestedText:
		return w.sugg
	}
	return nil
}

// reviewing reports whether the grid shows a review.
func (w *mainWindow) reviewing() bool { return w.review() != nil }

// startReview starts the scan or the suggestions a review choice of the Show list needs when
// there is none yet, and reports whether it did (the grid then waits for it).
func (w *mainWindow) startReview() bool {
	switch {
	case w.side.show.Selected == suspectsText && w.sus == nil:
		w.findSuspects()
	case w.side.show.Selected == suggestedText && w.sugg == nil:
		w.suggestLabels()
	default:
		return false
	}
	return true
}

// showReview switches the grid to the review named text (a choice of the Show list), every
// class shown.
func (w *mainWindow) showReview(text string) {
	w.side.quiet = true
	w.side.class = nil
	w.side.list.Select(0)
	w.side.show.SetSelected(text)
	w.side.quiet = false
	w.applyFilter(w.side.filter())
	w.win.Canvas().Focus(w.grid)
}

// leaveReview shows every sample again when the Show list names the review text (which could
// not start).
func (w *mainWindow) leaveReview(text string) {
	if w.side.show.Selected != text {
		return
	}
	w.side.reset()
	w.rebuildView(w.side.filter())
	w.refresh()
}

// reviewOrder returns the review's samples to show under a class filter: a sample is of class c
// when its label is c or, having no label, when c is its suggestion (the histogram's
// "unlabelled" row shows those still without a label).
func (w *mainWindow) reviewOrder(f store.Filter) []int {
	r := w.review()
	var out []int
	for _, i := range r.order {
		st, _, ok := w.ds.SampleAt(w.v.gen, i)
		if !ok {
			continue
		}
		s, suggested := r.of[i]
		if f.Class == nil || st.Label == *f.Class || st.Label == store.NoLabel && suggested && s.Suggested == *f.Class {
			out = append(out, i)
		}
	}
	return out
}

// decide records the review decision for the cursor's sample and moves to the next.
func (w *mainWindow) decide(label int) {
	i := w.v.current()
	r := w.review()
	if i < 0 || r == nil || w.refuseWhileBusy() {
		return
	}
	err := w.recordDecision(r, i, label)
	w.edited()
	if err != nil {
		w.showError(err)
		return
	}
	w.next()
}

// recordDecision records a person's decision in review r on sample i: its label becomes label
// (r's suggestion accepted, another label set, or the label it has kept), as one undoable,
// journaled edit that marks it reviewed, telling the change log how (decisionHow). It is the
// one place a review's decision reaches the store.
func (w *mainWindow) recordDecision(r *review, i, label int) error {
	return w.ds.DecideAs(decisionHow(r, i, label), i, label)
}

// toFirstUndecided puts the cursor on the first sample shown that the review has not decided.
func (w *mainWindow) toFirstUndecided() {
	r := w.review()
	for p := range w.v.Len() {
		if st, _, ok := w.ds.SampleAt(w.v.gen, w.v.at(p)); ok && r != nil && !r.decided(st) {
			w.grid.moveCursor(p)
			return
		}
	}
}

// next moves the cursor to the next sample shown, if any.
func (w *mainWindow) next() {
	if w.v.cursor+1 < w.v.Len() {
		w.grid.moveCursor(w.v.cursor + 1)
	}
}

// reviewKey handles the review keys before the grid: Enter or Space accepts the suggestion,
// Right keeps the label (a decision) or skips a sample without one; each moves on.
func (w *mainWindow) reviewKey(k *fyne.KeyEvent) bool {
	r := w.review()
	i := w.v.current()
	if r == nil || i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		s, ok := r.of[i]
		if !ok {
			w.status.SetText(w.noSuggestion() + ": type its label, or → to skip it")
			return true
		}
		w.decide(s.Suggested)
	case fyne.KeyRight:
		st, _, ok := w.ds.SampleAt(w.v.gen, i)
		switch {
		case !ok:
		case st.Label == store.NoLabel:
			w.next() // nothing to keep: skipped, no edit
		default:
			w.decide(st.Label)
		}
	default:
		return false
	}
	return true
}

// noSuggestion says why the review has no suggestion for a sample: the model is still training
// (or suggesting), or was stopped.
func (w *mainWindow) noSuggestion() string {
	if w.training != nil {
		return "No suggestion for this sample yet (the model is training)"
	}
	return "No suggestion for this sample (Tools → Suggest Labels makes them)"
}

// decided reports whether the review has decided sample st: a suspect once a person reviewed
// it, a sample without a label once it has one.
func (r *review) decided(st store.State) bool {
	if r.kind == reviewSuggested {
		return st.Label != store.NoLabel
	}
	return st.Reviewed
}

// reviewProgress counts the shown samples of the review decided so far.
func (w *mainWindow) reviewProgress() (done, total int) {
	r := w.review()
	if r == nil {
		return 0, 0
	}
	for _, i := range w.v.order {
		if st, _, ok := w.ds.SampleAt(w.v.gen, i); ok && r.decided(st) {
			done++
		}
	}
	return done, w.v.Len()
}

// reviewStatus is the status bar's part on the review: "reviewed 37 / 299" or "labelled 12 /
// 1,000"; "" when the grid shows no review.
func (w *mainWindow) reviewStatus() string {
	r := w.review()
	if r == nil {
		return ""
	}
	done, total := w.reviewProgress()
	verb := "reviewed"
	if r.kind == reviewSuggested {
		verb = "labelled"
	}
	return count("   |   %s %d / %d", verb, done, total)
}

// reviewBadge is the badge of a sample in the review: a suspect "7→1?", a sample without a
// label "7? 93%" (the suggestion and the model's confidence; "?→7" is the badge of a sample
// labelled 7 that had no label), until decided; then its label badge b with a tick.
func (w *mainWindow) reviewBadge(i int, b badge) badge {
	r := w.review()
	st, _, ok := w.ds.SampleAt(w.v.gen, i)
	if r == nil || !ok {
		return b
	}
	s, ok := r.of[i]
	switch {
	case st.Reviewed && (r.kind == reviewSuggested || ok):
		b.text += " ✓"
	case r.kind == reviewSuggested && st.Label == store.NoLabel && ok:
		return badge{text: fmt.Sprintf("%s? %d%%", w.shortClass(s.Suggested), int(100*s.Confidence)), color: badgeSuggested}
	case r.kind == reviewSuspects && ok && s.Score >= suspectScore && s.Suggested != st.Label:
		return badge{text: w.shortClass(st.Label) + "→" + w.shortClass(s.Suggested) + "?", color: badgeSuspect}
	}
	return b
}

// renumbered returns the review as it stands after a save that renumbered the samples (to maps
// each old number to the new one, -1 for a deleted sample, now gone): the same order and
// verdicts, without the deleted samples.
func (r *review) renumbered(to []int) *review {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &review{kind: r.kind, of: map[int]suspect.Suspect{}, neighbours: map[int][]int{}, took: r.took, method: r.method, pending: r.pending}
	for _, i := range r.order {
		if k, ok := at(i); ok {
			out.order = append(out.order, k)
		}
	}
	for i, x := range r.of {
		if k, ok := at(i); ok {
			x.Index = k
			out.of[k] = x
		}
	}
	for i, nb := range r.neighbours {
		if k, ok := at(i); ok {
			var m []int
			for _, j := range nb {
				if jk, ok := at(j); ok {
					m = append(m, jk)
				}
			}
			out.neighbours[k] = m
		}
	}
	return out
}

// followReset keeps the reviews in step with a Reset of the dataset: after a save that
// renumbered the samples (renumber maps old numbers to new) each review follows its samples;
// after a replayed journal (renumber nil) the samples changed, so the reviews no longer apply
// and end.
func (w *mainWindow) followReset(renumber []int) {
	if renumber != nil {
		if w.sus != nil {
			w.sus = w.sus.renumbered(renumber)
		}
		if w.sugg != nil {
			w.sugg = w.sugg.renumbered(renumber)
		}
		return
	}
	if w.reviewing() {
		w.side.reset()
	}
	w.sus, w.sugg = nil, nil
}
