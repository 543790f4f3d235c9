package similar

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"idxlabel/demo"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/similar"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode/modetest"
	"idxlabel/ui/scan"
	"idxlabel/ui/widgets"
)

// fixture is a Finder over the demo's 300 generated digits with a near-copy of sample 5 added
// (sample 300), its jobs' UI-thread steps queued for the test to run (run).
type fixture struct {
	t     *testing.T
	f     *Finder
	c     *modetest.Controller
	ds    *store.Dataset
	queue chan func()
	scans *fakeScans
}

type fakeScans struct{ a *scan.Analysis }

func (s *fakeScans) Last() *scan.Analysis { return s.a }

func newFixture(t *testing.T) *fixture {
	images, labels, err := demo.Arrays()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(t.TempDir(), "demo"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	_, px, _ := ds.SampleAt(ds.Gen(), 5)
	cp := append([]byte(nil), px...)
	cp[100] ^= 0x20 // a near-copy, not the same bytes
	if _, err := ds.Append([]store.Sample{{Pixels: cp, Label: ds.Label(5)}}); err != nil {
		t.Fatal(err)
	}
	x := &fixture{t: t, ds: ds, c: modetest.New(ds), queue: make(chan func(), 1024), scans: &fakeScans{}}
	win := test.NewTempApp(t).NewWindow("test")
	j := jobs.New(func(f func()) { x.queue <- f }, nil)
	t.Cleanup(j.StopAll)
	x.f = New(x.c, j, dialogs.New(win, nil, nil, nil), win, x.scans)
	return x
}

// run runs the jobs' UI-thread steps until no index is being built. The timeout only ends a
// test that would hang; no result depends on it.
func (x *fixture) run() {
	x.t.Helper()
	for x.f.job != nil {
		select {
		case f := <-x.queue:
			f()
		case <-time.After(2 * time.Minute):
			x.t.Fatal("the index was never built")
		}
	}
}

// at puts the cursor on sample i.
func (x *fixture) at(i int) {
	for p, j := range x.c.Order {
		if j == i {
			x.c.At = p
			return
		}
	}
	x.t.Fatalf("sample %d not shown", i)
}

// checkList checks that l lists the query q first, then its near-copy want (when ≥ 0), then
// K samples in all after the query, the others by non-increasing similarity.
func checkList(t *testing.T, l *List, q, want int) {
	t.Helper()
	first := 0
	if q >= 0 {
		if l.Order[0] != q || l.Of[q].Similarity != 1 {
			t.Fatalf("the list begins %v, not with the query %d", l.Order[:3], q)
		}
		first = 1
	}
	if len(l.Order)-first != K {
		t.Fatalf("%d samples listed besides the query, want %d", len(l.Order)-first, K)
	}
	if want >= 0 && (l.Order[first] != want || !l.Of[want].Copy) {
		t.Fatalf("the near-copy %d is not first: %v (%+v)", want, l.Order[:first+3], l.Of[l.Order[first]])
	}
	seen := map[int]bool{}
	prev := 2.0
	for _, i := range l.Order[first:] {
		m := l.Of[i]
		if seen[i] || i == q {
			t.Fatalf("sample %d listed twice", i)
		}
		seen[i] = true
		if m.Copy {
			continue
		}
		if m.Similarity > prev+1e-9 {
			t.Fatalf("sample %d (%.4f) after one of %.4f: not most similar first", i, m.Similarity, prev)
		}
		prev = m.Similarity
	}
}

// The cursor's sample lists itself, then its near-copy, then the K−1 others most like it by
// pixel descriptors (no scan), in the grid, the cursor on the most similar; the status says
// which features were used. A second query on the same samples answers at once from the kept
// index; a sample added since builds it again.
func TestMoreLikeTheCursorsSample(t *testing.T) {
	x := newFixture(t)
	x.at(5)
	x.f.LikeCursor()
	if x.f.job == nil {
		t.Fatal("the first query built no index in the background")
	}
	x.run()
	l := x.f.Mode.List
	if l == nil || len(x.c.Entered) != 1 || x.c.Entered[0] != x.f.Mode {
		t.Fatalf("the list was not shown (entered %v)", x.c.Entered)
	}
	checkList(t, l, 5, 300)
	if l.Space != similar.Pixels || x.c.Order[x.c.At] != 300 {
		t.Fatalf("space %v, cursor on %d", l.Space, x.c.Order[x.c.At])
	}
	said := x.c.Said[len(x.c.Said)-1]
	if !strings.Contains(said, "by pixel descriptors") || !strings.Contains(said, "no CNN scan") {
		t.Fatalf("the status says %q", said)
	}
	if st := x.f.Mode.Status(x.c.State()); !strings.Contains(st, "like #5 by pixel descriptors") {
		t.Fatalf("the mode's status is %q", st)
	}

	ix := x.f.ix
	x.at(300)
	x.f.LikeCursor() // the index kept: answered at once
	if x.f.job != nil || x.f.ix != ix || len(x.c.Entered) != 2 {
		t.Fatal("a second query built the index again")
	}
	checkList(t, x.f.Mode.List, 300, 5)

	if _, err := x.ds.Append([]store.Sample{{Pixels: make([]byte, 784), Label: 1}}); err != nil {
		t.Fatal(err)
	}
	x.f.LikeCursor()
	if x.f.job == nil {
		t.Fatal("a sample added did not build the index again")
	}
	x.run()
	if x.f.ix == ix || x.f.ix.n != 302 {
		t.Fatal("the index was not built again with the sample added")
	}
}

// A drawing (display pixels) finds the sample it copies first; the list has no query tile.
func TestMoreLikeADrawing(t *testing.T) {
	x := newFixture(t)
	_, px, _ := x.ds.SampleAt(x.ds.Gen(), 42)
	x.f.LikeDrawing(px, 28, 28)
	x.run()
	l := x.f.Mode.List
	if l == nil || l.Query != Drawing {
		t.Fatal("no list of the drawing")
	}
	checkList(t, l, Drawing, 42)
	if a := x.f.Mode.About(x.c.State(), 42); len(a.Thumbs) != 1 || a.Thumbs[0].Link || !strings.Contains(a.Text, "near-copy") {
		t.Fatalf("the detail says %+v", a)
	}
	x.f.LikeDrawing(make([]byte, 14*14), 14, 14)
	if said := x.c.Said[len(x.c.Said)-1]; !strings.Contains(said, "14×14") {
		t.Fatalf("a drawing of another size: %q", said)
	}
}

// A digit decides the cursor's sample (reviewed, the cursor moves on); with every sample
// selected a digit relabels them all as one step; → keeps a label.
func TestReviewTheList(t *testing.T) {
	x := newFixture(t)
	x.at(5)
	x.f.LikeCursor()
	x.run()
	m, s := x.f.Mode, x.c.State()
	at := x.c.Order[x.c.At]
	m.Label(x.c, 7)
	if st := x.ds.State(at); st.Label != 7 || !st.Reviewed || x.c.Order[x.c.At] == at {
		t.Fatalf("sample %d after 7: %+v, cursor on %d", at, st, x.c.Order[x.c.At])
	}
	b := m.List.Badge(at, x.ds.State(at), badgeOf(x, at), s.Classes)
	if !m.IsDone(s)(at) || !strings.Contains(b.Text, "✓") {
		t.Fatal("the decided sample is not counted done")
	}
	// Where the tile is too narrow for the label and the similarity, the badge says the label
	// and the ✓ (the similarity is in the detail panel).
	if b.Short != "7 ✓" {
		t.Fatalf("the badge %q says %q on a narrow tile, want \"7 ✓\"", b.Text, b.Short)
	}
	for _, i := range x.c.Order {
		x.c.Selected[i] = true
	}
	m.Label(x.c, 3)
	for _, i := range m.List.Order {
		if x.ds.Label(i) != 3 {
			t.Fatalf("sample %d listed is labelled %d after Ctrl+A, 3", i, x.ds.Label(i))
		}
	}
	if _, ok, _ := x.ds.Undo(); !ok {
		t.Fatal("nothing to undo")
	}
	if x.ds.Label(at) != 7 {
		t.Fatal("relabelling all was not one undoable step")
	}
}

// badgeOf is sample i's plain label badge.
func badgeOf(x *fixture, i int) widgets.Badge {
	return widgets.Badge{Text: x.c.State().Classes.Short(x.ds.Label(i))}
}

// With a CNN scan of the samples as they are, the list is by its features, and says so; a
// sample's similarity is the cosine of the features (planted: sample 9's features equal 5's).
func TestMoreLikeByTheScansFeatures(t *testing.T) {
	x := newFixture(t)
	snap := x.ds.Snapshot()
	rng := rand.New(rand.NewPCG(1, 2))
	feats := make([]float32, snap.N*cnn.Features)
	for k := range feats {
		feats[k] = float32(rng.Float64())
	}
	copy(feats[9*cnn.Features:10*cnn.Features], feats[5*cnn.Features:6*cnn.Features])
	x.scans.a = scan.NewAnalysis(x.ds, x.c.ResetCount, snap, &suspect.CNNResult{Features: feats}, time.Second, false)
	x.at(5)
	x.f.LikeCursor()
	x.run()
	l := x.f.Mode.List
	checkList(t, l, 5, 300)
	if l.Space != similar.CNN || l.Order[2] != 9 || l.Of[9].Similarity < 0.9999 {
		t.Fatalf("space %v, listed %v, sample 9 at %.4f", l.Space, l.Order[:4], l.Of[9].Similarity)
	}
	if said := x.c.Said[len(x.c.Said)-1]; !strings.Contains(said, "by CNN features (the window's CNN scan)") {
		t.Fatalf("the status says %q", said)
	}
}

// A save's renumbering follows the list; a sample it left out leaves it, and so does a query
// left out (the list stays, of no sample).
func TestListFollowsASave(t *testing.T) {
	l := &List{Query: 2, Order: []int{2, 5, 1}, Of: map[int]similar.Match{2: {Index: 2, Similarity: 1}, 5: {Index: 5, Similarity: 0.9}, 1: {Index: 1, Similarity: 0.8}}}
	r := l.Renumbered([]int{0, -1, 1, 2, 3, 4})
	if r.Query != 1 || len(r.Order) != 2 || r.Order[0] != 1 || r.Order[1] != 4 || r.Of[4].Similarity != 0.9 || r.Of[4].Index != 4 {
		t.Fatalf("renumbered: %+v", r)
	}
	r = l.Renumbered([]int{0, 1, -1, 2, 3, 4})
	if r.Query != Drawing || len(r.Order) != 2 {
		t.Fatalf("the query left out: %+v", r)
	}
}

// Asked while a save holds edits, nothing is built: the request waits for the save.
func TestMoreLikeWaitsForASave(t *testing.T) {
	x := newFixture(t)
	x.c.Busy = true
	x.f.LikeCursor()
	if x.f.job != nil || x.f.Mode.List != nil {
		t.Fatal("built while a save holds edits")
	}
}

// Cancel ends the build: no list, no index kept, the status says so; a query asked while it ran
// is refused on the status bar, not queued twice.
func TestCancelTheIndex(t *testing.T) {
	x := newFixture(t)
	x.f.LikeCursor()
	x.f.LikeCursor()
	if said := x.c.Said[len(x.c.Said)-1]; !strings.Contains(said, "still being built") {
		t.Fatalf("a second ask while building: %q", said)
	}
	x.f.job.Cancel()
	x.run()
	if x.f.Mode.List != nil || x.f.ix != nil || len(x.c.Entered) != 0 {
		t.Fatal("a cancelled build showed a list or kept its index")
	}
	if said := x.c.Said[len(x.c.Said)-1]; !strings.Contains(said, "cancelled") {
		t.Fatalf("the status says %q", said)
	}
}

// A scan made after the index was built by pixel descriptors builds it again by its features;
// a scan of other samples (one deleted since) is not used, and does not build the index again at
// every ask.
func TestAScanMadeSinceBuildsTheIndexAgain(t *testing.T) {
	x := newFixture(t)
	x.at(5)
	x.f.LikeCursor()
	x.run()
	snap := x.ds.Snapshot()
	feats := make([]float32, snap.N*cnn.Features)
	for k := range feats {
		feats[k] = float32(k % 7)
	}
	x.scans.a = scan.NewAnalysis(x.ds, x.c.ResetCount, snap, &suspect.CNNResult{Features: feats}, time.Second, false)
	x.f.LikeCursor()
	if x.f.job == nil {
		t.Fatal("a scan made since did not build the index again")
	}
	x.run()
	if x.f.ix.space != similar.CNN {
		t.Fatalf("built by %v after a scan", x.f.ix.space)
	}

	if err := x.ds.Delete([]int{7}); err != nil {
		t.Fatal(err)
	}
	x.scans.a = scan.NewAnalysis(x.ds, x.c.ResetCount, snap, &suspect.CNNResult{Features: feats}, time.Second, false) // saw sample 7
	x.f.LikeCursor()
	x.run()
	if x.f.ix.space != similar.Pixels {
		t.Fatalf("a scan of other samples was used (%v)", x.f.ix.space)
	}
	ix := x.f.ix
	x.f.LikeCursor()
	if x.f.job != nil || x.f.ix != ix {
		t.Fatal("the index was built again for a scan it cannot use")
	}
}
