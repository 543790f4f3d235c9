package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/store"
)

// A message said on the status bar stays through every redraw that is not a change of the
// cursor or the state (a background job's render, a refresh, a resize, a background report),
// and goes when the cursor moves to another sample, an edit or an undo is made, or the filter
// changes; a later message replaces it, and a note shows once the message no longer holds.
func TestMessageStaysUntilTheCursorOrTheStateChanges(t *testing.T) {
	w, ds, _, _ := digitsWindow(t, 50)
	c := w.c
	status := func() string { return c.out.footer.status.Text }
	const msg = "Save cancelled: nothing was written"
	c.say(msg)

	host := modeHost{c}
	for _, redraw := range []struct {
		name string
		do   func()
	}{
		{"a background job's render", host.Render},
		{"a refresh", c.refresh},
		{"the cursor shown again where it is", c.follow},
		{"a mode's list shown again", func() { c.modeChanged(c.mode) }},
		{"a resize", func() { w.win.Resize(fyne.NewSize(1100, 760)) }},
		{"a background report", func() { host.Note("Suggested list: 3 samples to label first") }},
		{"the progress", c.showProgress},
	} {
		redraw.do()
		if got := status(); got != msg {
			t.Fatalf("after %s the status bar says %q, not the message %q", redraw.name, got, msg)
		}
	}

	// The cursor moves to another sample: the state's line again, and it stays so when the
	// cursor comes back.
	c.moveCursor(c.v.cursor+1, false)
	if got := status(); got == msg || !strings.Contains(got, "50 samples") {
		t.Fatalf("after the cursor moved the status bar says %q", got)
	}
	c.moveCursor(c.v.cursor-1, false)
	if got := status(); got == msg {
		t.Fatalf("the message came back with the cursor: %q", got)
	}

	// A note shows when no message holds, after the state's line (which it never hides); a
	// later message replaces it.
	line := status()
	host.Note("Map laid out")
	if got := status(); got != line+noteAfter+"Map laid out" {
		t.Fatalf("a note with no message held: %q, want the state's line %q then the note", got, line)
	}
	c.refresh()
	if got := status(); got != line+noteAfter+"Map laid out" {
		t.Fatalf("a note after a refresh: %q, want the state's line %q then the note", got, line)
	}
	c.say(msg)
	if got := status(); got != msg {
		t.Fatalf("a message after a note: %q", got)
	}
	c.say("Nothing accepted")
	if got := status(); got != "Nothing accepted" {
		t.Fatalf("a later message did not replace the first: %q", got)
	}

	// An edit (the cursor left where it is), then an undo, each end the message.
	i := c.v.Current()
	if err := c.edit(func() error { return ds.Relabel([]int{i}, (ds.Label(i)+1)%10) }); err != nil {
		t.Fatal(err)
	}
	if got := status(); got == "Nothing accepted" || !strings.Contains(got, "1 edited") {
		t.Fatalf("after an edit the status bar says %q", got)
	}
	c.say(msg)
	c.undo()
	if got := status(); got == msg || !strings.Contains(got, "0 edited") {
		t.Fatalf("after an undo the status bar says %q", got)
	}

	// A filter chosen ends it too, the cursor on the same sample or not.
	c.say(msg)
	class := ds.Label(c.v.Current())
	c.setClass(&class)
	if got := status(); got == msg {
		t.Fatalf("after a class was chosen the status bar still says %q", got)
	}
	c.setClass(nil)

	// A save's Reset (applied as a drain) ends it.
	c.say(msg)
	c.apply(ds, store.Change{Kind: store.Reset, Gen: c.v.gen + 1})
	if got := status(); got == msg {
		t.Fatalf("after a Reset the status bar still says %q", got)
	}
}
