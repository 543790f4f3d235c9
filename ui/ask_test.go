package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/activelearn"
	"idxlabel/ui/suggest"
)

// fakeSuggest stands in for activelearn.Suggest in the window's tests, which test the list, not
// the method (suspect/activelearn's tests do; scripts/suggestloop.sh runs the real one in a
// window): it suggests each unlabelled sample's true label, but a wrong one for every seventh
// sample, with a confidence made from the sample's number, most confident first. It records the
// labels each call saw, and waits for gate (when set) before it answers.
type fakeSuggest struct {
	truth []int
	mu    sync.Mutex
	seen  []int // labelled samples of each call's snapshot
	gate  chan struct{}
}

func (f *fakeSuggest) suggest(ctx context.Context, d sample.Set, _ activelearn.Options) ([]activelearn.Suggestion, error) {
	labelled := 0
	var out []activelearn.Suggestion
	for k, l := range d.Labels {
		if l != sample.NoLabel {
			labelled++
			continue
		}
		i := d.Index[k]
		s := activelearn.Suggestion{Index: k, Label: f.truth[i], Confidence: 0.5 + 0.5*float64(i*37%100)/100}
		if i%7 == 0 {
			s.Label = (s.Label + 1) % 10
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b activelearn.Suggestion) int { return cmp.Compare(b.Confidence, a.Confidence) })
	f.mu.Lock()
	f.seen = append(f.seen, labelled)
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// lastSeen returns the labels the last call saw, and how many calls there were.
func (f *fakeSuggest) lastSeen() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) == 0 {
		return -1, 0
	}
	return f.seen[len(f.seen)-1], len(f.seen)
}

// loopWindow opens the demo's 300 digits with no label in a test window whose background steps
// run on the test's goroutine, with fakeSuggest in activelearn.Suggest's place and the wait for
// the labels to rest on the test's clock (handTimer): a round the labels start begins when the
// test says they have rested (rested), whatever the machine's speed.
func loopWindow(t *testing.T) (*window, *uiQueue, *store.Dataset, []int, *fakeSuggest) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	ds, truth := demoStore(t, false)
	w.c.setDataset(ds, "demo images", false)
	f := &fakeSuggest{truth: truth}
	w.sugg.SuggestFor = f.suggest
	w.sugg.FirstFor = nil // the refined suggestions alone: the fake's
	clock := &handClock{}
	w.sugg.AfterRest = clock.after
	clocks[w] = clock
	t.Cleanup(func() { delete(clocks, w) })
	return w, q, ds, truth, f
}

// labelPerClass gives the first k samples of each class their true labels (truth), as one edit
// the view applies at once, and returns them in sample order.
func labelPerClass(t *testing.T, w *window, ds *store.Dataset, truth []int, k int) []int {
	t.Helper()
	var picked, labels []int
	seen := map[int]int{}
	for i, l := range truth {
		if seen[l] < k {
			seen[l]++
			picked, labels = append(picked, i), append(labels, l)
		}
	}
	if err := ds.SetLabels(picked, labels); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	return picked
}

// firstSuggestions stands in for a round's first suggestions (Suggester.FirstFor): every sample
// without a label suggested its true label (truth) at confidence conf; saw (nil: nothing) is told
// how many labelled samples each call saw.
func firstSuggestions(truth []int, conf float64, saw func(n int)) func(context.Context, sample.Set, activelearn.Options) ([]activelearn.Suggestion, error) {
	return func(_ context.Context, d sample.Set, _ activelearn.Options) ([]activelearn.Suggestion, error) {
		var out []activelearn.Suggestion
		n := 0
		for k, l := range d.Labels {
			if l == sample.NoLabel {
				out = append(out, activelearn.Suggestion{Index: k, Label: truth[d.Index[k]], Confidence: conf})
			} else {
				n++
			}
		}
		if saw != nil {
			saw(n)
		}
		return out, nil
	}
}

// handClock is the test's clock for the waits for the labels to rest: each wait it starts ends
// when the test says so (rested), never by itself; last is the last it started.
type handClock struct{ last *handTimer }

func (c *handClock) after(_ time.Duration, run func()) suggest.RestTimer {
	c.last = &handTimer{run: run, armed: true}
	return c.last
}

// clocks are the loop windows' clocks.
var clocks = map[*window]*handClock{}

// handTimer is the wait for the labels to rest on a test's clock: it ends when the test says so
// (rested), never by itself.
type handTimer struct {
	run   func()
	armed bool
}

func (h *handTimer) Reset(time.Duration) bool { was := h.armed; h.armed = true; return was }
func (h *handTimer) Stop() bool               { was := h.armed; h.armed = false; return was }

// idle reports whether no round of the loop runs or waits.
func idle(w *window) bool { return w.sugg.Idle() }

// rested ends the wait for the labels to rest, if one is armed (its end schedules the round on
// the UI thread, as the timer's goroutine does), and reports whether no round runs or waits: a
// condition for waitUI that lets the loop run its rounds until it has learnt from every label
// (first in a condition, so that it is always evaluated).
func rested(w *window) bool {
	if h := clocks[w].last; h != nil && h.armed {
		h.armed = false
		h.run()
	}
	return idle(w)
}

// With no label at all, the Suggested list starts with the samples activelearn.Ask asks for
// (badged "ask", the cursor on the first), Enter on one asks for its label; the labels typed
// there are kept while rounds run and the next round learns from them all; then the
// suggestions follow, most confident first, Enter accepts one, and the status bar counts
// labelled, accepted, left and the share of suggestions right among the labels checked.
func TestSuggestedAsksFirst(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	w.side.showList.SetSelected("Suggested")
	if w.c.mode != w.sugg.Mode || w.sugg.Mode.List == nil || !w.sugg.Mode.List.Pending || w.c.v.Len() != 300 || !w.sugg.Rounding() {
		t.Fatalf("before the first round: mode %v, %d shown, round %v", w.c.mode, w.c.v.Len(), w.sugg.Rounding())
	}
	waitUI(t, q, func() bool { return !w.sugg.Mode.List.Pending })
	want, err := activelearn.Ask(context.Background(), ds.Snapshot(), suggest.AskRound, activelearn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := w.sugg.Mode.List
	if w.c.v.Len() != 300 || !r.SuggestsNone || len(r.Of) != 0 {
		t.Fatalf("first round: %d shown, no suggestions %v, %d suggestions", w.c.v.Len(), r.SuggestsNone, len(r.Of))
	}
	badges := badgeTexts(w.grid)
	for p, i := range want {
		if w.c.v.At(p) != i || !r.Asked[i] || badges[p] != "ask" {
			t.Fatalf("position %d: sample %d (asked %v, badge %q), activelearn asks for %d", p, w.c.v.At(p), r.Asked[w.c.v.At(p)], badges[p], i)
		}
	}
	if w.c.v.cursor != 0 || !strings.HasPrefix(w.detail.about.title.Text, "Asked") {
		t.Fatalf("cursor %d, detail %q", w.c.v.cursor, w.detail.about.title.Text)
	}
	steps := ds.UndoName()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(want[0]) != sample.NoLabel || ds.UndoName() != steps || !strings.HasPrefix(w.footer.status.Text, "Asked") {
		t.Fatalf("Enter on an asked sample: label %d, status %q", ds.Label(want[0]), w.footer.status.Text)
	}

	// The asked labels typed, the queue run between keys. No round starts meanwhile (the labels
	// have not rested: the test's clock says when; TestSuggestedKeyDuringRound types during a
	// round): a round begun after some of them would ask for samples of its own, from fewer
	// labels.
	before := w.sugg.Mode.List
	for p, i := range want {
		if w.c.v.At(w.c.v.cursor) != i {
			t.Fatalf("key %d: the cursor is on sample %d, not the asked %d", p, w.c.v.At(w.c.v.cursor), i)
		}
		test.Type(w.grid, strconv.Itoa(truth[i]))
		if ds.Label(i) != truth[i] {
			t.Fatalf("key %d: sample %d has label %d", p, i, ds.Label(i))
		}
		q.run()
		if w.sugg.Rounding() {
			t.Fatalf("key %d: a round started while the asked labels were typed", p)
		}
	}
	if w.sugg.Mode.List != before {
		t.Fatal("a round ended while the asked labels were typed")
	}
	at := w.c.v.Current() // the sample after the asks, where the last key moved the cursor
	w.sugg.Later()
	waitUI(t, q, func() bool { n, _ := f.lastSeen(); return rested(w) && n == suggest.AskRound })
	r = w.sugg.Mode.List
	if len(r.Of) == 0 || r.SuggestsNone {
		t.Fatal("no suggestions after the asked labels")
	}
	for p, i := range want { // the decided samples stay where they were
		if w.c.v.At(p) != i {
			t.Fatalf("after the round, position %d holds %d, not the decided %d", p, w.c.v.At(p), i)
		}
	}
	// Then the cursor's sample, where it was (the round does not move it), then the samples
	// activelearn.Ask asks for now, then the suggestions, most confident first.
	if w.c.v.Current() != at || w.c.v.At(len(want)) != at {
		t.Fatalf("after the round the cursor is on sample %d at %d, not on sample %d at %d", w.c.v.Current(), w.c.v.Cursor(), at, len(want))
	}
	again, err := activelearn.Ask(context.Background(), ds.Snapshot(), suggest.AskRound, activelearn.Options{})
	if err != nil || len(again) == 0 {
		t.Fatalf("activelearn.Ask: %v, %d samples", err, len(again))
	}
	p := len(want) + 1
	for _, i := range again {
		if i == at {
			continue
		}
		if w.c.v.At(p) != i || !r.Asked[i] {
			t.Fatalf("position %d: sample %d, activelearn asks for %d", p, w.c.v.At(p), i)
		}
		p++
	}
	firstSugg := p
	for ; p < w.c.v.Len(); p++ {
		s, ok := r.Of[w.c.v.At(p)]
		if !ok || p > firstSugg && s.Confidence > r.Of[w.c.v.At(p-1)].Confidence {
			t.Fatalf("position %d: suggestion %v %+v", p, ok, s)
		}
	}
	w.c.renderCursor() // a redraw: the round's report stays, after the counts, until the cursor moves
	if st := w.footer.status.Text; !strings.Contains(st, "labelled 20 · accepted 0 · left 280") || !strings.Contains(st, noteAfter+"Suggested list: ") {
		t.Fatalf("after a redraw the status bar says %q, not the counts and the round's report", st)
	}
	w.c.moveCursor(firstSugg, false) // then it gives way to the counts
	if !strings.Contains(w.footer.status.Text, "labelled 20 · accepted 0 · left 280") {
		t.Fatalf("status %q", w.footer.status.Text)
	}

	// Enter accepts a suggestion: journaled as suggested-accepted, counted accepted and right.
	w.c.moveCursor(firstSugg, false)
	i := w.c.v.At(firstSugg)
	s := r.Of[i]
	scored := w.sugg.Tally().Scored
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(i) != s.Suggested || w.sugg.Tally().Accepted != 1 || w.sugg.Tally().Scored != scored+1 {
		t.Fatalf("Enter: label %d, tally %+v", ds.Label(i), w.sugg.Tally())
	}
	if log := ds.ChangeLog(); log[len(log)-1].Index != i || log[len(log)-1].How != store.HowSuggestedAccepted {
		t.Fatalf("the change log ends %+v", log[len(log)-1])
	}
	// A digit equal to a right suggestion is the person's label, not an accepted suggestion:
	// journaled as set by hand, not marked accepted (the next rounds learn from it), scored right.
	same := -1
	for p := firstSugg; p < w.c.v.Len(); p++ {
		if j := w.c.v.At(p); ds.Label(j) == sample.NoLabel && r.Of[j].Suggested == truth[j] {
			same = p
			break
		}
	}
	w.c.moveCursor(same, false)
	k := w.c.v.At(same)
	pre := w.sugg.Tally()
	test.Type(w.grid, strconv.Itoa(truth[k]))
	if tl := w.sugg.Tally(); ds.Label(k) != truth[k] || tl.Accepted != pre.Accepted || tl.Scored != pre.Scored+1 || tl.Right != pre.Right+1 {
		t.Fatalf("the suggested digit typed: label %d, tally %+v (before %+v)", ds.Label(k), tl, pre)
	}
	if log := ds.ChangeLog(); log[len(log)-1].Index != k || log[len(log)-1].How != store.HowManual {
		t.Fatalf("the suggested digit typed: the change log ends %+v, want set by hand", log[len(log)-1])
	}
	if st, _, _ := ds.SampleAt(ds.Gen(), k); st.Accepted {
		t.Fatalf("the suggested digit typed: sample %d is marked accepted", k)
	}
	scored++

	// A wrong suggestion corrected by a digit: scored, not right.
	var wrong int = -1
	for p := firstSugg; p < w.c.v.Len(); p++ {
		if j := w.c.v.At(p); ds.Label(j) == sample.NoLabel && r.Of[j].Suggested != truth[j] {
			wrong = p
			break
		}
	}
	w.c.moveCursor(wrong, false)
	j := w.c.v.At(wrong)
	right := w.sugg.Tally().Right
	test.Type(w.grid, strconv.Itoa(truth[j]))
	tl := w.sugg.Tally()
	if ds.Label(j) != truth[j] || tl.Scored != scored+2 || tl.Right != right || tl.Accepted != 1 {
		t.Fatalf("a digit over a wrong suggestion: label %d, tally %+v", ds.Label(j), tl)
	}
	if !strings.Contains(w.footer.status.Text, "labelled 22 · accepted 1 · left 277 · suggestions right:") {
		t.Fatalf("status %q", w.footer.status.Text)
	}
	w.c.undo() // an undone label no longer counts
	if tl := w.sugg.Tally(); tl.Scored != scored+1 || tl.Accepted != 1 {
		t.Fatalf("after undo: tally %+v", tl)
	}
}

// A key typed while a round runs is applied at once and kept; when the round ends, its list
// keeps the label, and another round starts that learns from it.
func TestSuggestedKeyDuringRound(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	first := map[int]bool{}
	var labelled []int
	for i, l := range truth { // two of each class: suggestions from the first round
		if !first[l*10+1] || !first[l*10+2] {
			if first[l*10+1] {
				first[l*10+2] = true
			}
			first[l*10+1] = true
			labelled = append(labelled, i)
		}
	}
	labels := make([]int, len(labelled))
	for k, i := range labelled {
		labels[k] = truth[i]
	}
	if err := ds.SetLabels(labelled, labels); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	gate := make(chan struct{})
	f.mu.Lock()
	f.gate = gate
	f.mu.Unlock()
	w.side.showList.SetSelected("Suggested")
	waitFor(t, func() bool { _, calls := f.lastSeen(); return calls == 1 }) // the round waits at the gate
	i := w.c.v.Current()
	test.Type(w.grid, strconv.Itoa(truth[i]))
	if ds.Label(i) != truth[i] {
		t.Fatalf("a key during the round: label %d", ds.Label(i))
	}
	close(gate)
	waitUI(t, q, func() bool { n, calls := f.lastSeen(); return rested(w) && calls >= 2 && n == len(labelled)+1 })
	r := w.sugg.Mode.List
	if r.Pending || ds.Label(i) != truth[i] || !slices.Contains(r.Order, i) {
		t.Fatalf("after the rounds: pending %v, label %d", r.Pending, ds.Label(i))
	}
	if _, ok := r.Of[i]; ok {
		t.Fatal("the sample labelled during the round still has a suggestion")
	}
}

// A round shows its first suggestions (FirstFor, label spreading in the window) at once and goes
// on refining them (SuggestFor) without holding a key: a label typed while it refines is applied
// at once, and once the labels rest the refining stops and the next round's first suggestions
// learn from it; its refined ones replace them when done.
func TestSuggestedFirstThenRefined(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	labelled := labelPerClass(t, w, ds, truth, 2) // suggestions from the first round
	var mu sync.Mutex
	var firsts []int // the labelled samples each first-suggestions call saw
	w.sugg.FirstFor = firstSuggestions(truth, 0.6, func(n int) {
		mu.Lock()
		firsts = append(firsts, n)
		mu.Unlock()
	})
	lastFirst := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		if len(firsts) == 0 {
			return -1, 0
		}
		return firsts[len(firsts)-1], len(firsts)
	}
	gate := make(chan struct{})
	f.mu.Lock()
	f.gate = gate // the refining waits
	f.mu.Unlock()
	w.side.showList.SetSelected("Suggested")
	waitUI(t, q, func() bool { r := w.sugg.Mode.List; return r != nil && !r.Pending && len(r.Of) > 0 })
	r := w.sugg.Mode.List
	if !w.sugg.Rounding() || !strings.Contains(r.Method, "refining") {
		t.Fatalf("the first suggestions shown: round running %v, method %q", w.sugg.Rounding(), r.Method)
	}
	i := w.c.v.Current()
	test.Type(w.grid, strconv.Itoa(truth[i]))
	if ds.Label(i) != truth[i] {
		t.Fatalf("a key while the round refines: label %d", ds.Label(i))
	}
	// The labels rest: the refining stops, the next round's first suggestions learn from the key.
	waitUI(t, q, func() bool { rested(w); n, _ := lastFirst(); return n == len(labelled)+1 })
	waitUI(t, q, func() bool { return strings.Contains(w.sugg.Mode.List.Method, "from "+strconv.Itoa(len(labelled)+1)) })
	if _, calls := f.lastSeen(); calls != 2 {
		t.Fatalf("%d refining calls, want 2 (the first stopped, the second waiting)", calls)
	}
	close(gate)
	waitUI(t, q, func() bool { return rested(w) && !strings.Contains(w.sugg.Mode.List.Method, "refining") })
	r = w.sugg.Mode.List
	if n, _ := f.lastSeen(); n != len(labelled)+1 || ds.Label(i) != truth[i] || r.Pending {
		t.Fatalf("the refined round saw %d labels; sample %d has label %d", n, i, ds.Label(i))
	}
	if _, ok := r.Of[i]; ok {
		t.Fatal("the sample labelled while the round refined still has a suggestion")
	}
}

// Ctrl+Shift+A accepts every suggestion of the cursor's class at least as confident as the
// cursor's, as one undoable step journaled suggested-accepted; with samples selected (a lasso on
// the map selects what it holds), the suggestions of the selected samples. Nothing else changes.
func TestAcceptManySuggestions(t *testing.T) {
	w, q, ds, truth, _ := loopWindow(t)
	labelled := make([]int, 30)
	for i := range labelled {
		labelled[i] = i
	}
	if err := ds.SetLabels(labelled, truth[:30]); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.side.showList.SetSelected("Suggested")
	waitUI(t, q, func() bool { return rested(w) && !w.sugg.Mode.List.Pending })
	r := w.sugg.Mode.List
	accept := menuItem(t, w, "Tools", "Accept Suggestions to the Cursor or Selection")
	// The cursor on the fifth suggestion of the class of the most confident one.
	var class, at = -1, -1
	n := 0
	for p := range w.c.v.Len() {
		s, ok := r.Of[w.c.v.At(p)]
		if !ok {
			continue
		}
		if class < 0 {
			class = s.Suggested
		}
		if s.Suggested == class {
			if n++; n == 5 {
				at = p
				break
			}
		}
	}
	w.c.moveCursor(at, false)
	min := r.Of[w.c.v.At(at)].Confidence
	var want []int
	for i, s := range r.Of {
		if s.Suggested == class && s.Confidence >= min {
			want = append(want, i)
		}
	}
	before := ds.ChangeLog()
	accept.Action()
	for i, s := range r.Of {
		l := ds.Label(i)
		if in := slices.Contains(want, i); in && l != class || !in && l != sample.NoLabel {
			t.Fatalf("sample %d (suggested %d at %.2f): label %d", i, s.Suggested, s.Confidence, l)
		}
	}
	log := ds.ChangeLog()
	if len(log) != len(before)+len(want) || log[len(log)-1].How != store.HowSuggestedAccepted || w.sugg.Tally().Accepted != len(want) {
		t.Fatalf("the change log grew by %d (want %d), ends %+v; accepted %d", len(log)-len(before), len(want), log[len(log)-1], w.sugg.Tally().Accepted)
	}
	if !strings.HasPrefix(w.footer.status.Text, "Accepted "+strconv.Itoa(len(want))+" suggestions of") {
		t.Fatalf("status %q", w.footer.status.Text)
	}
	w.c.undo() // one step
	for _, i := range want {
		if ds.Label(i) != sample.NoLabel {
			t.Fatalf("after one undo sample %d has label %d", i, ds.Label(i))
		}
	}
	if w.sugg.Tally().Accepted != 0 {
		t.Fatalf("after undo %d counted accepted", w.sugg.Tally().Accepted)
	}
	// The selection: three samples with suggestions, whatever their class and confidence.
	waitUI(t, q, func() bool { return rested(w) })
	r = w.sugg.Mode.List
	var sel []int
	w.c.v.clearSelection()
	for p := w.c.v.Len() - 1; p >= 0 && len(sel) < 3; p-- {
		if i := w.c.v.At(p); ds.Label(i) == sample.NoLabel {
			if _, ok := r.Of[i]; ok {
				sel = append(sel, i)
				w.c.v.setSelected(i, true)
			}
		}
	}
	accept.Action()
	for _, i := range sel {
		if ds.Label(i) != r.Of[i].Suggested {
			t.Fatalf("selected sample %d: label %d, suggested %d", i, ds.Label(i), r.Of[i].Suggested)
		}
	}
	if got := ds.Counts()[0]; got.Class != sample.NoLabel || got.Count != 300-30-3 {
		t.Fatalf("counts %+v", ds.Counts())
	}
}

// Tools → Stop Training the CNN stops the round: the list stays as it was, without suggestions,
// until Tools → Suggest Labels starts again.
func TestSuggestedStop(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	if err := ds.SetLabels([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, truth[:10]); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	gate := make(chan struct{})
	f.gate = gate
	w.side.showList.SetSelected("Suggested")
	if !w.sugg.Rounding() || !strings.Contains(w.footer.progress.Text, "Suggestions") {
		t.Fatalf("no round started: progress %q", w.footer.progress.Text)
	}
	menuItem(t, w, "Tools", "Stop Training the CNN").Action()
	close(gate)
	q.run()
	if !idle(w) || w.c.mode != w.sugg.Mode || !w.sugg.Mode.List.Pending || w.c.v.Len() != 290 || !strings.HasPrefix(w.footer.status.Text, "Stopped") {
		t.Fatalf("after Stop: idle %v, %d shown, status %q", idle(w), w.c.v.Len(), w.footer.status.Text)
	}
	f.mu.Lock()
	f.gate = nil
	f.mu.Unlock()
	w.sugg.Suggest()
	waitUI(t, q, func() bool { return !w.sugg.Mode.List.Pending })
	if len(w.sugg.Mode.List.Of)+len(w.sugg.Mode.List.Asked) != 290 {
		t.Fatalf("after starting again: %d suggestions, %d asked", len(w.sugg.Mode.List.Of), len(w.sugg.Mode.List.Asked))
	}
}

// Suggestions made from fewer than suspect.FewLabels labels say so (the detail panel, the status
// bar, badges without a percentage), and so does the draw window's model trained on them.
func TestSuggestionsFromFewLabelsSaySo(t *testing.T) {
	w, q, ds, truth, _ := loopWindow(t)
	w.scans.Opts = suspect.CNNOptions{Epochs: 3}
	few := labelPerClass(t, w, ds, truth, 3)
	w.sugg.Suggest()
	waitUI(t, q, func() bool { return rested(w) && !w.sugg.Mode.List.Pending })
	for p := range w.c.v.Len() {
		if _, ok := w.sugg.Mode.List.Of[w.c.v.At(p)]; ok {
			w.c.moveCursor(p, false)
			break
		}
	}
	if text := w.detail.about.title.Text; !strings.Contains(text, "Few labels: low confidence") {
		t.Fatalf("the detail panel says %q", text)
	}
	if !strings.Contains(w.footer.status.Text, "few labels: low confidence") {
		t.Fatalf("the status bar says %q", w.footer.status.Text)
	}
	if b := badgeTexts(w.grid)[w.c.v.cursor]; strings.Contains(b, "%") || !strings.HasSuffix(b, "?") {
		t.Fatalf("the badge %q claims a confidence", b)
	}
	w.draw.Show()
	d := w.draw.Open()
	d.Win.Resize(fyne.NewSize(760, 480))
	waitUI(t, q, func() bool { return w.sugg.Model() != nil })
	if w.sugg.Model().Labelled() != len(few) {
		t.Fatalf("the model learnt from %d labels", w.sugg.Model().Labelled())
	}
	drawSeven(d)
	if !strings.Contains(d.Status.Text, "few labels: low confidence") || d.Label.Text == "" {
		t.Fatalf("the draw window says %q, label %q", d.Status.Text, d.Label.Text)
	}
}

// A round's list keeps the cursor where the person put it, so that the next key labels the sample
// under it: moved down the list before the first round ends, the cursor stays on its sample
// through that round (and a digit labels it, not the first ask); after labels of two classes,
// the first suggestions leave it where it is too. (Untouched, the first round puts it on the
// first ask: TestSuggestedAsksFirst.)
func TestSuggestedRoundKeepsTheCursor(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	gate := make(chan struct{})
	ask := w.sugg.AskFor
	w.sugg.AskFor = func(ctx context.Context, d sample.Set, n int, opts activelearn.Options) ([]int, error) {
		select { // the first round waits until the person has moved
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return ask(ctx, d, n, opts)
	}
	w.side.showList.SetSelected("Suggested")
	if !w.sugg.Mode.List.Pending || !w.sugg.Rounding() {
		t.Fatal("the first round is not running")
	}
	w.c.moveCursor(50, false)
	i := w.c.v.Current()
	close(gate)
	waitUI(t, q, func() bool { return !w.sugg.Mode.List.Pending })
	r := w.sugg.Mode.List
	if w.c.v.Current() != i || len(r.Asked) == 0 || !r.SuggestsNone {
		t.Fatalf("after the first round the cursor is on sample %d, not %d (%d asked)", w.c.v.Current(), i, len(r.Asked))
	}
	for p := range w.c.v.Cursor() + 1 {
		if r.Asked[w.c.v.At(p)] {
			t.Fatalf("asked sample %d put at %d, before the cursor (%d)", w.c.v.At(p), p, w.c.v.Cursor())
		}
	}
	test.Type(w.grid, strconv.Itoa(truth[i]))
	if ds.Label(i) != truth[i] || w.c.v.Current() == i {
		t.Fatalf("a digit after the round: sample %d has label %d, the cursor on %d", i, ds.Label(i), w.c.v.Current())
	}
	for j := range r.Asked {
		if ds.Label(j) != sample.NoLabel {
			t.Fatalf("asked sample %d got label %d", j, ds.Label(j))
		}
	}
	// A second class, typed further down: the round brings the first suggestions.
	p := w.c.v.Cursor() + 10
	for ; truth[w.c.v.At(p)] == truth[i] || r.Asked[w.c.v.At(p)]; p++ {
	}
	w.c.moveCursor(p, false)
	k := w.c.v.Current()
	test.Type(w.grid, strconv.Itoa(truth[k]))
	next := w.c.v.Current()
	if ds.Label(k) != truth[k] || next == k {
		t.Fatalf("sample %d has label %d, the cursor on %d", k, ds.Label(k), next)
	}
	waitUI(t, q, func() bool { n, _ := f.lastSeen(); return rested(w) && n == 2 })
	if r := w.sugg.Mode.List; len(r.Of) == 0 || r.SuggestsNone || w.c.v.Current() != next {
		t.Fatalf("after the first suggestions (%d) the cursor is on sample %d, not %d", len(r.Of), w.c.v.Current(), next)
	}
	test.Type(w.grid, strconv.Itoa(truth[next]))
	if ds.Label(next) != truth[next] {
		t.Fatalf("a digit after the first suggestions: sample %d has label %d", next, ds.Label(next))
	}
}

// A round of the Suggested list says its summary as a note: the status bar shows it after the
// list's counts (labelled, accepted, left), which stay in sight while the person waits for the
// round, not hidden until the next key. Then a label typed counts at once, the note gone.
func TestSuggestedRoundNoteKeepsTheCounts(t *testing.T) {
	w, q, ds, truth, _ := loopWindow(t)
	status := func() string { return w.c.out.footer.status.Text }
	w.side.showList.SetSelected("Suggested")
	waitUI(t, q, func() bool { return rested(w) && strings.Contains(status(), "Suggested list:") })
	counts := numfmt.Sprintf("labelled 0 · accepted 0 · left %d", ds.Len())
	if got := status(); !strings.Contains(got, counts) || strings.Index(got, counts) > strings.Index(got, "Suggested list:") {
		t.Fatalf("with the round's note the status bar says %q: want the counts %q, then the note", got, counts)
	}
	i := w.c.v.Current()
	test.Type(w.grid, strconv.Itoa(truth[i]))
	if got := status(); !strings.Contains(got, numfmt.Sprintf("labelled 1 · accepted 0 · left %d", ds.Len()-1)) || strings.Contains(got, "Suggested list:") {
		t.Fatalf("after a label typed the status bar says %q", got)
	}
}
