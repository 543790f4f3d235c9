package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestReviewSuspectsOnRealMNIST(t *testing.T) {
	w, ds, _, _ := testWindow(t)
	// The UI steps of the background work run on this goroutine: the CNN scan that refines the
	// ranking trains on while the keys below are typed, and its progress must not redraw the
	// window from its own goroutine meanwhile.
	q := queueUI(w)
	w.scans.findSuspects()
	waitUI(t, q, func() bool { return !w.jobs.busy() })
	if !(w.c.mode != modeBrowse) || w.scans.review.r == nil || w.c.v.Len() != len(w.scans.review.r.order) || w.c.v.Len() < 50 {
		t.Fatalf("reviewing %v, %d shown", (w.c.mode != modeBrowse), w.c.v.Len())
	}
	first := w.c.v.at(0)
	s := w.scans.review.r.of[first]
	if s.Score < w.scans.review.r.of[w.c.v.at(w.c.v.Len()-1)].Score || s.Suggested == ds.Label(first) {
		t.Fatalf("first suspect %+v", s)
	}
	var suspectBadges int
	for _, text := range badgeTexts(w.grid) {
		if strings.HasSuffix(text, "?") && strings.Contains(text, "→") {
			suspectBadges++
		}
	}
	if suspectBadges == 0 {
		t.Fatalf("no suggestion badges: %v", badgeTexts(w.grid)[:8])
	}
	if len(w.detail.about.root.Objects) != 2 {
		t.Fatal("the detail view does not show the suspect's neighbours")
	}
	// Enter accepts the suggestion, → keeps the label, a digit sets another; each moves on.
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(first) != s.Suggested || !ds.State(first).Reviewed || w.c.v.cursor != 1 {
		t.Fatalf("Enter: label %d, cursor %d", ds.Label(first), w.c.v.cursor)
	}
	second := w.c.v.at(1)
	keep := ds.Label(second)
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if ds.Label(second) != keep || !ds.State(second).Reviewed || w.c.v.cursor != 2 {
		t.Fatalf("Right: label %d, cursor %d", ds.Label(second), w.c.v.cursor)
	}
	third := w.c.v.at(2)
	other := (ds.Label(third) + 5) % 10
	test.Type(w.grid, string(rune('0'+other)))
	if ds.Label(third) != other || !ds.State(third).Reviewed {
		t.Fatalf("digit: label %d", ds.Label(third))
	}
	if done, total := w.c.v.ndone, w.c.v.Len(); done != 3 || total != len(w.scans.review.r.order) {
		t.Fatalf("progress %d / %d", done, total)
	}
	if !strings.Contains(w.footer.status.Text, "reviewed 3 / ") {
		t.Fatalf("status %q", w.footer.status.Text)
	}
	w.c.undo()
	if ds.Label(third) == other || ds.State(third).Reviewed {
		t.Fatal("undo did not revert the last decision")
	}
	// Leaving the review shows everything again.
	w.side.showList.SetSelected("All")
	if (w.c.mode != modeBrowse) || w.c.v.Len() != 10000 {
		t.Fatalf("after leaving the review: %d shown", w.c.v.Len())
	}
}
