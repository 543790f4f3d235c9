package ui

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"idxlabel/demo"
	"idxlabel/pairfile"
	"idxlabel/store"
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
	w.jobs.Schedule = q.schedule
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
	ds, err := store.FromArrays(images, given, nil, filepath.Join(t.TempDir(), "demo"+pairfile.JournalSuffix), store.Options{})
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
		out = append(out, k.Keys+" "+k.Does)
	}
	return strings.Join(out, " · ")
}
