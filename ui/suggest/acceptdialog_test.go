package suggest

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/mode/modetest"
	"idxlabel/ui/review"
)

// unlabelled is a dataset of n 2×2 samples without a label (no label file), journaled in a
// temporary folder.
func unlabelled(t *testing.T, n int) *store.Dataset {
	t.Helper()
	images, err := idx.New(idx.UByte, n, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := store.FromArrays(images, nil, nil, filepath.Join(t.TempDir(), "j"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	return ds
}

func TestParseThreshold(t *testing.T) {
	for text, want := range map[string]float64{"0.95": 0.95, "95": 0.95, "95%": 0.95, " 80 % ": 0.8, "1": 1, "0": 0, "100%": 1, "0.5%": 0.005} {
		if got, ok := parseThreshold(text); !ok || got < want-1e-12 || got > want+1e-12 {
			t.Errorf("parseThreshold(%q) = %v, %v; want %v", text, got, ok, want)
		}
	}
	for _, text := range []string{"", "x", "-1", "101", "NaN", "1e400"} {
		if got, ok := parseThreshold(text); ok {
			t.Errorf("parseThreshold(%q) = %v, accepted", text, got)
		}
	}
}

// The dialog's counts: a class's suggestions at a threshold or above are a prefix of its list
// most confident first, their expected wrong the sum of 1 − confidence; the samples labelled
// since the round are left out. acceptAt gives the accepted their suggested labels as one
// undoable step journaled as suggested-accepted, marks them accepted for the next rounds
// (acceptedMarks), and puts the rest after the labelled samples, the cursor on the first.
func TestAcceptAtThresholds(t *testing.T) {
	ds := unlabelled(t, 8)
	if err := ds.SetLabels([]int{7}, []int{2}); err != nil { // labelled since the round
		t.Fatal(err)
	}
	c := modetest.New(ds)
	g := &Suggester{c: c}
	g.Mode = &review.Mode{Kind: review.Suggested, Name: "Suggested", Why: func() string { return "" }}
	of := map[int]suspect.Suspect{}
	for i, s := range []struct {
		label int
		conf  float64
	}{{0, 0.99}, {0, 0.90}, {1, 0.97}, {1, 0.96}, {1, 0.50}, {0, 0.95}, {1, 0.30}, {1, 0.99}} {
		of[i] = suspect.Suspect{Index: i, Suggested: s.label, Confidence: s.conf}
	}
	g.Mode.List = &review.List{Kind: review.Suggested, Order: []int{0, 7, 2, 3, 5, 1, 4, 6}, Of: of, Asked: map[int]bool{}}
	c.Enter(g.Mode)

	by := suggestionsByClass(g.Mode.List, ds)
	if len(by) != 2 || by[0].label != 0 || by[1].label != 1 {
		t.Fatalf("classes %+v", by)
	}
	if !slices.Equal(by[0].samples, []int{0, 5, 1}) || !slices.Equal(by[1].samples, []int{2, 3, 4, 6}) {
		t.Fatalf("class 0: %v, class 1: %v (sample 7 has a label now)", by[0].samples, by[1].samples)
	}
	if n := by[0].upTo(0.95); n != 2 || by[0].wrong[n] < 0.06-1e-9 || by[0].wrong[n] > 0.06+1e-9 {
		t.Fatalf("class 0 at 0.95: %d accepted, %v expected wrong", n, by[0].wrong[n])
	}
	if by[1].upTo(0.96) != 2 || by[1].upTo(0) != 4 || by[1].upTo(1) != 0 {
		t.Fatalf("class 1: %d at 0.96, %d at 0, %d at 1", by[1].upTo(0.96), by[1].upTo(0), by[1].upTo(1))
	}

	steps := ds.UndoName()
	g.acceptAt(by, []float64{0.95, 0.97}) // class 1's own threshold above the common one
	want := map[int]int{0: 0, 5: 0, 2: 1, 7: 2}
	for i := range 8 {
		w, ok := want[i]
		if !ok {
			w = sample.NoLabel
		}
		if ds.Label(i) != w {
			t.Fatalf("sample %d: label %d, want %d", i, ds.Label(i), w)
		}
	}
	log := ds.ChangeLog()
	if len(log) < 3 || log[len(log)-1].How != store.HowSuggestedAccepted || ds.UndoName() == steps {
		t.Fatalf("the change log ends %+v", log[len(log)-1])
	}
	if g.Tally().Accepted != 3 {
		t.Fatalf("accepted %d", g.Tally().Accepted)
	}
	snap := ds.Snapshot()
	marks := ds.AcceptedIn(snap)
	for k, m := range marks {
		i := snap.Index[k]
		if m != (i == 0 || i == 5 || i == 2) {
			t.Fatalf("sample %d marked accepted %v", i, m)
		}
	}
	// The labelled first (the list's order), then the rest, the cursor on the first of it.
	if got := g.Mode.List.Order; !slices.Equal(got, []int{0, 7, 2, 5, 3, 1, 4, 6}) {
		t.Fatalf("the list after the accept: %v", got)
	}
	if c.State().View.Current() != 3 {
		t.Fatalf("the cursor is on sample %d, not the first left (3)", c.State().View.Current())
	}
	// One step: an undo takes every accepted label back.
	if _, _, err := ds.Undo(); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 5, 2} {
		if ds.Label(i) != sample.NoLabel {
			t.Fatalf("after undo sample %d has label %d", i, ds.Label(i))
		}
	}
	if marks := ds.AcceptedIn(ds.Snapshot()); marks != nil {
		t.Fatalf("after undo: marks %v (%v)", marks, ds.Accepted())
	}
}

func TestSpokenDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0 s", 40*time.Second + 300*time.Millisecond: "40 s", 140 * time.Second: "2 min 20 s",
		2 * time.Minute: "2 min", 65 * time.Minute: "1 h 5 min"} {
		if got := spokenDuration(d); got != want {
			t.Errorf("spokenDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
