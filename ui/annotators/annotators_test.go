package annotators

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode/modetest"
	"idxlabel/ui/widgets"
)

// n is the generated pair's sample count: 4×4 samples, each's pixels unique (its number in
// two bytes), labelled i mod 10.
const n = 300

// writePair writes the generated pair in dir and returns its paths.
func writePair(t *testing.T, dir string) (string, string) {
	t.Helper()
	im, _ := idx.New(idx.UByte, n, 4, 4)
	for i := range n {
		im.Data[i*16], im.Data[i*16+1] = byte(i), byte(i>>8)
	}
	ip, lp := filepath.Join(dir, "g-images-idx3-ubyte"), filepath.Join(dir, "g-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, im); err != nil {
		t.Fatal(err)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % 10
	}
	writeLabels(t, lp, labels)
	return ip, lp
}

// writeLabels writes labels as a ubyte label file at path.
func writeLabels(t *testing.T, path string, labels []int) {
	t.Helper()
	a, _ := idx.New(idx.UByte, len(labels))
	for i, l := range labels {
		a.Data[i] = byte(l)
	}
	if err := idx.WriteFile(path, a); err != nil {
		t.Fatal(err)
	}
}

// annotator writes the pair's labels with the changes planted (sample → label) as a label file
// named name in dir.
func annotator(t *testing.T, dir, name string, planted map[int]int) string {
	t.Helper()
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % 10
		if l, ok := planted[i]; ok {
			labels[i] = l
		}
	}
	p := filepath.Join(dir, name)
	writeLabels(t, p, labels)
	return p
}

// open opens the pair for editing; it is closed at the test's end.
func open(t *testing.T, images, labels string) *store.Dataset {
	t.Helper()
	ds, err := store.Open(images, labels, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	return ds
}

// testJobs is a job state whose scheduled functions wait in a channel for the test to run
// (run), as the window's UI thread would.
func testJobs() (*jobs.Jobs, chan func()) {
	q := make(chan func(), 64)
	return jobs.New(func(f func()) { q <- f }, nil), q
}

// run runs the next function scheduled (failing after 10 s without one).
func run(t *testing.T, q chan func()) {
	t.Helper()
	select {
	case f := <-q:
		f()
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was scheduled on the UI thread")
	}
}

// testWindow is a headless window and its dialogs.
func testWindow(t *testing.T) (*dialogs.Dialogs, fyne.Window) {
	t.Helper()
	a := test.NewTempApp(t)
	win := a.NewWindow("test")
	win.Resize(fyne.NewSize(1280, 820))
	t.Cleanup(win.Close)
	return dialogs.New(win, a.Preferences(), nil, nil), win
}

// The comparison finds exactly the samples planted where the annotators differ, their majority
// labels, and figures that are annotate's: Cohen's κ of two, then Fleiss' κ of three once a
// second file is added; every other annotator's κ with the open labels is the plain Cohen's κ.
func TestCompareFindsThePlantedDisagreements(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writePair(t, dir)
	ds := open(t, ip, lp)
	bob := annotator(t, dir, "bob-labels-idx1-ubyte", map[int]int{5: 3, 77: 1, 140: 9, 250: 1})
	carol := annotator(t, dir, "carol-labels-idx1-ubyte", map[int]int{77: 1, 200: 4, 250: 2})

	cmp, f, err := compareFile(ds, n, nil, "g-labels-idx1-ubyte", bob)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cmp.Order, []int{5, 77, 140, 250}) || !slices.Equal(cmp.Names, []string{"g-labels-idx1-ubyte", "bob-labels-idx1-ubyte"}) {
		t.Fatalf("two annotators: order %v, names %v", cmp.Order, cmp.Names)
	}
	if !strings.Contains(f.Line(), "Cohen's κ") || !strings.Contains(f.Line(), "over 300 samples") || f.Summary.Agreeing != n-4 {
		t.Fatalf("two annotators' figures: %s", f.Line())
	}
	if v := cmp.Vote(77, int32(ds.Label(77))); v.Label != annotate.NoLabel {
		t.Fatalf("two annotators who differ have a majority: %+v", v)
	}

	cmp, f, err = compareFile(ds, n, cmp, "g-labels-idx1-ubyte", carol)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cmp.Order, []int{5, 77, 140, 200, 250}) || len(cmp.Names) != 3 {
		t.Fatalf("three annotators: order %v, names %v", cmp.Order, cmp.Names)
	}
	for i, want := range map[int]int32{5: 5, 77: 1, 140: 0, 200: 0, 250: annotate.NoLabel} {
		if got := cmp.Vote(i, int32(ds.Label(i))).Label; got != want {
			t.Errorf("sample %d's majority %d, want %d", i, got, want)
		}
	}
	if !strings.Contains(f.Line(), "3 annotators") || !strings.Contains(f.Line(), "Fleiss' κ") {
		t.Fatalf("three annotators' figures: %s", f.Line())
	}
	open := openLabels(ds, n)
	for a, k := range f.WithOpen {
		want, err := annotate.Cohen(open, cmp.Others[a])
		if err != nil || k != want {
			t.Errorf("annotator %d's κ with the open labels %+v, want %+v (%v)", a+1, k, want, err)
		}
	}
	// The same file twice is named by its path the second time.
	if got := nameFor(cmp.Names, bob); got != bob {
		t.Errorf("a clashing name: %q", got)
	}
}

// A file that is not one annotator's labels of these samples is refused, named.
func TestCompareRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writePair(t, dir)
	ds := open(t, ip, lp)
	short := filepath.Join(dir, "short-labels-idx1-ubyte")
	writeLabels(t, short, make([]int, n-1))
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("not an IDX file at all"), 0o644)
	for _, path := range []string{short, junk, ip, filepath.Join(dir, "missing")} {
		_, _, err := compareFile(ds, n, nil, "open", path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v does not name it", path, err)
		}
	}
}

// In the Disagreements mode a digit adjudicates (the open label becomes it, one journaled,
// undoable decision by hand), Enter takes the majority or says there is none, → keeps the
// label; each tile shows every annotator's label; the figures are made again off the UI thread
// after the labels changed, and edits go on meanwhile.
func TestDisagreementsAdjudicate(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writePair(t, dir)
	ds := open(t, ip, lp)
	bob := annotator(t, dir, "bob", map[int]int{5: 3, 77: 1, 140: 9, 250: 1})
	carol := annotator(t, dir, "carol", map[int]int{77: 1, 200: 4, 250: 2})
	c := modetest.New(ds)
	j, q := testJobs()
	d, win := testWindow(t)
	a := New(c, j, d, win, widget.NewLabel("the grid"))
	if a.Mode.Ready() || a.Mode.Marks() != nil {
		t.Fatal("the mode is ready before any comparison")
	}
	cmp, f, _ := compareFile(ds, n, nil, "g", bob)
	cmp, f, _ = compareFile(ds, n, cmp, "g", carol)
	a.Mode.set(cmp, f, ds.Gen())
	c.Enter(a.Mode)
	if !slices.Equal(c.Order, []int{5, 77, 140, 200, 250}) {
		t.Fatalf("the mode shows %v", c.Order)
	}
	names := classes.Of(ds)
	if b := a.Mode.Badge(77, ds.State(77), widgets.Badge{Text: "7"}, names); b.Text != "7|1|1" {
		t.Fatalf("sample 77's badge %q", b.Text)
	}
	before := a.Mode.figs.Summary.Agreeing

	a.Mode.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn}) // 5: the majority 5 (open and carol)
	a.Mode.Label(c, 1)                                  // 77: adjudicated 1
	a.Mode.Key(c, &fyne.KeyEvent{Name: fyne.KeyRight})  // 140: kept 0
	if ds.Label(5) != 5 || ds.Label(77) != 1 || ds.Label(140) != 0 || c.At != 3 {
		t.Fatalf("labels %d %d %d, cursor %d", ds.Label(5), ds.Label(77), ds.Label(140), c.At)
	}
	for _, i := range []int{5, 77, 140} {
		if !ds.State(i).Reviewed {
			t.Errorf("sample %d is not marked adjudicated", i)
		}
	}
	if b := a.Mode.Badge(77, ds.State(77), widgets.Badge{Text: "1"}, names); b.Text != "1|1|1 ✓" {
		t.Fatalf("an adjudicated badge %q", b.Text)
	}
	log := ds.ChangeLog()
	if e := log[len(log)-1]; e.How != store.HowManual {
		t.Fatalf("an adjudication logged as %v", e.How)
	}
	c.MoveCursor(4) // 250: no majority
	a.Mode.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.State(250).Reviewed || c.At != 4 || !strings.Contains(c.Said[len(c.Said)-1], "no majority") {
		t.Fatalf("Enter without a majority: %+v, cursor %d, said %q", ds.State(250), c.At, c.Said)
	}

	// The figures: made again off the UI thread (a job), the open labels read there; a digit
	// typed meanwhile is applied at once.
	status := a.Mode.Status(c.State())
	if !a.Mode.figuring || j.Running() != 1 || !strings.HasSuffix(status, " …") {
		t.Fatalf("no figures being made after the edits (running %d): %q", j.Running(), status)
	}
	a.Mode.Label(c, 7)
	if ds.Label(250) != 7 {
		t.Fatal("a digit typed while the figures are made was not applied")
	}
	run(t, q)
	if a.Mode.figuring || a.Mode.figs.Summary.Agreeing <= before {
		t.Fatalf("figures after adjudicating: agreeing %d, before %d", a.Mode.figs.Summary.Agreeing, before)
	}
	a.Mode.Status(c.State()) // the label typed meanwhile: made again
	run(t, q)
	if a.Mode.figGen != ds.Gen() || strings.HasSuffix(a.Mode.Status(c.State()), " …") || j.Running() != 0 {
		t.Fatalf("the figures are not of the labels now: %q", a.Mode.Status(c.State()))
	}
	want, _ := cmp.Figures(openLabels(ds, n), [2]int{0, 1})
	if a.Mode.figs.Summary.Agreeing != want.Summary.Agreeing {
		t.Fatalf("figures %+v, want %+v", a.Mode.figs.Summary, want.Summary)
	}

	// One undo takes back one adjudication.
	if _, _, err := ds.Undo(); err != nil || ds.Label(250) != 0 || ds.Label(77) != 1 {
		t.Fatalf("undo: %v, labels %d %d", err, ds.Label(250), ds.Label(77))
	}
	// Another dataset ends the comparison.
	a.Mode.Follow(nil)
	if a.Mode.Ready() {
		t.Fatal("the comparison outlived its dataset")
	}
}

// A sample's majority is that of its votes now, the open label as adjudicated being one: sample
// 5 (open 5, bob 3, carol 5: the majority 5, 2 of 3) adjudicated 3 has the majority 3 (open 3,
// bob 3); the panel says so and Enter, back on it, takes 3, not the 5 of the comparison.
func TestMajorityFollowsAdjudication(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writePair(t, dir)
	ds := open(t, ip, lp)
	bob := annotator(t, dir, "bob", map[int]int{5: 3, 77: 1})
	carol := annotator(t, dir, "carol", map[int]int{77: 2})
	c := modetest.New(ds)
	j, _ := testJobs()
	d, win := testWindow(t)
	a := New(c, j, d, win, widget.NewLabel("the grid"))
	cmp, f, _ := compareFile(ds, n, nil, "g", bob)
	cmp, f, _ = compareFile(ds, n, cmp, "g", carol)
	a.Mode.set(cmp, f, ds.Gen())
	c.Enter(a.Mode)
	if !slices.Equal(c.Order, []int{5, 77}) {
		t.Fatalf("the mode shows %v", c.Order)
	}
	about := func(i int) string { return a.Mode.About(c.State(), i).Text }
	if got := about(5); !strings.Contains(got, "Majority 5 (2 of 3)") {
		t.Fatalf("before adjudicating: %q", got)
	}
	a.Mode.Label(c, 3) // 5 adjudicated 3; the cursor moves on to 77
	if ds.Label(5) != 3 || c.At != 1 {
		t.Fatalf("label %d, cursor %d", ds.Label(5), c.At)
	}
	if got := about(5); !strings.Contains(got, "Majority 3 (2 of 3): Enter takes it.") {
		t.Fatalf("after adjudicating 3: %q", got)
	}
	c.MoveCursor(0)
	a.Mode.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(5) != 3 || c.At != 1 {
		t.Fatalf("Enter after adjudicating 3 set %d (cursor %d), want the majority now, 3", ds.Label(5), c.At)
	}
	// 77 (open 7, bob 1, carol 2: none) typed 1 has the majority 1, and Enter keeps it.
	a.Mode.Label(c, 1)
	if got := about(77); !strings.Contains(got, "Majority 1 (2 of 3)") {
		t.Fatalf("77 after adjudicating 1: %q", got)
	}
	c.MoveCursor(1)
	a.Mode.Label(c, 9) // back to no majority: 9, 1, 2
	c.MoveCursor(1)
	a.Mode.Key(c, &fyne.KeyEvent{Name: fyne.KeyReturn})
	if ds.Label(77) != 9 || !strings.Contains(c.Said[len(c.Said)-1], "no majority") || !strings.Contains(about(77), "No majority") {
		t.Fatalf("77 adjudicated 9: label %d, said %q, about %q", ds.Label(77), c.Said, about(77))
	}
}

// A save that leaves samples out renumbers the comparison with them.
func TestComparisonRenumbered(t *testing.T) {
	cmp, _, err := Compare([]int32{0, 1, 2, 3}, "open", []annotate.Column{{Name: "b", Labels: []int32{0, 5, 2, 6}}})
	if err != nil {
		t.Fatal(err)
	}
	r := cmp.Renumbered([]int{0, -1, 1, 2, 3}) // sample 1 left out; sample 4 was added after
	if r.N != 3 || !slices.Equal(r.Others[0], []int32{0, 2, 6}) || !slices.Equal(r.Order, []int{2}) || r.Vote(2, 3) != cmp.Vote(3, 3) {
		t.Fatalf("renumbered: %+v", r)
	}
}

// Errata round trip: three labels corrected in the window are exported as the errata file
// `idxlabel errata` writes; applied to another copy of the pair they give the same labels in
// one undoable step; a row whose old label does not match is left out and listed; an existing
// errata file is replaced only once the person says so.
func TestErrataRoundTrip(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	ip, lp := writePair(t, dir)
	ip2, lp2 := writePair(t, other)
	ds := open(t, ip, lp)
	if err := ds.SetLabels([]int{3, 150, 299}, []int{8, 2, 1}); err != nil {
		t.Fatal(err)
	}
	was, now := make([]int32, n), make([]int32, n)
	for i := range n {
		was[i], now[i] = int32(ds.OriginalLabel(i)), int32(ds.Label(i))
	}
	out := filepath.Join(dir, "fix.csv")
	rows, err := writeErrata(context.Background(), ip, ErrataRequest{Out: out, Note: "window"}, was, now, func(float64) {})
	if err != nil || rows != 3 {
		t.Fatalf("%d rows, %v", rows, err)
	}
	f, _ := os.Open(out)
	er, err := annotate.ReadErrata(bufio.NewReader(f), out)
	f.Close()
	if err != nil || len(er.Rows) != 3 || er.Rows[1].Index != 150 || er.Rows[1].Old != 0 || er.Rows[1].New != 2 || er.Rows[1].Note != "window" {
		t.Fatalf("errata read back: %+v, %v", er, err)
	}
	// Against another file of old labels (the pair's own): the same rows.
	if rows, err := writeErrata(context.Background(), ip, ErrataRequest{Out: out + "2", Old: lp}, was, now, func(float64) {}); err != nil || rows != 3 {
		t.Fatalf("against a label file: %d rows, %v", rows, err)
	}

	ds2 := open(t, ip2, lp2)
	c := modetest.New(ds2)
	j, _ := testJobs()
	d, win := testWindow(t)
	e := New(c, j, d, win, widget.NewLabel("the grid")).Errata
	er2, hs, fits, err := readErrata(context.Background(), out, ip2, lp2, func(float64) {})
	if err != nil {
		t.Fatal(err)
	}
	er2.Rows = append(er2.Rows, annotate.Row{Line: 9, Index: 10, SHA256: hs.Samples[10], Old: 4, New: 5}) // sample 10 is 0
	e.apply(ds2, er2, hs, fits, out)
	for i := range n {
		if ds2.Label(i) != ds.Label(i) {
			t.Fatalf("sample %d: %d after the errata, %d in the window that made them", i, ds2.Label(i), ds.Label(i))
		}
	}
	if key, open := d.Top(); !open || key != "errata left out" || !strings.Contains(c.Said[len(c.Said)-1], "Applied 3 of 4 errata rows") {
		t.Fatalf("the row left out: prompt %q (%v), said %q", key, open, c.Said)
	}
	if _, _, err := ds2.Undo(); err != nil || ds2.Label(3) != 3 || ds2.Label(150) != 0 || ds2.Label(299) != 9 {
		t.Fatalf("one undo did not take the errata back: %v", err)
	}

	// An existing errata file: asked about, not replaced.
	before, _ := os.ReadFile(out)
	ew := New(modetest.New(ds), j, d, win, widget.NewLabel("the grid")).Errata
	d2, win2 := testWindow(t)
	ew.d, ew.win = d2, win2
	ew.Write(ErrataRequest{Out: out}, false)
	if key, open := d2.Top(); !open || key != "" {
		t.Fatalf("an existing errata file: prompt %q (%v)", key, open)
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Fatal("an existing errata file was replaced without asking")
	}
}
