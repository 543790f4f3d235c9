package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/scan"
)

// One CNN scan serves every view that asks for it: views asking while it runs get its result
// when it ends, a later one at once; a save (renumbering) makes it stale.
func TestAnalyseSharesOneScan(t *testing.T) {
	w, q, ds := scanWindow(t)
	var got []*scan.Analysis
	w.scans.Analyse(func(a *scan.Analysis) { got = append(got, a) })
	w.scans.Analyse(func(a *scan.Analysis) { got = append(got, a) })
	waitUI(t, q, func() bool { return len(got) == 2 })
	a := got[0]
	if got[1] != a || a.Res == nil || len(a.Res.Features) != ds.Len()*128 || !a.Current(modeHost{w.c}) {
		t.Fatalf("two views, %d results", len(got))
	}
	if k, ok := a.Row(a.Snap.Index[5]); !ok || k != 5 {
		t.Fatalf("row of sample %d: %d %v", a.Snap.Index[5], k, ok)
	}
	w.scans.Analyse(func(b *scan.Analysis) { got = append(got, b) })
	if len(got) != 3 || got[2] != a || w.scans.Running() {
		t.Fatal("a current scan was not handed over at once")
	}
	w.c.resets++ // as a save's renumbering does
	if a.Current(modeHost{w.c}) {
		t.Fatal("a scan is current after the samples were renumbered")
	}
}

// A view that asked with analyseOr learns that a scan went stale (the samples renumbered while
// it ran) and gets a scan of the samples as they are when it asks again; Tools → Stop Training
// the CNN tells it too.
func TestAnalyseOrStale(t *testing.T) {
	w, q, _ := scanWindow(t)
	var got *scan.Analysis
	var stale []bool
	ask := func() {
		w.scans.AnalyseOr(func(a *scan.Analysis) { got = a }, func(s bool) { stale = append(stale, s) })
	}
	ask()
	w.c.resets++ // as a save's renumbering does, before the scan's result is applied
	waitUI(t, q, func() bool { return len(stale) == 1 })
	if !stale[0] || got != nil || w.scans.Running() {
		t.Fatalf("stale %v, got %v", stale, got != nil)
	}
	ask()
	waitUI(t, q, func() bool { return got != nil })
	if !got.Current(modeHost{w.c}) || len(stale) != 1 {
		t.Fatal("asking again did not give a current scan")
	}
	w.c.resets++
	ask()
	menuItem(t, w, "Tools", "Stop Training the CNN").Action()
	if len(stale) != 2 || stale[1] || w.scans.Running() {
		t.Fatalf("after Stop: %v", stale)
	}
}

// scanWindow shows the demo's labelled digits in a headless window whose CNN scan is short and
// whose background steps the test runs (queueUI).
func scanWindow(t *testing.T) (*window, *uiQueue, *store.Dataset) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.scans.Opts = quickCNN
	ds, _ := demoStore(t, true)
	w.c.setDataset(ds, "demo", false)
	return w, q, ds
}

// A dataset the CNN cannot scan (every labelled sample of one class: a classifier needs two)
// opens no scan: the confusion matrix and the map say why in a prompt, and the window stays as
// it was. The scan used to start, fail, and show "Error: the CNN scan failed: the labelled
// samples have 1 classes, a classifier needs 2".
func TestNothingToScan(t *testing.T) {
	w := newTestWindow(t)
	ds, _ := demoStore(t, true)
	all := make([]int, ds.Len())
	for i := range all {
		all[i] = i
	}
	if err := ds.Relabel(all, 3); err != nil {
		t.Fatal(err)
	}
	w.c.setDataset(ds, "demo", false)
	for _, open := range []func(){menuAction(t, w, "Confusion Matrix"), menuAction(t, w, "Map of the Dataset"), w.susp.Find} {
		open()
		labels, _ := overlayTexts(w)
		said := strings.Join(labels, " ")
		if w.scans.Running() || w.c.mode != browsing || !strings.Contains(said, "is of class 3") || strings.Contains(said, "failed") {
			t.Fatalf("scan running %v, mode %v; the window says %q", w.scans.Running(), w.c.mode, said)
		}
		w.d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})
	}
	if got := scan.NothingToScan([]store.ClassCount{{Class: sample.NoLabel, Count: 5}}, w.c.classes); !strings.Contains(got, "none yet") {
		t.Fatalf("no labelled sample: %q", got)
	}
	if got := scan.NothingToScan([]store.ClassCount{{Class: 0, Count: 1}, {Class: 1, Count: 0}, {Class: 2, Count: 1}}, w.c.classes); got != "" {
		t.Fatalf("two classes of one sample each: %q", got)
	}
}

// A save that leaves every sample its number (labels written) keeps the scan: the confusion
// matrix, the map and the health check open at once after it, without training again. A save
// that leaves samples out renumbers the rest and makes the scan stale, as a replay does.
func TestScanKeptAcrossLabelsOnlySave(t *testing.T) {
	w, q, ds := scanWindow(t)
	var a *scan.Analysis
	w.scans.Analyse(func(got *scan.Analysis) { a = got })
	waitUI(t, q, func() bool { return a != nil })
	same := make([]int, ds.Len())
	for i := range same {
		same[i] = i
	}
	w.c.apply(ds, store.Change{Kind: store.Reset, Renumber: same, Gen: w.c.v.gen + 1})
	if w.c.v.gen != ds.Gen()+1 {
		t.Fatal("the Reset was not applied")
	}
	if !a.Current(modeHost{w.c}) {
		t.Fatal("a labels-only save made the scan stale")
	}
	fewer := slices.Clone(same)
	fewer[3] = -1
	for i := 4; i < len(fewer); i++ {
		fewer[i] = i - 1
	}
	w.c.apply(ds, store.Change{Kind: store.Reset, Renumber: fewer, Gen: w.c.v.gen + 1})
	if a.Current(modeHost{w.c}) {
		t.Fatal("a save that renumbered the samples kept the scan")
	}
}

// A scan serves while the labelled samples stay within a power of two of those it learnt from
// (relabelling, a few more labels); once they double, as in labelling from scratch, asking for
// it makes a new one.
func TestScanRedoneWhenLabelsDouble(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.scans.Opts = quickCNN
	ds, truth := demoStore(t, false)
	w.c.setDataset(ds, "demo", false)
	label := func(from, to int) {
		for i := from; i < to; i++ {
			if err := ds.Relabel([]int{i}, truth[i]); err != nil {
				t.Fatal(err)
			}
		}
		w.c.drain()
	}
	label(0, 10)
	var got *scan.Analysis
	w.scans.Analyse(func(a *scan.Analysis) { got = a })
	waitUI(t, q, func() bool { return got != nil })
	first := got
	if first.Learnt() != 10 {
		t.Fatalf("the scan learnt from %d labels, 10 were given", first.Learnt())
	}
	label(10, 15)
	if err := ds.Relabel([]int{3}, (truth[3]+1)%10); err != nil { // a relabel keeps the count
		t.Fatal(err)
	}
	w.c.drain()
	w.scans.Analyse(func(a *scan.Analysis) { got = a })
	if got != first || w.scans.Running() {
		t.Fatal("15 labels: the scan of 10 was not handed over at once")
	}
	label(15, 16)
	got = nil
	w.scans.Analyse(func(a *scan.Analysis) { got = a })
	if !w.scans.Running() {
		t.Fatal("16 labels, twice the 10 the scan learnt from: no new scan started")
	}
	waitUI(t, q, func() bool { return got != nil })
	if got == first || got.Learnt() != 16 {
		t.Fatalf("the new scan learnt from %d labels", got.Learnt())
	}
}
