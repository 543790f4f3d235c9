package review

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/mode/modetest"
	"idxlabel/ui/widgets"
)

// tiny is a dataset of n 2×2 samples labelled i mod 3, journaled in a temporary folder.
func tiny(t *testing.T, n int) *store.Dataset {
	t.Helper()
	ds, err := store.New(2, 2, []int{0, 1, 2}, nil, filepath.Join(t.TempDir(), "j"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	var s []store.Sample
	for i := range n {
		s = append(s, store.Sample{Pixels: make([]byte, 4), Label: i % 3})
	}
	if _, err := ds.Append(s); err != nil {
		t.Fatal(err)
	}
	return ds
}

// A review of suspects decides one sample at a time through the controller: Enter accepts the
// suggestion (suspect-accepted), → keeps the label (a decision by hand), a digit sets another;
// each is journaled, marks the sample reviewed and moves on; the badges and the progress follow.
func TestReviewDecidesThroughTheController(t *testing.T) {
	ds := tiny(t, 6)
	c := modetest.New(ds)
	m := &Mode{Kind: Suspects, Name: "Suspects", Why: func() string { return "no verdict" }}
	m.List = &List{Kind: Suspects, Order: []int{4, 1, 2}, Of: map[int]suspect.Suspect{
		4: {Index: 4, Label: 1, Suggested: 2, Score: 0.9}, 1: {Index: 1, Label: 1, Suggested: 0, Score: 0.8}, 2: {Index: 2, Label: 2, Suggested: 0, Score: 0.7}}}
	c.Enter(m)
	if !slices.Equal(c.Order, []int{4, 1, 2}) {
		t.Fatalf("the review shows %v", c.Order)
	}
	n := classes.Of(ds)
	if b := m.List.Badge(4, ds.State(4), widgets.Badge{Text: "1"}, n); b.Text != "1→2?" {
		t.Fatalf("badge %q", b.Text)
	}
	m.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn})
	log := ds.ChangeLog()
	if st := ds.State(4); st.Label != 2 || !st.Reviewed || c.At != 1 || log[len(log)-1].How != store.HowSuspectAccepted {
		t.Fatalf("Enter: %+v, cursor %d", st, c.At)
	}
	m.Key(c, &fyne.KeyEvent{Name: fyne.KeyRight})
	if st := ds.State(1); st.Label != 1 || !st.Reviewed || c.At != 2 {
		t.Fatalf("→: %+v, cursor %d", st, c.At)
	}
	m.Label(c, 1)
	if st := ds.State(2); st.Label != 1 || !st.Reviewed {
		t.Fatalf("a digit: %+v", st)
	}
	done := m.IsDone(c.State())
	for _, i := range c.Order {
		if !done(i) {
			t.Fatalf("sample %d not counted decided", i)
		}
	}
	if b := m.List.Badge(4, ds.State(4), widgets.Badge{Text: "2"}, n); b.Text != "2 ✓" {
		t.Fatalf("a decided sample's badge %q", b.Text)
	}
	// A sample without a verdict: Enter says why, and nothing changes.
	c.Order, c.At = []int{5}, 0
	m.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(c.Said) == 0 || !strings.HasPrefix(c.Said[len(c.Said)-1], "no verdict") || ds.State(5).Reviewed {
		t.Fatalf("Enter without a verdict said %q", c.Said)
	}
}

// A save that drops samples renumbers the list, its verdicts and its neighbours, leaving the
// dropped ones out; a replayed journal (nil) ends the review.
func TestReviewFollowsASave(t *testing.T) {
	m := &Mode{List: &List{Kind: Suggested, Order: []int{0, 2, 3}, Of: map[int]suspect.Suspect{2: {Index: 2, Suggested: 1}},
		Neighbours: map[int][]int{3: {0, 2}}, Asked: map[int]bool{3: true}, Hidden: map[int]suspect.Suspect{}}}
	m.Follow([]int{-1, 0, 1, 2})
	r := m.List
	if !slices.Equal(r.Order, []int{1, 2}) || r.Of[1].Index != 1 || !r.Asked[2] || !slices.Equal(r.Neighbours[2], []int{1}) {
		t.Fatalf("renumbered: %+v", r)
	}
	m.Follow(nil)
	if m.List != nil || m.Ready() {
		t.Fatal("a replayed journal left the review")
	}
	if (&List{Kind: Suggested}).Decided(store.State{Label: sample.NoLabel}) {
		t.Fatal("a sample without a label is decided")
	}
}

// A refreshed list keeps the cursor on its sample wherever the new list puts it; when the new
// list leaves the sample out, the cursor goes to the nearest sample after it in the old list that
// the new one shows (else the nearest before it); only start puts it on the first not decided.
func TestRefreshKeepsTheCursorsSample(t *testing.T) {
	ds := tiny(t, 6)
	c := modetest.New(ds)
	m := &Mode{Kind: Suspects, Name: "Suspects", Why: func() string { return "no verdict" }}
	m.List = &List{Kind: Suspects, Order: []int{4, 1, 2, 5}}
	c.Enter(m)
	c.MoveCursor(2) // sample 2
	at := func() int { return c.State().View.Current() }
	steps := []struct {
		order []int
		start bool
		want  int
		place Placement
		why   string
	}{
		{[]int{5, 3, 0, 2, 1}, false, 2, Kept, "kept on its sample, moved further down"},
		{[]int{2, 5}, false, 2, Kept, "kept on its sample, moved up"},
		{[]int{4, 5, 3}, false, 5, After, "left out: the next sample of the old list shown"},
		{[]int{4, 0}, false, 4, Before, "left out, none after it: the nearest before it"},
		{[]int{1, 3}, false, 1, Top, "left out, none of the old list shown: the first"},
		{[]int{3, 0, 1}, true, 3, FirstUndecided, "start: the first not decided"},
	}
	for _, s := range steps {
		place := m.Refresh(c, &List{Kind: Suspects, Order: s.order}, s.start)
		if at() != s.want || m.List.Order[0] != s.order[0] || place != s.place {
			t.Fatalf("%s: the cursor is on sample %d of %v (placed %d), want %d (placed %d)", s.why, at(), c.Order, place, s.want, s.place)
		}
	}
	if err := ds.DecideAs(store.HowManual, 3, 0); err != nil {
		t.Fatal(err)
	}
	m.Refresh(c, &List{Kind: Suspects, Order: []int{3, 0, 1}}, true)
	if at() != 0 {
		t.Fatalf("start with the first decided: the cursor is on sample %d, want 0", at())
	}
	c.Enter(mode.Browse{})
	c.MoveCursor(4)
	if place := m.Refresh(c, &List{Kind: Suspects, Order: []int{5}}, false); place != NotShown || at() != 4 || m.List.Order[0] != 5 {
		t.Fatalf("the review not shown: placed %d, the cursor on sample %d, the list %v", place, at(), m.List.Order)
	}
}
