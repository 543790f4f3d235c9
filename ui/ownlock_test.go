package ui

import (
	"strings"
	"testing"

	"idxlabel/store"
)

// File → Open of the pair this window has open for editing: its own lock refused it with
// "already open for editing in this idxlabel (another window). Open it read-only?", a window
// that does not exist. It now says the pair is this window's, and offers nothing read-only.
func TestOpenThePairOpenHere(t *testing.T) {
	w, _, images, labels := demoPairWindow(t, "here", store.Options{})
	w.files.load(images, labels, false)
	waitFor(t, func() bool { return !w.jobs.Busy() && w.win.Canvas().Overlays().Top() != nil })
	text := overlayText(w)
	if key, _ := w.d.Top(); !strings.HasPrefix(key, "error") || strings.Contains(text, "another window") || strings.Contains(text, "read-only") ||
		!strings.Contains(text, "is the pair this window has open for editing") {
		t.Fatalf("opening the pair open here: prompt %q: %q", key, text)
	}
}
