package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The Accept Suggestions dialog keeps its size when the note that a newer round came shows: room
// is kept for it from the start, and the note shows whole inside the dialog, above its buttons.
// Before, the dialog grew taller as the note came (a jump under the person's pointer, its Accept
// button moved down).
func TestAcceptDialogKeepsItsSizeWhenANewerRoundComes(t *testing.T) {
	w, q, ds, truth, f := loopWindow(t)
	labelPerClass(t, w, ds, truth, 2)
	w.sugg.FirstFor = firstSuggestions(truth, 0.97, nil)
	gate := make(chan struct{})
	f.mu.Lock()
	f.gate = gate
	f.mu.Unlock()
	w.side.showList.SetSelected("Suggested")
	waitUI(t, q, func() bool { r := w.sugg.Mode.List; return r != nil && !r.Pending && len(r.Of) > 0 })
	menuItem(t, w, "Tools", "Accept Suggestions…").Action()
	pop, ok := w.win.Canvas().Overlays().Top().(*widget.PopUp)
	if !ok {
		t.Fatalf("no dialog shown: %T", w.win.Canvas().Overlays().Top())
	}
	before := pop.Content.Size()

	close(gate) // the refined round comes while the dialog is open
	waitUI(t, q, func() bool { return !strings.Contains(w.sugg.Mode.List.Method, "refining") })
	var note *widget.Label
	walkOverlay(w, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "A newer round came") {
			note = l
		}
	})
	if note == nil || !note.Visible() {
		t.Fatal("no note that a newer round came")
	}
	if after := pop.Content.Size(); after != before {
		t.Errorf("the dialog was %v, and %v once the note showed", before, after)
	}
	d := fyne.CurrentApp().Driver()
	top, bottom := d.AbsolutePositionForObject(pop.Content).Y, d.AbsolutePositionForObject(pop.Content).Y+pop.Content.Size().Height
	at := d.AbsolutePositionForObject(note).Y
	if note.Size().Height < note.MinSize().Height || at < top || at+note.Size().Height > bottom {
		t.Errorf("the note is laid out %v high (needs %v) at y %v, the dialog from %v to %v", note.Size().Height, note.MinSize().Height, at, top, bottom)
	}
}
