package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/demo"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/scancache"
	"idxlabel/ui/scan"
)

// demoPair writes the demo's 300 labelled digits as a pair in a temporary folder.
func demoPair(t *testing.T) (string, string) {
	t.Helper()
	images, labels, err := demo.Arrays()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "d-images-idx3-ubyte"), filepath.Join(dir, "d-labels-idx1-ubyte")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// analysed opens the pair in a new headless window (read-only or not) and returns the window's
// CNN scan of it.
func analysed(t *testing.T, ip, lp string, readOnly bool) (*window, *uiQueue, *scan.Analysis) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.scans.Opts = quickCNN
	ds, err := store.Open(ip, lp, store.Options{ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	w.c.setDataset(ds, filepath.Base(lp), false)
	var got *scan.Analysis
	w.scans.Analyse(func(a *scan.Analysis) { got = a })
	waitUI(t, q, func() bool { return got != nil })
	return w, q, got
}

// The window keeps its CNN scan beside the image file: a window opened later on the same pair
// gets it from there (no model, the same outputs and verdicts), a read-only one too but it
// never writes one; the Suspects review's ranking says where it came from, and the map leaves a
// sample added since off (no network to place it).
func TestScanKeptOnDisk(t *testing.T) {
	ip, lp := demoPair(t)
	cache := ip + scancache.Suffix
	_, _, first := analysed(t, ip, lp, true)
	if first.Cached {
		t.Fatal("the first scan came from a cache")
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Fatalf("a read-only window wrote the scan cache: %v", err)
	}
	w1, _, scanned := analysed(t, ip, lp, false)
	if scanned.Cached || scanned.Res.Model == nil {
		t.Fatal("the scan of a pair without a cache did not run")
	}
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no scan cache after the window's scan: %v", err)
	}
	w1.c.ds.Close()
	w2, w2q, kept := analysed(t, ip, lp, false)
	if !kept.Cached || kept.Res.Model != nil {
		t.Fatalf("the second window's scan: cached %t", kept.Cached)
	}
	if !slices.Equal(kept.Res.Probs, scanned.Res.Probs) || !slices.Equal(kept.Res.Features, scanned.Res.Features) ||
		!slices.Equal(kept.Res.Suspects, scanned.Res.Suspects) {
		t.Fatal("the kept scan's outputs or verdicts differ from the scan's")
	}
	// Without a model, the Suspects review still takes the CNN's ranking, says it was kept, and
	// the suggester gets no model (the draw window trains its own when it opens).
	w2.susp.Find()
	waitUI(t, w2q, func() bool {
		r := w2.susp.Mode.List
		return r != nil && strings.HasPrefix(r.Method, "CNN")
	})
	if r := w2.susp.Mode.List; !strings.Contains(r.Method, "kept") || len(r.Order) == 0 || r.Few != (len(kept.Res.Suspects) < suspect.FewLabels) {
		t.Fatalf("the review of a kept scan: %q, %d listed, few %t", r.Method, len(r.Order), r.Few)
	}
	if w2.sugg.Model() != nil {
		t.Fatal("a kept scan gave the suggester a model")
	}
	// The map of a kept scan is laid out; a sample added since has no network to place it: it
	// stays off the map (no placement runs, nothing panics).
	menuAction(t, w2, "Map of the Dataset")()
	mm := w2.mapv
	waitUI(t, w2q, func() bool {
		return w2.c.mode == w2.mapv && mm.D != nil && mm.Maps.Lay != nil && !w2.mapv.Maps.Busy()
	})
	px, _ := w2.c.ds.PixelsAt(0)
	i, err := w2.c.add(store.HowAddedDrawn, []store.Sample{{Pixels: px, Label: 1}})
	if err != nil {
		t.Fatal(err)
	}
	w2q.run()
	if l := mm.Maps.Lay; w2.mapv.Maps.Busy() || i < len(l.Point) && l.Point[i] >= 0 {
		t.Fatal("a sample added since a kept scan was placed, or a placement runs")
	}
}

// Before a scan runs the status bar's progress says about how long it will take, labelled an
// estimate; a scan read from the cache says nothing of the kind.
func TestScanEstimateSaid(t *testing.T) {
	ip, lp := demoPair(t)
	for _, want := range []bool{true, false} { // a scan, then the kept one
		w := newTestWindow(t)
		q := queueUI(w)
		w.scans.Opts = quickCNN
		var notes []string
		w.scans.Watch(func(note string, _ float64) { notes = append(notes, note) })
		ds, err := store.Open(ip, lp, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w.c.setDataset(ds, filepath.Base(lp), false)
		var got *scan.Analysis
		w.scans.Analyse(func(a *scan.Analysis) { got = a })
		waitUI(t, q, func() bool { return got != nil })
		said := slices.ContainsFunc(notes, func(n string) bool {
			return strings.HasPrefix(n, "CNN scan of 300 samples: about ") && strings.HasSuffix(n, " (an estimate)")
		})
		if said != want || got.Cached == want {
			t.Fatalf("scanned %t: the estimate said %t (%q)", want, said, notes)
		}
		ds.Close()
	}
}

// Tools → Scan Again makes the scan anew though one of these pixels is kept beside the image
// file: the new scan ran (it has a model) and is the window's scan from then on; the confusion
// matrix shown is made again from it.
func TestScanAgainIgnoresTheKeptScan(t *testing.T) {
	ip, lp := demoPair(t)
	w1, _, _ := analysed(t, ip, lp, false) // writes the cache
	w1.c.ds.Close()
	w, q, kept := analysed(t, ip, lp, false)
	if !kept.Cached {
		t.Fatal("the second window did not read the kept scan")
	}
	w.c.choose(w.conf, store.Live)
	waitUI(t, q, func() bool { return w.c.mode == w.conf })
	menuItem(t, w, "Tools", "Scan Again (Not the Kept Scan)").Action()
	waitUI(t, q, func() bool { return w.scans.Last() != kept && !w.scans.Running() })
	again := w.scans.Last()
	if again == nil || again.Cached || again.Res.Model == nil {
		t.Fatalf("Scan Again: %+v", again)
	}
	if w.c.mode != w.conf || w.views.Current() == nil || w.views.Current().A != again {
		t.Fatal("the confusion matrix shown was not made again from the new scan")
	}
}
