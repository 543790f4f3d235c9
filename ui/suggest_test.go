package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/demo"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
)

// uiQueue stands in for fyne.Do as the window's schedule: background work queues its UI-thread
// functions here, and the test runs them on its own goroutine, as the real driver runs them on
// the UI thread (the test driver would run them at once, on the worker's goroutine).
type uiQueue struct {
	mu sync.Mutex
	fs []func()
}

func (q *uiQueue) schedule(f func()) {
	q.mu.Lock()
	q.fs = append(q.fs, f)
	q.mu.Unlock()
}

// run runs the queued functions, in order.
func (q *uiQueue) run() {
	q.mu.Lock()
	fs := q.fs
	q.fs = nil
	q.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// queueUI makes w's background work hand its UI-thread steps to a queue that the test runs on
// its own goroutine, as the real driver runs them on the UI thread (the test driver would run
// them at once on the worker's goroutine, racing with the test's reads of the widgets).
func queueUI(w *window) *uiQueue {
	q := &uiQueue{}
	w.jobs.schedule = q.schedule
	return q
}

// waitUI runs q's queued steps until cond holds.
func waitUI(t *testing.T, q *uiQueue, cond func() bool) {
	t.Helper()
	waitFor(t, func() bool { q.run(); return cond() })
}

// demoStore returns the demo's 300 generated digits as a dataset journaled in a temporary
// folder, with their labels or as images alone (no sample has a label), and the demo's labels.
func demoStore(t *testing.T, labelled bool) (*store.Dataset, []int) {
	t.Helper()
	images, labels, err := demo.Arrays()
	if err != nil {
		t.Fatal(err)
	}
	given := labels
	if !labelled {
		given = nil
	}
	ds, err := store.FromArrays(images, given, nil, filepath.Join(t.TempDir(), "demo"+store.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	truth := make([]int, len(labels.Data))
	for i, l := range labels.Data {
		truth[i] = int(l)
	}
	return ds, truth
}

// overlayText returns the text of the dialog on top of the window ("" when none).
func overlayText(w *window) string {
	var b strings.Builder
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *widget.RichText:
			b.WriteString(x.String() + "\n")
		case *canvas.Text:
			b.WriteString(x.Text + "\n")
		}
	})
	return b.String()
}

// legendKeys returns the legend's text.
func legendKeys(w *window) string {
	var out []string
	for _, k := range w.footer.shown {
		out = append(out, k.keys+" "+k.does)
	}
	return strings.Join(out, " · ")
}

// The Suggested review on samples without a label: with nothing labelled it says there is
// nothing to learn from; once 200 of the demo's 300 digits are labelled by hand, a short CNN
// trains in the background, the other 100 are listed (at once, in sample order, then most
// confident first with "7? 93%" badges), Enter accepts a suggestion, a digit sets another
// label, → skips, and each decision is one journaled, undoable edit.
func TestSuggestedReview(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := &uiQueue{}
	w.jobs.schedule = q.schedule
	w.sugg.opts = suspect.CNNOptions{Epochs: 12}
	ds, truth := demoStore(t, false)
	w.c.setDataset(ds, "demo images", false)

	// Nothing labelled: nothing to learn from, said clearly; the grid shows every sample.
	w.side.showList.SetSelected("Suggested")
	if msg := overlayText(w); !strings.Contains(msg, "No label to learn from") {
		t.Fatalf("the message says %q", msg)
	}
	if (w.c.mode != modeBrowse) || w.side.showList.Selected != "All" || w.c.v.Len() != 300 || w.sugg.training != nil {
		t.Fatalf("reviewing %v, Show %q, %d shown, training %v", (w.c.mode != modeBrowse), w.side.showList.Selected, w.c.v.Len(), w.sugg.training != nil)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})

	// 200 labelled by hand (one step), 100 left without a label.
	first200 := make([]int, 200)
	for i := range first200 {
		first200[i] = i
	}
	if err := ds.SetLabels(first200, truth[:200]); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.side.showList.SetSelected("Suggested")
	if !(w.c.mode != modeBrowse) || w.sugg.review.r == nil || !w.sugg.review.r.pending || w.c.v.Len() != 100 || w.c.v.at(0) != 200 || w.sugg.training == nil {
		t.Fatalf("before the model is ready: reviewing %v, %d shown, first %d", (w.c.mode != modeBrowse), w.c.v.Len(), w.c.v.at(0))
	}
	steps := ds.UndoName()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(200) != sample.NoLabel || ds.UndoName() != steps || !strings.HasPrefix(w.footer.status.Text, "No suggestion for this sample yet") {
		t.Fatalf("Enter without a suggestion: label %d, status %q", ds.Label(200), w.footer.status.Text)
	}
	// The person can label while the model trains: a digit on the sixth sample.
	w.c.moveCursor(5, false)
	early := w.c.v.at(5)
	test.Type(w.grid, strconv.Itoa(truth[early]))
	if ds.Label(early) != truth[early] || w.c.v.cursor != 6 {
		t.Fatalf("a digit while training: label %d, cursor %d", ds.Label(early), w.c.v.cursor)
	}
	waitFor(t, func() bool { q.run(); return !w.sugg.review.r.pending })
	if w.sugg.training != nil || w.sugg.model == nil || w.sugg.from != 200 {
		t.Fatalf("after training: job %v, model %v, learnt from %d", w.sugg.training != nil, w.sugg.model != nil, w.sugg.from)
	}
	if strings.Contains(w.footer.status.Text, "few labels") { // 200 labels are not few
		t.Fatalf("status %q", w.footer.status.Text)
	}

	// Most confident first, mostly right.
	if w.c.v.Len() != 100 || len(w.sugg.review.r.of) != 100 {
		t.Fatalf("%d shown, %d suggestions", w.c.v.Len(), len(w.sugg.review.r.of))
	}
	right := 0
	for p := range w.c.v.Len() {
		s := w.sugg.review.r.of[w.c.v.at(p)]
		if p > 0 && s.Confidence > w.sugg.review.r.of[w.c.v.at(p-1)].Confidence {
			t.Fatalf("position %d is more confident than %d", p, p-1)
		}
		if s.Suggested == truth[s.Index] {
			right++
		}
	}
	t.Logf("%d of 100 suggestions are the demo's label", right)
	if right < 85 {
		t.Errorf("only %d of 100 suggestions are the demo's label", right)
	}
	// The cursor goes to the most confident suggestion not decided yet.
	var free []int // positions of the samples still without a label
	for p := range w.c.v.Len() {
		if w.c.v.at(p) != early {
			free = append(free, p)
		}
	}
	if w.c.v.cursor != free[0] {
		t.Fatalf("cursor at %d, the first undecided at %d", w.c.v.cursor, free[0])
	}
	first := w.c.v.at(free[0])
	s := w.sugg.review.r.of[first]
	if got, want := badgeTexts(w.grid)[free[0]], fmt.Sprintf("%d? %d%%", s.Suggested, int(100*s.Confidence)); got != want {
		t.Fatalf("first badge %q, want %q", got, want)
	}
	if b := badgeTexts(w.grid)[w.c.v.pos[early]]; !strings.HasSuffix(b, "✓") {
		t.Fatalf("the sample decided while training has badge %q", b)
	}
	if l := legendKeys(w); !strings.Contains(l, "Enter accept suggestion") || !strings.Contains(l, "→ skip") {
		t.Fatalf("legend %q", l)
	}
	if !strings.Contains(w.detail.about.title.Text, fmt.Sprintf("Suggested %d,", s.Suggested)) {
		t.Fatalf("detail %q", w.detail.about.title.Text)
	}

	// Enter accepts, a digit sets another label, → skips; each decision is journaled.
	journal := func() int64 {
		fi, err := os.Stat(ds.JournalPath())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	size := journal()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(first) != s.Suggested || !ds.State(first).Reviewed || w.c.v.cursor != free[0]+1 || journal() <= size {
		t.Fatalf("Enter: label %d (suggested %d), cursor %d", ds.Label(first), s.Suggested, w.c.v.cursor)
	}
	w.c.moveCursor(free[1], false)
	second := w.c.v.at(free[1])
	other := (w.sugg.review.r.of[second].Suggested + 1) % 10
	size = journal()
	test.Type(w.grid, strconv.Itoa(other))
	if ds.Label(second) != other || w.c.v.cursor != free[1]+1 || journal() <= size {
		t.Fatalf("digit: label %d, cursor %d", ds.Label(second), w.c.v.cursor)
	}
	w.c.moveCursor(free[2], false)
	third := w.c.v.at(free[2])
	steps, size = ds.UndoName(), journal()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if ds.Label(third) != sample.NoLabel || w.c.v.cursor != free[2]+1 || ds.UndoName() != steps || journal() != size {
		t.Fatalf("→: label %d, cursor %d, undo %q", ds.Label(third), w.c.v.cursor, ds.UndoName())
	}
	if !strings.Contains(w.footer.status.Text, "labelled 3 / 100") {
		t.Fatalf("status %q", w.footer.status.Text)
	}
	// The change log tells the suggestion accepted from the label typed (changelog.go).
	if log := ds.ChangeLog(); len(log) != 203 || log[201] != (store.ChangeLogEntry{Index: first, Original: sample.NoLabel, New: s.Suggested, How: store.HowSuggestedAccepted, When: log[201].When}) ||
		log[202].Index != second || log[202].How != store.HowManual || log[201].When.IsZero() {
		t.Fatalf("the change log ends %+v", log[max(len(log)-2, 0):])
	}
	if b := badgeTexts(w.grid)[free[0]]; !strings.HasSuffix(b, "✓") {
		t.Fatalf("decided badge %q", b)
	}

	// A class filter shows the samples suggested as that class (and those labelled it).
	c := w.sugg.review.r.of[w.c.v.at(5)].Suggested
	w.side.list.Select(histogramRow(t, w, c))
	for p := range w.c.v.Len() {
		i := w.c.v.at(p)
		if l := ds.Label(i); l != c && (l != sample.NoLabel || w.sugg.review.r.of[i].Suggested != c) {
			t.Fatalf("class %d shows sample %d, label %d, suggested %d", c, i, l, w.sugg.review.r.of[i].Suggested)
		}
	}
	w.side.list.Select(0) // all classes

	// Each decision is one undoable step.
	w.c.undo()
	if ds.Label(second) != sample.NoLabel || ds.Label(first) != s.Suggested {
		t.Fatalf("undo: labels %d, %d", ds.Label(first), ds.Label(second))
	}
	w.c.undo()
	if ds.Label(first) != sample.NoLabel || ds.State(first).Reviewed || !strings.Contains(w.footer.status.Text, "labelled 1 / 100") {
		t.Fatalf("second undo: label %d, status %q", ds.Label(first), w.footer.status.Text)
	}
	w.c.redo()
	if ds.Label(first) != s.Suggested {
		t.Fatalf("redo: label %d", ds.Label(first))
	}

	// Suggest again: the model is reused (the labels grew by 2), the labelled samples are gone.
	w.sugg.suggestLabels()
	waitFor(t, func() bool { q.run(); return !w.sugg.review.r.pending })
	if w.c.v.Len() != 98 || slices.Contains(w.sugg.review.r.order, first) || slices.Contains(w.sugg.review.r.order, early) || w.sugg.from != 200 {
		t.Fatalf("again: %d shown, learnt from %d", w.c.v.Len(), w.sugg.from)
	}
	w.side.showList.SetSelected("All")
	if (w.c.mode != modeBrowse) || w.c.v.Len() != 300 {
		t.Fatalf("after the review: %d shown", w.c.v.Len())
	}
}

// Tools → Stop Training the CNN stops the training for suggestions: the review stays, without
// suggestions, until Tools → Suggest Labels starts again.
func TestSuggestedStop(t *testing.T) {
	w := newTestWindow(t)
	q := &uiQueue{}
	w.jobs.schedule = q.schedule
	w.sugg.opts = suspect.CNNOptions{Epochs: 12}
	ds, truth := demoStore(t, false)
	w.c.setDataset(ds, "demo images", false)
	if err := ds.SetLabels([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, truth[:10]); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.side.showList.SetSelected("Suggested")
	job := w.sugg.training
	if job == nil || !strings.Contains(w.footer.progress.Text, "Suggestion model: training on 10 labelled samples") {
		t.Fatalf("no training started: progress %q", w.footer.progress.Text)
	}
	menuItem(t, w, "Tools", "Stop Training the CNN").Action()
	if w.sugg.training != nil || !(w.c.mode != modeBrowse) || !w.sugg.review.r.pending || w.c.v.Len() != 290 || !strings.HasPrefix(w.footer.status.Text, "Stopped") {
		t.Fatalf("after Stop: training %v, reviewing %v, %d shown, status %q", w.sugg.training != nil, (w.c.mode != modeBrowse), w.c.v.Len(), w.footer.status.Text)
	}
	q.run() // what the stopped job queued so far changes nothing
	if !w.sugg.review.r.pending || len(w.sugg.review.r.of) != 0 || w.sugg.model != nil {
		t.Fatal("the stopped training delivered its result")
	}
	w.sugg.suggestLabels()
	waitFor(t, func() bool { q.run(); return !w.sugg.review.r.pending })
	if len(w.sugg.review.r.of) != 290 || w.sugg.from != 10 {
		t.Fatalf("after starting again: %d suggestions, learnt from %d", len(w.sugg.review.r.of), w.sugg.from)
	}
}

// Suggestions of a model that learnt from fewer than suspect.FewLabels labelled samples say so,
// in the Suggested review (the detail panel and the status bar) and in the draw window: their
// percentage, however calibrated, rests on a handful of held-out labels.
func TestSuggestionsFromFewLabelsSaySo(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.sugg.opts = suspect.CNNOptions{Epochs: 3}
	ds, truth := demoStore(t, false)
	w.c.setDataset(ds, "demo images", false)
	var few []int // 3 of each class
	seen := map[int]int{}
	for i, l := range truth {
		if seen[l] < 3 {
			seen[l]++
			few = append(few, i)
		}
	}
	labels := make([]int, len(few))
	for k, i := range few {
		labels[k] = truth[i]
	}
	if err := ds.SetLabels(few, labels); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.sugg.suggestLabels()
	waitUI(t, q, func() bool { return w.sugg.review.r != nil && !w.sugg.review.r.pending })
	if w.sugg.model.Labelled() != len(few) {
		t.Fatalf("the model learnt from %d labels", w.sugg.model.Labelled())
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
	w.draw.show()
	d := w.draw.open
	d.win.Resize(fyne.NewSize(760, 480))
	drawSeven(d)
	if !strings.Contains(d.status.Text, "few labels: low confidence") || d.label.Text == "" {
		t.Fatalf("the draw window says %q, label %q", d.status.Text, d.label.Text)
	}
}
