package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
)

// A round that comes while Tools → Accept Suggestions… is open (the refined suggestions after the
// first ones) leaves its figures as they were and says that a newer round exists; Enter then
// accepts exactly what it showed: the first round's suggestions at the threshold. Before, the
// dialog said nothing of the newer round.
func TestAcceptDialogSaysANewerRoundCame(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	labelled := labelPerClass(t, w, ds, truth, 2) // suggestions from the first round
	// The first suggestions: every sample at 0.97, above the dialog's 95%; the refined ones (the
	// fake's, 0.5 to 0.995) wait for the gate.
	w.sugg.FirstFor = firstSuggestions(truth, 0.97, nil)
	gate := make(chan struct{})
	f.mu.Lock()
	f.gate = gate
	f.mu.Unlock()
	w.side.showList.SetSelected("Suggested")
	waitUI(t, q, func() bool { r := w.sugg.Mode.List; return r != nil && !r.Pending && len(r.Of) > 0 })
	if r := w.sugg.Mode.List; !strings.Contains(r.Method, "refining") {
		t.Fatalf("the first suggestions: method %q", r.Method)
	}
	first := len(w.sugg.Mode.List.Of)
	menuItem(t, w, "Tools", "Accept Suggestions…").Action()
	shown := overlayText(w)
	if want := "Accept " + numfmt.Sprintf("%d", first) + " suggestions"; !strings.Contains(shown, want) {
		t.Fatalf("the dialog says %q, want %q", shown, want)
	}
	if strings.Contains(shown, "newer round") {
		t.Fatalf("the dialog speaks of a newer round before one came: %q", shown)
	}

	close(gate) // the refined round comes while the dialog is open
	waitUI(t, q, func() bool { return !strings.Contains(w.sugg.Mode.List.Method, "refining") })
	now := overlayText(w)
	if !strings.Contains(now, "A newer round came while this was open (label spreading and networks fine-tuned from 20 labels)") {
		t.Fatalf("a newer round came; the dialog says %q", now)
	}
	if !strings.Contains(now, "Accept "+numfmt.Sprintf("%d", first)+" suggestions") {
		t.Fatalf("the dialog's figures changed: %q", now)
	}
	w.d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter: the prompt's default answer, Accept
	if _, open := w.d.Top(); open {
		t.Fatal("Enter left the dialog open")
	}
	got := 0
	for i := range truth {
		if ds.Label(i) != sample.NoLabel {
			got++
		}
	}
	if got != len(labelled)+first || !strings.HasPrefix(w.footer.status.Text, "Accepted "+numfmt.Sprintf("%d", first)+" suggestions") {
		t.Fatalf("after Enter: %d labelled (want %d), status %q", got, len(labelled)+first, w.footer.status.Text)
	}
	if w.sugg.Tally().Accepted != first {
		t.Fatalf("accepted %d", w.sugg.Tally().Accepted)
	}
}
