package suggest

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/review"
)

// DefaultThreshold is the confidence the Accept Suggestions dialog starts at: with calibrated
// confidences about one accepted suggestion in twenty or fewer is wrong (bench/suggest: t10k from
// 200 labels, 99.9% of those accepted at 0.95 right).
const DefaultThreshold = 0.95

// AcceptKey is the Accept Suggestions dialog's prompt key (the real-window tests' state line
// names it).
const AcceptKey = "accept suggestions"

// classSuggestions are one class's suggestions for samples without a label, most confident
// first, with the expected number wrong among the first k (Σ 1 − confidence): what a threshold
// accepts is a prefix, counted by a binary search.
type classSuggestions struct {
	label   int
	samples []int     // sample indices, most confident first
	conf    []float64 // their confidences
	wrong   []float64 // wrong[k]: Σ (1 − conf) over the first k; len(samples)+1 values
}

// upTo returns how many of c's suggestions are at confidence t or more. O(log n).
func (c *classSuggestions) upTo(t float64) int {
	return sort.Search(len(c.conf), func(k int) bool { return c.conf[k] < t })
}

// suggestionsByClass gathers the list r's suggestions for the samples still without a label in
// ds, by class in ascending order, each most confident first. O(S log S) for S suggestions.
func suggestionsByClass(r *review.List, ds *store.Dataset) []*classSuggestions {
	by := map[int]*classSuggestions{}
	for i, s := range r.Of {
		if ds.Label(i) != sample.NoLabel {
			continue
		}
		c := by[s.Suggested]
		if c == nil {
			c = &classSuggestions{label: s.Suggested}
			by[s.Suggested] = c
		}
		c.samples = append(c.samples, i)
	}
	out := make([]*classSuggestions, 0, len(by))
	for _, c := range by {
		slices.SortFunc(c.samples, func(a, b int) int {
			return cmp.Or(cmp.Compare(r.Of[b].Confidence, r.Of[a].Confidence), cmp.Compare(a, b))
		})
		c.conf = make([]float64, len(c.samples))
		c.wrong = make([]float64, len(c.samples)+1)
		for k, i := range c.samples {
			c.conf[k] = r.Of[i].Confidence
			c.wrong[k+1] = c.wrong[k] + 1 - c.conf[k]
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *classSuggestions) int { return cmp.Compare(a.label, b.label) })
	return out
}

// parseThreshold reads a confidence as a person types it: "0.95", "95" or "95%" (0–1 or 0–100).
func parseThreshold(text string) (float64, bool) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%"))
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil || v != v || v < 0 || v > 100:
		return 0, false
	case v > 1 || strings.HasSuffix(strings.TrimSpace(text), "%"):
		v /= 100
	}
	return v, true
}

// AcceptDialog is Tools → Accept Suggestions…: every class's suggestions (for the samples still
// without a label) at a confidence the person sets, one threshold for every class and, where a
// class's own is typed, that one; for each class how many it would accept and how many of those
// are expected wrong (Σ 1 − confidence: calibrated confidences make it an estimate of the count),
// and in all the estimated share right. Accept (Enter) gives them their suggested labels as one
// undoable step journaled as suggested-accepted, marks them as accepted (pseudo-labels: the next
// rounds neither learn from them nor calibrate on them), and leaves the doubtful rest in the
// Suggested list after the labelled samples, the cursor on the first, for review one by one.
// Opening costs O(S log S) for S suggestions; a threshold typed, O(classes · log S).
//
// A round that comes while it is open (the refined suggestions after the first ones, or a round
// the labels started) does not change its figures: it says that a newer round exists, from how
// many labels, and that Cancel then Ctrl+Shift+T shows that round's; Accept still takes exactly
// the figures shown. Figures and an Accept button that changed under the person's eyes would
// accept, on an Enter pressed as the round came, a count the person never read.
func (g *Suggester) AcceptDialog() {
	c := g.c
	r := g.Mode.List
	if r == nil || r.Pending || len(r.Of) == 0 {
		c.Say("No suggestions to accept yet (Tools → Suggest Labels makes them)")
		return
	}
	st := c.State()
	by := suggestionsByClass(r, st.DS)
	asked := 0 // asked samples still without a label: no suggestion shown, left for review too
	for i := range r.Asked {
		if _, ok := r.Of[i]; !ok && st.DS.Label(i) == sample.NoLabel {
			asked++
		}
	}
	if len(by) == 0 {
		c.Say("No suggestion to accept: every sample suggested has a label now")
		return
	}
	var d *dialogs.Question
	cancel := func() { d.Dismiss() }
	all := dialogs.NewPromptEntry(cancel)
	all.SetText(fmt.Sprintf("%g%%", 100*DefaultThreshold))
	own := make([]*dialogs.PromptEntry, len(by))
	accepted := make([]*widget.Label, len(by))
	wrong := make([]*widget.Label, len(by))
	summary := widget.NewLabel("")
	summary.Wrapping = fyne.TextWrapWord
	cells := []fyne.CanvasObject{bold("Class"), bold("Suggested"), bold("Threshold"), bold("Accepted"), bold("Expected wrong")}
	for k, cl := range by {
		own[k] = dialogs.NewPromptEntry(cancel)
		accepted[k], wrong[k] = widget.NewLabel(""), widget.NewLabel("")
		accepted[k].Alignment, wrong[k].Alignment = fyne.TextAlignTrailing, fyne.TextAlignTrailing
		n := widget.NewLabel(numfmt.Sprintf("%d", len(cl.samples)))
		n.Alignment = fyne.TextAlignTrailing
		cells = append(cells, widget.NewLabel(st.Classes.Long(cl.label)), n, own[k], accepted[k], wrong[k])
	}
	// thresholds returns each class's threshold (its own, else the common one); ok false when
	// one typed is not a confidence.
	thresholds := func() ([]float64, bool) {
		common, ok := parseThreshold(all.Text)
		out := make([]float64, len(by))
		for k := range by {
			out[k] = common
			if strings.TrimSpace(own[k].Text) != "" {
				t, good := parseThreshold(own[k].Text)
				out[k], ok = t, ok && good
			}
		}
		return out, ok
	}
	update := func() {
		ts, ok := thresholds()
		if !ok {
			summary.SetText("Type a confidence: 0.95, 95 or 95%.")
			d.SetConfirmText("Accept")
			return
		}
		var n, left int
		var w float64
		for k, cl := range by {
			a := cl.upTo(ts[k])
			own[k].SetPlaceHolder(fmt.Sprintf("%g%%", 100*ts[k]))
			accepted[k].SetText(numfmt.Sprintf("%d", a))
			wrong[k].SetText(fmt.Sprintf("%.1f", cl.wrong[a]))
			n, left, w = n+a, left+len(cl.samples)-a, w+cl.wrong[a]
		}
		text := numfmt.Sprintf("Accept %d suggestions: about %.0f of them wrong", n, w)
		if n > 0 {
			text += fmt.Sprintf(" (%.2f%% right, estimated from the confidences)", 100*(1-w/float64(n)))
		}
		text += numfmt.Sprintf(". %d doubtful left for review one by one", left)
		if asked > 0 {
			text += numfmt.Sprintf(", and %d asked", asked)
		}
		text += "."
		if r.Few {
			text += " The confidences come from few labels: the estimate is rough."
		}
		summary.SetText(text)
		d.SetConfirmText(numfmt.Sprintf("Accept %d", n))
	}
	grid := container.NewGridWithColumns(5, cells...)
	var table fyne.CanvasObject = grid
	if len(by) > 12 {
		s := container.NewVScroll(grid)
		s.SetMinSize(fyne.NewSize(0, 360))
		table = s
	}
	// The note that a newer round came, last, just above the buttons; laid out first with the
	// longest such note so that the dialog has room for it from the start (reserveNote).
	newer := widget.NewLabel(newerNote(longestMethod))
	newer.Wrapping = fyne.TextWrapWord
	newer.Importance = widget.WarningImportance
	how := widget.NewLabel("Accepted labels are journaled as suggestions accepted (one step: Ctrl+Z undoes it) and are not learnt from by the next rounds. A class's own threshold, typed in its row, replaces the common one.")
	how.Wrapping = fyne.TextWrapWord
	content := container.NewVBox(
		widget.NewForm(widget.NewFormItem("Accept at confidence", all)),
		table, summary, how, newer)
	d = dialogs.NewQuestion("Accept Suggestions", "Accept", "Cancel", content, func(ok bool) {
		g.newRound = nil
		if !ok {
			return
		}
		ts, good := thresholds()
		if !good {
			c.Say("Nothing accepted: a threshold typed is not a confidence (0.95, 95 or 95%)")
			return
		}
		g.acceptAt(by, ts)
	}, g.win)
	all.OnChanged = func(string) { update() }
	all.OnSubmitted = func(string) { d.Confirm() }
	for _, e := range own {
		e.OnChanged = func(string) { update() }
		e.OnSubmitted = func(string) { d.Confirm() }
	}
	update()
	size := reserveNote(d, newer)
	g.newRound = func(nr *review.List) {
		newer.SetText(newerNote(nr.Method))
		newer.Show()
		if h := d.MinSize().Height; h > size.Height { // a note longer than reserveNote's
			size.Height = h
			d.Resize(size)
		}
	}
	g.d.Show(AcceptKey, d, d.Dismiss, d.Confirm, nil)
}

// acceptWidth is the Accept Suggestions dialog's width (pixels).
const acceptWidth = 640

// longestMethod is the longest method a round of the Suggested list names (ask.go: the refined
// round's, from a six-digit count of labels), for the room reserveNote keeps.
var longestMethod = "label spreading and networks fine-tuned from " + numfmt.Plural(999_999, "label")

// newerNote is what the Accept Suggestions dialog says when a newer round, made by method, came
// while it was open.
func newerNote(method string) string {
	return numfmt.Sprintf("A newer round came while this was open (%s). These figures are of the round shown when this opened, and Accept takes exactly them; Cancel, then Ctrl+Shift+T, shows the newer round's.", method)
}

// reserveNote sizes d, acceptWidth wide, as tall as it needs with note shown holding the longest
// note (laid out twice, as a wrapped label's height follows the width it was last given), then
// hides and empties note: the dialog keeps that size, so the note that comes later shows in room
// kept for it, the dialog growing neither taller nor moving under the person's pointer. It
// returns the size given.
func reserveNote(d *dialogs.Question, note *widget.Label) fyne.Size {
	size := fyne.NewSize(acceptWidth, d.MinSize().Height)
	for range 2 {
		d.Resize(size)
		size.Height = d.MinSize().Height
	}
	d.Resize(size)
	note.Hide()
	note.SetText("")
	return size
}

// bold is a header cell.
func bold(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// acceptAt accepts, as one undoable step, each class's suggestions at its threshold ts[k] or
// more (those still without a label), marks them accepted in the tally (pseudo-labels for the
// next rounds), and puts the doubtful rest after the labelled samples in the Suggested list,
// the cursor on the first of them.
func (g *Suggester) acceptAt(by []*classSuggestions, ts []float64) {
	c := g.c
	ds := c.State().DS
	var idx, labels []int
	for k, cl := range by {
		for _, i := range cl.samples[:cl.upTo(ts[k])] {
			if ds.Label(i) == sample.NoLabel {
				idx, labels = append(idx, i), append(labels, cl.label)
			}
		}
	}
	if len(idx) == 0 {
		c.Say("No suggestion is at that confidence: nothing accepted")
		return
	}
	if !c.Edit(func(ds *store.Dataset) error { return ds.SetLabelsAs(store.HowSuggestedAccepted, idx, labels) }) {
		return // said on the status bar, or waiting for a job that holds edits
	}
	for k, i := range idx {
		g.tally().mark(i, loopMark{label: labels[k], accepted: true})
	}
	left := g.restForReview()
	c.Say(numfmt.Sprintf("Accepted %d suggestions (one step: Ctrl+Z undoes it); %d doubtful left to review one by one: Enter accepts, a digit sets the label", len(idx), left))
}

// restForReview makes the Suggested list its labelled samples, then those still without one (the
// doubtful rest), each part in the list's order, shows it and puts the cursor on the first
// sample without a label; it returns how many are left. O(list).
func (g *Suggester) restForReview() int {
	c := g.c
	r := g.Mode.List
	if r == nil {
		return 0
	}
	ds := c.State().DS
	nr := *r
	nr.Order = make([]int, 0, len(r.Order))
	var rest []int
	for _, i := range r.Order {
		if ds.Label(i) != sample.NoLabel {
			nr.Order = append(nr.Order, i)
		} else {
			rest = append(rest, i)
		}
	}
	nr.Order = append(nr.Order, rest...)
	g.Mode.Refresh(c, &nr, true) // the person asked for the rest: its first one at the cursor
	return len(rest)
}
