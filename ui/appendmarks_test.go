package ui

import (
	"strings"
	"testing"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
)

// Samples appended with accepted marks (File → Append Dataset… of a pair whose save kept them)
// count as accepted in the Suggested list's counts, not as labelled, once the list's tally is
// made; undoing the append takes them out again.
func TestSuggestedCountsAppendedAcceptedSamples(t *testing.T) {
	w, q, ds, _, _ := loopWindow(t)
	status := func() string { return w.c.out.footer.status.Text }
	w.side.showList.SetSelected("Suggested")
	n := ds.Len()
	none := numfmt.Sprintf("labelled 0 · accepted 0 · left %d", n)
	waitUI(t, q, func() bool { return rested(w) && strings.Contains(status(), none) })
	h, wd := ds.Size()
	px := make([]byte, h*wd)
	samples := []store.Sample{{Pixels: px, Label: 3, Accepted: true}, {Pixels: px, Label: 4}, {Pixels: px, Label: 5, Accepted: true, Reviewed: true}}
	if _, err := w.c.add(store.HowAddedImported, samples); err != nil {
		t.Fatal(err)
	}
	waitUI(t, q, func() bool { return !strings.Contains(status(), none) })
	if want := numfmt.Sprintf("labelled 1 · accepted 2 · left %d", n); !strings.Contains(status(), want) {
		t.Fatalf("after 3 samples appended, 2 of them accepted suggestions, the status bar says %q, not %q", status(), want)
	}
	w.c.undo()
	waitUI(t, q, func() bool { return strings.Contains(status(), none) })
}
