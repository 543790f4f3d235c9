package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/suspect"
)

// One CNN scan serves every view that asks for it: views asking while it runs get its result
// when it ends, a later one at once; a save (renumbering) makes it stale.
func TestAnalyseSharesOneScan(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.sugg.opts = suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 2}
	ds, _ := demoStore(t, true)
	w.c.setDataset(ds, "demo", false)
	var got []*analysis
	w.scans.analyse(func(a *analysis) { got = append(got, a) })
	w.scans.analyse(func(a *analysis) { got = append(got, a) })
	waitUI(t, q, func() bool { return len(got) == 2 })
	a := got[0]
	if got[1] != a || a.res == nil || len(a.res.Features) != ds.Len()*128 || !a.current(w.c) {
		t.Fatalf("two views, %d results", len(got))
	}
	if k, ok := a.row(a.snap.Indices[5]); !ok || k != 5 {
		t.Fatalf("row of sample %d: %d %v", a.snap.Indices[5], k, ok)
	}
	w.scans.analyse(func(b *analysis) { got = append(got, b) })
	if len(got) != 3 || got[2] != a || w.scans.cnn != nil {
		t.Fatal("a current scan was not handed over at once")
	}
	w.c.resets++ // as a save's renumbering does
	if a.current(w.c) {
		t.Fatal("a scan is current after the samples were renumbered")
	}
}
