package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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
