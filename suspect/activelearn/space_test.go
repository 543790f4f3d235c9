package activelearn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// shuffled returns n generated images of the ten classes of shapeStrokes, in an order mixed
// with the seed (not grouped by class), and their classes.
func shuffled(n int, seed uint64) ([]byte, []int) {
	px, cls := shapes(n, len(shapeStrokes), seed)
	out, out2 := make([]byte, len(px)), make([]int, n)
	for k := range n {
		i := (k * 7919) % n // 7919 is prime, n a multiple of 10 below it: a permutation
		copy(out[k*784:(k+1)*784], px[i*784:(i+1)*784])
		out2[k] = cls[i]
	}
	return out, out2
}

// TestTenAsksNameTenClasses: on 1,000 generated images of ten well-separated shapes with no
// label, the space's ten asks are ten samples of ten different classes (the typical samples of
// the ten largest groups: random samples would cover all ten with probability 0.04%, the first
// ten in file order cover 6); answered, the first suggestions (label spreading over the
// features network's neighbours) get at least 97% of the other 990 right, and the networks at
// least 98%. A features step that no longer separates the shapes, or asks that no longer cover
// the groups, fail here.
func TestTenAsksNameTenClasses(t *testing.T) {
	slow(t)
	shortTraining(t, 6000)
	const n = 1000
	ctx := context.Background()
	px, truth := shuffled(n, 7)
	d := dataset(px, unlabelled(n))
	s, err := NewSpace(ctx, d, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	labels := unlabelled(n)
	ask, err := s.Ask(ctx, labels, 10, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, i := range ask {
		seen[truth[i]] = true
		labels[i] = truth[i]
	}
	if len(ask) != 10 || len(seen) != 10 {
		t.Fatalf("10 asks named %d classes: %v", len(seen), ask)
	}
	fast, err := s.Suggest(ctx, labels, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	refined, err := s.Refine(ctx, d, labels, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *Suggestions
		want float64
	}{{"first", fast, 0.97}, {"refined", refined, 0.98}} {
		right := 0
		for _, x := range c.s.List {
			if x.Label == truth[x.Index] {
				right++
			}
		}
		acc := float64(right) / float64(len(c.s.List))
		t.Logf("%s suggestions: %.2f%% of %d right", c.name, 100*acc, len(c.s.List))
		if len(c.s.List) != n-10 || acc < c.want {
			t.Errorf("%s suggestions: %d, %.2f%% right; want %d, at least %.0f%%", c.name, len(c.s.List), 100*acc, n-10, 100*c.want)
		}
		if c.s.Calibrated || c.s.Typed != 10 {
			t.Errorf("%s: calibrated %v from %d typed labels (below %d nothing is held out)", c.name, c.s.Calibrated, c.s.Typed, MinCalibration)
		}
	}
}

// TestAcceptedAreNotLearnt: suggestions accepted (labels marked in Options.Accepted) are
// neither learnt from nor held out to calibrate: every probability is the one the round gives
// with those samples unlabelled, and they are not suggested again. So the confidences of the
// rest stay what they were before the accept (calibrated as they were), however many are
// accepted.
func TestAcceptedAreNotLearnt(t *testing.T) {
	slow(t)
	shortTraining(t, 3000)
	const n = 400
	ctx := context.Background()
	px, truth := shuffled(n, 3)
	d := dataset(px, unlabelled(n))
	s, err := NewSpace(ctx, d, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	labels := unlabelled(n)
	for _, k := range []int{10, 20} {
		ask, err := s.Ask(ctx, labels, k, Options{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range ask {
			labels[i] = truth[i]
		}
	}
	before, err := s.Suggest(ctx, labels, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	refBefore, err := s.Refine(ctx, d, labels, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !before.Calibrated || !refBefore.Calibrated {
		t.Fatalf("30 typed labels: calibrated %v, %v", before.Calibrated, refBefore.Calibrated)
	}
	// Accept every suggestion at 0.9 or above, wrong ones too.
	after := slices.Clone(labels)
	accepted := make([]bool, n)
	for _, x := range refBefore.List {
		if x.Confidence >= 0.9 {
			after[x.Index], accepted[x.Index] = x.Label, true
		}
	}
	o := Options{Seed: 4, Accepted: accepted}
	fast, err := s.Suggest(ctx, after, o)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Refine(ctx, d, after, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]*Suggestions{{before, fast}, {refBefore, ref}} {
		if !slices.Equal(c[0].Probs, c[1].Probs) || c[0].Calibration != c[1].Calibration {
			t.Errorf("accepting changed the probabilities (calibration %+v, then %+v)", c[0].Calibration, c[1].Calibration)
		}
		for _, x := range c[1].List {
			if accepted[x.Index] || after[x.Index] != sample.NoLabel {
				t.Fatalf("sample %d, accepted, suggested again", x.Index)
			}
		}
		if want := len(c[0].List) - countTrue(accepted); len(c[1].List) != want {
			t.Errorf("%d suggestions after the accept, want %d", len(c[1].List), want)
		}
	}
	bad := slices.Clone(accepted[:n-1])
	if _, err := s.Suggest(ctx, after, Options{Accepted: bad}); err == nil {
		t.Error("accepted marks of the wrong length: no error")
	}
}

func countTrue(b []bool) int {
	k := 0
	for _, v := range b {
		if v {
			k++
		}
	}
	return k
}

// TestAcceptance counts, class by class, the suggestions a threshold accepts and the expected
// number wrong among them (Σ 1 − confidence), every class listed, none accepted above 1.
func TestAcceptance(t *testing.T) {
	s := &Suggestions{Classes: []int{3, 5, 9}, List: []Suggestion{
		{0, 5, 0.99}, {1, 5, 0.97}, {2, 3, 0.96}, {3, 5, 0.80}, {4, 3, 0.5},
	}}
	got := s.Acceptance(0.95)
	want := []ClassAcceptance{{3, 2, 1, 0.04}, {5, 3, 2, 0.04}, {9, 0, 0, 0}}
	for c := range want {
		if got[c].Label != want[c].Label || got[c].Suggested != want[c].Suggested || got[c].Accepted != want[c].Accepted ||
			math.Abs(got[c].Wrong-want[c].Wrong) > 1e-9 {
			t.Errorf("class %d: %+v, want %+v", want[c].Label, got[c], want[c])
		}
	}
	for _, a := range s.Acceptance(1.01) {
		if a.Accepted != 0 {
			t.Errorf("above 1: %+v", a)
		}
	}
}

// TestGroupsJoinLinkedClusters: fine clusters linked by many edges join before clusters linked
// by few, so cutting the order into 3 groups gives the 3 blobs of the graph; every cut has the
// number of groups asked for, and fine clusters without samples never make a group of their own.
func TestGroupsJoinLinkedClusters(t *testing.T) {
	// 3 blobs of 40 samples, each split into 2 fine clusters (plus 2 empty clusters, 6 and 7);
	// every sample's neighbours are the next samples of its blob, one edge per blob to the next
	// blob.
	const n, k = 120, 6
	g := &nn.Graph{K: k, Idx: make([]int32, n*k), Dist: make([]float32, n*k)}
	fine := make([]int32, n)
	for i := range n {
		blob := i / 40
		fine[i] = int32(2*blob + i%2)
		for t := range k {
			g.Idx[i*k+t] = int32(blob*40 + (i%40+1+t)%40)
			g.Dist[i*k+t] = 1
		}
	}
	g.Idx[0] = 40 // one link from blob 0 to blob 1
	order := joinOrder(g, fine, 8)
	if len(order) != 7 {
		t.Fatalf("%d joins of 8 clusters", len(order))
	}
	for groups := 1; groups <= 8; groups++ {
		c := cut(order, 8, groups)
		distinct := map[int32]bool{}
		for _, v := range c {
			distinct[v] = true
		}
		if len(distinct) != groups {
			t.Errorf("cut into %d: %d groups", groups, len(distinct))
		}
		if groups <= 6 && (c[6] != c[0] || c[7] != c[0]) {
			t.Errorf("cut into %d: the empty clusters make groups of their own (%v)", groups, c)
		}
	}
	c := cut(order, 8, 3)
	for b := range 3 {
		if c[2*b] != c[2*b+1] {
			t.Errorf("blob %d split: %v", b, c)
		}
	}
	if c[0] == c[2] || c[2] == c[4] || c[0] == c[4] {
		t.Errorf("blobs joined: %v", c)
	}
}

// TestSpaceReady refuses a space whose arrays do not fit together or hold values out of place
// (what a damaged file would give), and derives typicality and the join order of a good one.
func TestSpaceReady(t *testing.T) {
	good := func() *Space {
		const n, k = 6, 2
		s := &Space{Map: make([]float32, 2*n), Fine: []int32{0, 0, 1, 1, 1, 0}, Clusters: 2,
			Graph: &nn.Graph{K: k, Idx: []int32{1, 2, 0, 2, 3, 1, 4, 2, 5, 3, 4, -1}, Dist: []float32{1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, float32(math.Inf(1))}}}
		s.Net = testNet(t, 2)
		return s
	}
	if err := good().Ready(); err != nil {
		t.Fatalf("a good space: %v", err)
	}
	for name, spoil := range map[string]func(*Space){
		"short map":         func(s *Space) { s.Map = s.Map[:3] },
		"NaN map":           func(s *Space) { s.Map[4] = float32(math.NaN()) },
		"cluster beyond":    func(s *Space) { s.Fine[2] = 2 },
		"negative cluster":  func(s *Space) { s.Fine[2] = -1 },
		"no clusters":       func(s *Space) { s.Clusters = 0 },
		"neighbour beyond":  func(s *Space) { s.Graph.Idx[3] = 6 },
		"negative distance": func(s *Space) { s.Graph.Dist[3] = -1 },
		"infinite distance": func(s *Space) { s.Graph.Dist[3] = float32(math.Inf(1)) },
		"short graph":       func(s *Space) { s.Graph.Idx = s.Graph.Idx[:10] },
		"no network":        func(s *Space) { s.Net = nil },
		"network classes":   func(s *Space) { s.Net = testNet(t, 3) },
	} {
		s := good()
		spoil(s)
		if err := s.Ready(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// testNet returns a network of the given classes, trained for one step on four blank images.
func testNet(t *testing.T, classes int) *cnn.Net {
	t.Helper()
	px := make([]byte, cnn.Pixels)
	net, err := cnn.Train(context.Background(), cnn.Samples{Pixels: func(int) []byte { return px }, Labels: []int{0, 1, 0, 1}},
		[]int{0, 1, 2, 3}, classes, cnn.Config{Epochs: 1}, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return net
}
