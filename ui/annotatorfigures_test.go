package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/store"
)

// The annotators' figures (each annotator's agreement with the open labels in the detail panel,
// their confusion matrix beside the grid) follow the labels as adjudicated even while a message
// holds the status bar: two samples adjudicated while the figures are being made, then Enter on
// a sample without a majority (its message stays on the status bar); once that work ends the
// figures are made again, of the labels now. Before, they were made again only when the status
// bar asked for its line, which a message keeps it from doing: they stayed those of the first
// adjudication until the cursor moved.
func TestAnnotatorFiguresFollowUnderAMessage(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, lp string) {
		q := queueUI(w) // the background work's UI steps run here, in order, as on the UI thread
		// bob: the open labels, but samples 0–3 one class up; with two annotators no
		// disagreement has a majority.
		bob := make([]int32, ds.Len())
		for i := range bob {
			bob[i] = int32(ds.Label(i))
			if i < 4 {
				bob[i] = (bob[i] + 1) % 10
			}
		}
		arr, _ := idx.New(idx.UByte, len(bob))
		for i, l := range bob {
			arr.Data[i] = byte(l)
		}
		path := filepath.Join(filepath.Dir(lp), "bob-labels-idx1-ubyte")
		if err := idx.WriteFile(path, arr); err != nil {
			t.Fatal(err)
		}
		w.annot.Add(path)
		waitUI(t, q, func() bool { return w.c.mode == w.annot.Mode && w.jobs.Running() == 0 })
		if w.c.v.Len() != 4 || w.c.v.Current() != 0 {
			t.Fatalf("the Disagreements list shows %d samples, the cursor on %d", w.c.v.Len(), w.c.v.Current())
		}

		grid := w.win.Canvas()
		grid.Focus(w.grid)
		// Samples 0 and 1 take bob's labels: the figures are made again after the first (their
		// job's last step waits in q), the second comes meanwhile.
		grid.Focused().TypedRune(rune('0' + bob[0]))
		if w.jobs.Running() != 1 {
			t.Fatalf("no figures being made after an adjudication (%d jobs)", w.jobs.Running())
		}
		grid.Focused().TypedRune(rune('0' + bob[1]))
		grid.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // sample 2: no majority
		said := w.c.out.footer.status.Text
		if w.c.v.Current() != 2 || !strings.Contains(said, "no majority") {
			t.Fatalf("Enter on sample 2: cursor on %d, the status bar %q", w.c.v.Current(), said)
		}
		waitUI(t, q, func() bool { return w.jobs.Running() == 0 })

		open := make([]int32, ds.Len())
		for i := range open {
			open[i] = int32(ds.Label(i))
		}
		k, err := annotate.Cohen(open, bob)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("bob-labels-idx1-ubyte %.2f%% (κ %.4f)", 100*k.Observed, k.Value)
		if got := w.detail.about.title.Text; !strings.Contains(got, want) {
			t.Fatalf("with a message on the status bar the detail panel says %q, want the agreement of the labels now, %q", got, want)
		}
		if got := w.c.out.footer.status.Text; got != said {
			t.Fatalf("the message went: the status bar says %q", got)
		}
	})
}
