package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/digits"
	"idxlabel/idx"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/scan"
	"idxlabel/ui/widgets"
)

// The Suspects review of a pair with wrong labels: generated digits with every tenth label
// changed (it runs everywhere), and the real t10k pair (its own label errors; it skips without the
// real files): the kNN's suspects are listed most suspicious first and badged with their
// suggestions; Enter accepts, → keeps, a digit sets another label, each a journaled decision that
// moves on; undo takes one back; leaving the review shows every sample again.
func TestReviewSuspects(t *testing.T) {
	if testing.Short() {
		t.Skip("scans the pair and trains the CNN that refines it (seconds): not in -short")
	}
	for _, src := range []struct {
		name string
		open func(t *testing.T) (*window, *store.Dataset, string, string)
	}{{"digits", flippedDigitsWindow}, {"t10k", testWindow}} {
		t.Run(src.name, func(t *testing.T) {
			w, ds, _, _ := src.open(t)
			// The UI steps of the background work run on this goroutine: the CNN scan that refines the
			// ranking trains on while the keys below are typed, and its progress must not redraw the
			// window from its own goroutine meanwhile.
			q := queueUI(w)
			w.susp.Find()
			waitUI(t, q, func() bool { return !w.jobs.Busy() })
			if !(w.c.mode != browsing) || w.susp.Mode.List == nil || w.c.v.Len() != len(w.susp.Mode.List.Order) || w.c.v.Len() < 50 {
				t.Fatalf("reviewing %v, %d shown", (w.c.mode != browsing), w.c.v.Len())
			}
			first := w.c.v.At(0)
			s := w.susp.Mode.List.Of[first]
			if s.Score < w.susp.Mode.List.Of[w.c.v.At(w.c.v.Len()-1)].Score || s.Suggested == ds.Label(first) {
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
			second := w.c.v.At(1)
			keep := ds.Label(second)
			w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
			if ds.Label(second) != keep || !ds.State(second).Reviewed || w.c.v.cursor != 2 {
				t.Fatalf("Right: label %d, cursor %d", ds.Label(second), w.c.v.cursor)
			}
			third := w.c.v.At(2)
			other := (ds.Label(third) + 5) % 10
			test.Type(w.grid, string(rune('0'+other)))
			if ds.Label(third) != other || !ds.State(third).Reviewed {
				t.Fatalf("digit: label %d", ds.Label(third))
			}
			if done, total := w.c.v.ndone, w.c.v.Len(); done != 3 || total != len(w.susp.Mode.List.Order) {
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
			if (w.c.mode != browsing) || w.c.v.Len() != ds.Len() {
				t.Fatalf("after leaving the review: %d shown", w.c.v.Len())
			}
		})
	}
}

// flippedDigitsWindow opens generatedDigits generated digits (digitsWindow) whose every tenth
// label (samples 9, 19, …) is changed to the next digit: planted label errors.
func flippedDigitsWindow(t *testing.T) (*window, *store.Dataset, string, string) {
	t.Helper()
	images, labels := digits.Load(t, generatedDigits)
	flipped, err := idx.New(idx.UByte, len(labels.Data))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range labels.Data {
		if i%10 == 9 { // sample 0 keeps its label: the review starts with the cursor on its first suspect
			l = (l + 1) % 10
		}
		flipped.Data[i] = l
	}
	return pairWindow(t, "g", images, flipped)
}

// suspectsReview opens the Suspects review of the demo's 300 digits on the kNN's list, the CNN
// scan that would refine it stopped, and returns the kNN's result and the snapshot it scanned.
func suspectsReview(t *testing.T) (*window, *store.Dataset, *suspect.Result, sample.Set) {
	t.Helper()
	w, ds := demoWindow(t, true)
	q := queueUI(w)
	w.susp.Find()
	waitUI(t, q, func() bool { return w.c.mode == w.susp.Mode })
	w.scans.Stop()
	snap := ds.Snapshot()
	knn, err := suspect.Scan(context.Background(), snap, suspect.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.c.v.Len() < 4 {
		t.Fatalf("%d suspects", w.c.v.Len())
	}
	return w, ds, knn, snap
}

// cnnRanking is a CNN scan's result listing samples (snapshot positions = sample indices here)
// as suspects, most suspicious first.
func cnnRanking(w *window, snap sample.Set, samples []int) *scan.Analysis {
	var list []suspect.Suspect
	for k, i := range samples {
		list = append(list, suspect.Suspect{Index: i, Label: snap.Labels[i], Suggested: (snap.Labels[i] + 1) % 10, Score: 0.9 - 0.001*float64(k), Confidence: 0.8})
	}
	return scan.NewAnalysis(w.c.ds, w.c.resets, snap, &suspect.CNNResult{Suspects: list, Error: 0.01}, 0, false)
}

// When the CNN's ranking replaces the kNN's list, the cursor stays on the sample it was on,
// wherever the new list puts it, and the status bar says so: a digit typed right then labels
// that sample (the one the person was shown), not the new list's first. A ranking that leaves the
// cursor's sample out puts the cursor on the nearest one after it in the list it was in; Home
// goes to the new list's most suspicious.
func TestCNNRankingKeepsTheCursorsSample(t *testing.T) {
	w, ds, knn, snap := suspectsReview(t)
	kept := w.c.v.At(2)
	w.c.moveCursor(2, false)
	// The new ranking lists the cursor's sample sixth.
	others := []int{}
	for i := range 300 {
		if i != kept && len(others) < 8 {
			others = append(others, i)
		}
	}
	w.susp.Rank(cnnRanking(w, snap, append(others[:5:5], append([]int{kept}, others[5:]...)...)), knn, snap)
	if w.c.v.Current() != kept || w.c.v.cursor != 5 {
		t.Fatalf("the cursor went to sample %d (position %d), want sample %d where it was (position 5)", w.c.v.Current(), w.c.v.cursor, kept)
	}
	if want := numfmt.Sprintf("the cursor stays on sample %d, now 6 of 9; Home goes to its most suspicious", kept); !strings.Contains(w.footer.status.Text, want) {
		t.Fatalf("the status bar says %q, want %q", w.footer.status.Text, want)
	}
	digit := (ds.Label(kept) + 3) % 10
	test.Type(w.grid, string(rune('0'+digit)))
	if ds.Label(kept) != digit || !ds.State(kept).Reviewed || w.c.v.Current() != others[5] {
		t.Fatalf("the digit typed after the ranking: sample %d labelled %d (want %d), the cursor on %d (want %d)", kept, ds.Label(kept), digit, w.c.v.Current(), others[5])
	}
	for _, i := range others {
		if ds.State(i).Reviewed {
			t.Fatalf("sample %d, never under the cursor, was decided", i)
		}
	}
	// A ranking without the cursor's sample (others[5]): the nearest after it in the list it was
	// in that the new one has (others[6]).
	w.susp.Rank(cnnRanking(w, snap, append(append([]int{kept}, others[:5]...), others[6:]...)), knn, snap)
	if w.c.v.Current() != others[6] {
		t.Fatalf("the cursor went to sample %d (position %d), want %d, the next of the list it was in", w.c.v.Current(), w.c.v.cursor, others[6])
	}
	if want := numfmt.Sprintf("sample %d is not in it: the cursor is on sample %d, now 7 of 8", others[5], others[6]); !strings.Contains(w.footer.status.Text, want) {
		t.Fatalf("the status bar says %q, want %q", w.footer.status.Text, want)
	}
	w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if w.c.v.Current() != kept || w.c.v.cursor != 0 {
		t.Fatalf("Home: the cursor on sample %d (position %d), want the most suspicious, %d", w.c.v.Current(), w.c.v.cursor, kept)
	}
}

// A click on a suspect's neighbour goes to that sample (all samples shown, since the review does
// not list it, and the status bar says how to go back); Show → Suspects goes back to the suspect.
func TestNeighbourThumbnailGoesToTheSample(t *testing.T) {
	w, _, _, _ := suspectsReview(t)
	w.c.moveCursor(1, false)
	suspectSample := w.c.v.Current()
	var targets []*widgets.TapTarget
	walk(w.detail.about.root, func(o fyne.CanvasObject) {
		if tt, ok := o.(*widgets.TapTarget); ok {
			targets = append(targets, tt)
		}
	})
	nb := w.susp.Mode.List.Neighbours[suspectSample]
	if len(targets) == 0 || len(targets) != min(8, len(nb)) {
		t.Fatalf("%d clickable thumbnails for %d neighbours", len(targets), len(nb))
	}
	test.Tap(targets[0])
	if w.c.v.Current() != nb[0] || w.c.mode != browsing || !strings.Contains(w.footer.status.Text, "Show → Suspects") {
		t.Fatalf("after the click: sample %d (want %d), mode %v, status %q", w.c.v.Current(), nb[0], w.c.mode, w.footer.status.Text)
	}
	w.side.showList.SetSelected("Suspects")
	if w.c.mode != w.susp.Mode || w.c.v.Current() != suspectSample {
		t.Fatalf("back in the review: mode %v, sample %d, want %d", w.c.mode, w.c.v.Current(), suspectSample)
	}
}

// walk visits o and every object inside it.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, visit)
		}
	}
}
