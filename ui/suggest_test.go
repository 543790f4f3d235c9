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

	"idxlabel/internal/demo"
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

// unlabelledDemo returns the demo's 300 generated digits as a dataset of images alone (no sample
// has a label), journaled in a temporary folder, and the demo's labels.
func unlabelledDemo(t *testing.T) (*store.Dataset, []int) {
	t.Helper()
	images, labels, err := demo.Arrays()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := store.FromArrays(images, nil, nil, filepath.Join(t.TempDir(), "demo"+store.JournalSuffix), store.Options{})
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
func overlayText(w *mainWindow) string {
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
func legendKeys(w *mainWindow) string {
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
	w.schedule = q.schedule
	w.cnnOpts = suspect.CNNOptions{Epochs: 12}
	ds, truth := unlabelledDemo(t)
	w.setDataset(ds, "demo images", false)

	// Nothing labelled: nothing to learn from, said clearly; the grid shows every sample.
	w.side.show.SetSelected(suggestedText)
	if msg := overlayText(w); !strings.Contains(msg, "No label to learn from") {
		t.Fatalf("the message says %q", msg)
	}
	if w.reviewing() || w.side.show.Selected != "All" || w.v.Len() != 300 || w.training != nil {
		t.Fatalf("reviewing %v, Show %q, %d shown, training %v", w.reviewing(), w.side.show.Selected, w.v.Len(), w.training != nil)
	}
	w.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})

	// 200 labelled by hand (one step), 100 left without a label.
	first200 := make([]int, 200)
	for i := range first200 {
		first200[i] = i
	}
	if err := ds.SetLabels(first200, truth[:200]); err != nil {
		t.Fatal(err)
	}
	w.edited()
	w.side.show.SetSelected(suggestedText)
	if !w.reviewing() || w.sugg == nil || !w.sugg.pending || w.v.Len() != 100 || w.v.at(0) != 200 || w.training == nil {
		t.Fatalf("before the model is ready: reviewing %v, %d shown, first %d", w.reviewing(), w.v.Len(), w.v.at(0))
	}
	steps := ds.UndoName()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(200) != store.NoLabel || ds.UndoName() != steps || !strings.HasPrefix(w.status.Text, "No suggestion for this sample yet") {
		t.Fatalf("Enter without a suggestion: label %d, status %q", ds.Label(200), w.status.Text)
	}
	// The person can label while the model trains: a digit on the sixth sample.
	w.grid.moveCursor(5)
	early := w.v.at(5)
	test.Type(w.grid, strconv.Itoa(truth[early]))
	if ds.Label(early) != truth[early] || w.v.cursor != 6 {
		t.Fatalf("a digit while training: label %d, cursor %d", ds.Label(early), w.v.cursor)
	}
	waitFor(t, func() bool { q.run(); return !w.sugg.pending })
	if w.training != nil || w.model == nil || w.modelFrom != 200 {
		t.Fatalf("after training: job %v, model %v, learnt from %d", w.training != nil, w.model != nil, w.modelFrom)
	}

	// Most confident first, mostly right.
	if w.v.Len() != 100 || len(w.sugg.of) != 100 {
		t.Fatalf("%d shown, %d suggestions", w.v.Len(), len(w.sugg.of))
	}
	right := 0
	for p := range w.v.Len() {
		s := w.sugg.of[w.v.at(p)]
		if p > 0 && s.Confidence > w.sugg.of[w.v.at(p-1)].Confidence {
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
	for p := range w.v.Len() {
		if w.v.at(p) != early {
			free = append(free, p)
		}
	}
	if w.v.cursor != free[0] {
		t.Fatalf("cursor at %d, the first undecided at %d", w.v.cursor, free[0])
	}
	first := w.v.at(free[0])
	s := w.sugg.of[first]
	if got, want := badgeTexts(w.grid)[free[0]], fmt.Sprintf("%d? %d%%", s.Suggested, int(100*s.Confidence)); got != want {
		t.Fatalf("first badge %q, want %q", got, want)
	}
	if b := badgeTexts(w.grid)[w.v.pos[early]]; !strings.HasSuffix(b, "✓") {
		t.Fatalf("the sample decided while training has badge %q", b)
	}
	if l := legendKeys(w); !strings.Contains(l, "Enter accept suggestion") || !strings.Contains(l, "→ skip") {
		t.Fatalf("legend %q", l)
	}
	if !strings.Contains(w.detail.neighbours.title.Text, fmt.Sprintf("Suggested %d,", s.Suggested)) {
		t.Fatalf("detail %q", w.detail.neighbours.title.Text)
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
	if ds.Label(first) != s.Suggested || !ds.State(first).Reviewed || w.v.cursor != free[0]+1 || journal() <= size {
		t.Fatalf("Enter: label %d (suggested %d), cursor %d", ds.Label(first), s.Suggested, w.v.cursor)
	}
	w.grid.moveCursor(free[1])
	second := w.v.at(free[1])
	other := (w.sugg.of[second].Suggested + 1) % 10
	size = journal()
	test.Type(w.grid, strconv.Itoa(other))
	if ds.Label(second) != other || w.v.cursor != free[1]+1 || journal() <= size {
		t.Fatalf("digit: label %d, cursor %d", ds.Label(second), w.v.cursor)
	}
	w.grid.moveCursor(free[2])
	third := w.v.at(free[2])
	steps, size = ds.UndoName(), journal()
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if ds.Label(third) != store.NoLabel || w.v.cursor != free[2]+1 || ds.UndoName() != steps || journal() != size {
		t.Fatalf("→: label %d, cursor %d, undo %q", ds.Label(third), w.v.cursor, ds.UndoName())
	}
	if !strings.Contains(w.status.Text, "labelled 3 / 100") {
		t.Fatalf("status %q", w.status.Text)
	}
	// The change log tells the suggestion accepted from the label typed (changelog.go).
	if log := ds.ChangeLog(); len(log) != 203 || log[201] != (store.ChangeLogEntry{Index: first, Original: store.NoLabel, New: s.Suggested, How: store.HowSuggestedAccepted, When: log[201].When}) ||
		log[202].Index != second || log[202].How != store.HowManual || log[201].When.IsZero() {
		t.Fatalf("the change log ends %+v", log[max(len(log)-2, 0):])
	}
	if b := badgeTexts(w.grid)[free[0]]; !strings.HasSuffix(b, "✓") {
		t.Fatalf("decided badge %q", b)
	}

	// A class filter shows the samples suggested as that class (and those labelled it).
	c := w.sugg.of[w.v.at(5)].Suggested
	w.side.class = &c
	w.side.changed()
	for p := range w.v.Len() {
		i := w.v.at(p)
		if l := ds.Label(i); l != c && (l != store.NoLabel || w.sugg.of[i].Suggested != c) {
			t.Fatalf("class %d shows sample %d, label %d, suggested %d", c, i, l, w.sugg.of[i].Suggested)
		}
	}
	w.side.class = nil
	w.side.changed()

	// Each decision is one undoable step.
	w.undo()
	if ds.Label(second) != store.NoLabel || ds.Label(first) != s.Suggested {
		t.Fatalf("undo: labels %d, %d", ds.Label(first), ds.Label(second))
	}
	w.undo()
	if ds.Label(first) != store.NoLabel || ds.State(first).Reviewed || !strings.Contains(w.status.Text, "labelled 1 / 100") {
		t.Fatalf("second undo: label %d, status %q", ds.Label(first), w.status.Text)
	}
	w.redo()
	if ds.Label(first) != s.Suggested {
		t.Fatalf("redo: label %d", ds.Label(first))
	}

	// Suggest again: the model is reused (the labels grew by 2), the labelled samples are gone.
	w.suggestLabels()
	waitFor(t, func() bool { q.run(); return !w.sugg.pending })
	if w.v.Len() != 98 || slices.Contains(w.sugg.order, first) || slices.Contains(w.sugg.order, early) || w.modelFrom != 200 {
		t.Fatalf("again: %d shown, learnt from %d", w.v.Len(), w.modelFrom)
	}
	w.side.show.SetSelected("All")
	if w.reviewing() || w.v.Len() != 300 {
		t.Fatalf("after the review: %d shown", w.v.Len())
	}
}

// Tools → Stop Training the CNN stops the training for suggestions: the review stays, without
// suggestions, until Tools → Suggest Labels starts again.
func TestSuggestedStop(t *testing.T) {
	w := newTestWindow(t)
	q := &uiQueue{}
	w.schedule = q.schedule
	w.cnnOpts = suspect.CNNOptions{Epochs: 12}
	ds, truth := unlabelledDemo(t)
	w.setDataset(ds, "demo images", false)
	if err := ds.SetLabels([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, truth[:10]); err != nil {
		t.Fatal(err)
	}
	w.edited()
	w.side.show.SetSelected(suggestedText)
	job := w.training
	if job == nil || !strings.Contains(w.status.Text, "Suggestion model: training on 10 labelled samples") {
		t.Fatalf("no training started: status %q", w.status.Text)
	}
	w.stopTraining()
	if w.training != nil || !w.reviewing() || !w.sugg.pending || w.v.Len() != 290 || !strings.HasPrefix(w.status.Text, "Stopped") {
		t.Fatalf("after Stop: training %v, reviewing %v, %d shown, status %q", w.training != nil, w.reviewing(), w.v.Len(), w.status.Text)
	}
	q.run() // what the stopped job queued so far changes nothing
	if !w.sugg.pending || len(w.sugg.of) != 0 || w.model != nil {
		t.Fatal("the stopped training delivered its result")
	}
	w.suggestLabels()
	waitFor(t, func() bool { q.run(); return !w.sugg.pending })
	if len(w.sugg.of) != 290 || w.modelFrom != 10 {
		t.Fatalf("after starting again: %d suggestions, learnt from %d", len(w.sugg.of), w.modelFrom)
	}
}
