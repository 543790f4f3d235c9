package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"idxlabel/suspect/check"
)

// captions returns the texts under the detail panel's thumbnails.
func captions(w *window) []string {
	var out []string
	walk(w.detail.about.root, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok {
			out = append(out, tx.Text)
		}
	})
	return out
}

// A suspect's neighbour relabelled shows its new label under its thumbnail.
func TestNeighbourCaptionFollowsTheLabel(t *testing.T) {
	w, ds, _, _ := suspectsReview(t)
	w.c.moveCursor(1, false)
	j := w.susp.Mode.List.Neighbours[w.c.v.Current()][0]
	to := (ds.Label(j) + 3) % 10
	if err := ds.Relabel([]int{j}, to); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	if got, want := strings.Join(captions(w), "|"), fmt.Sprintf("%d  #%d", to, j); !strings.Contains(got, want) {
		t.Fatalf("captions %q, want %q among them", got, want)
	}
}

// After a save that left out a listed sample, each kind counts the findings it still lists: the
// tab said "Leaks 5" over 4 tiles. The flagged outliers come first in their list: one of them
// saved away is one fewer flagged, one of the rest is not.
func TestCheckCountsFollowASave(t *testing.T) {
	f := newCheckFindings([]check.Kind{check.Leak, check.Outlier}, 0.98)
	leaks, outliers := f.lists[check.Leak], f.lists[check.Outlier]
	for _, i := range []int{3, 10, 20, 30, 40} {
		leaks.order = append(leaks.order, i)
		leaks.of[i] = checkItem{}
	}
	leaks.flagged, leaks.found = 5, 5
	for _, i := range []int{50, 10, 60, 70} { // 50 and 10 flagged
		outliers.order = append(outliers.order, i)
		outliers.of[i] = checkItem{}
	}
	outliers.flagged, outliers.found = 2, 4
	renumber := make([]int, 100)
	for i := range renumber {
		renumber[i] = i
		if i > 10 {
			renumber[i] = i - 2
		}
	}
	renumber[10], renumber[60] = -1, -1 // 10 is a leak and a flagged outlier; 60 an outlier not flagged
	g := f.renumbered(renumber)
	if l := g.lists[check.Leak]; len(l.order) != 4 || l.flagged != 4 || l.found != 4 {
		t.Fatalf("leaks after the save: %d listed, %d flagged, %d found; want 4", len(l.order), l.flagged, l.found)
	}
	if l := g.lists[check.Outlier]; len(l.order) != 2 || l.flagged != 1 || l.found != 2 || l.order[0] != 48 {
		t.Fatalf("outliers after the save: %v listed, %d flagged, %d found; want [48 68], 1, 2", l.order, l.flagged, l.found)
	}
}

// A leak's copy in the other set is captioned with that set's name: "3  #1681" read as this set's
// sample 1681, whose label had changed.
func TestLeakCaptionNamesTheOtherSet(t *testing.T) {
	w, ds := demoWindow(t, true)
	f := newCheckFindings([]check.Kind{check.Leak}, 0.98)
	f.other = &otherSet{ds: ds, snap: ds.Snapshot(), name: "train-images-idx3-ubyte.gz"}
	f.lists[check.Leak].order = []int{0}
	f.lists[check.Leak].of[0] = checkItem{others: []int{7}}
	m := &checkMode{f: f, kind: check.Leak}
	a := m.About(w.c.modeState(), 0)
	want := w.c.classes.Short(f.other.snap.Labels[7]) + "  train #7"
	if len(a.Thumbs) != 1 || a.Thumbs[0].Caption != want {
		t.Fatalf("the leak's copy is captioned %+v, want %q", a.Thumbs, want)
	}
}
