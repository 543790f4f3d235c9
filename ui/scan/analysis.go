// Package scan is the window's one CNN scan of the dataset (Analysis), which the Suspects review,
// the health check, the confusion matrix and the map share: the Scanner runs it in the background
// (or reads it from the scan cache beside the image file) when one of them asks and the last
// one no longer describes the samples, with its progress on the status bar; Views keeps what the
// confusion matrix and the map show of the scan (Data) in step with every edit, undo, redo and
// save. The modes that show the scan (ui/suspects, ui/health, ui/confusion, ui/mapview) are built
// with the Scanner and the Views; neither knows them.
package scan

import (
	"fmt"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/scancache"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
)

// Analysis is a CNN scan of the dataset and what it scanned: its out-of-fold probabilities and
// its features (Res). Its rows are snapshot positions: Snap.Index[k] is the sample of row k. It
// describes the samples as they were when scanned; edits since then change labels (the views
// read those from the store), a save that renumbers the samples makes it stale (Current), and
// labelled samples doubled or halved since have a new scan made when one is asked for
// (LearntAlike).
type Analysis struct {
	DS     *store.Dataset
	Resets int // the controller's Resets when the scan began
	Snap   sample.Set
	Res    *suspect.CNNResult
	Took   time.Duration
	// Cached: Res was read from the scan cache (scancache.Scanner) and scored against Snap's
	// labels: it has no Model (no networks to predict samples it did not see).
	Cached bool
	rows   map[int]int // sample index → row; O(N) memory, made once per scan
	// learnt is how many of the scanned samples were labelled: the scan serves while the
	// labelled samples stay in the same power of two (scancache.LearntAlike).
	learnt int
}

// NewAnalysis is the scan res of snap, the samples of ds when the controller's Resets were
// resets, which took took (cached: read from the scan cache). O(N).
func NewAnalysis(ds *store.Dataset, resets int, snap sample.Set, res *suspect.CNNResult, took time.Duration, cached bool) *Analysis {
	a := &Analysis{DS: ds, Resets: resets, Snap: snap, Res: res, Took: took, Cached: cached, rows: make(map[int]int, snap.N), learnt: labelledIn(snap)}
	for k, i := range snap.Index {
		a.rows[i] = k
	}
	return a
}

// labelledIn returns how many of d's samples have a label. O(N).
func labelledIn(d sample.Set) int {
	n := 0
	for _, l := range d.Labels {
		if l != sample.NoLabel {
			n++
		}
	}
	return n
}

// Learnt is how many of the scanned samples were labelled: what the scan learnt from.
func (a *Analysis) Learnt() int { return a.learnt }

// LearntAlike reports whether ds's labelled samples (deleted ones left out) are still as many as
// the scan learnt from, within a power of two (scancache.LearntAlike): labelling from scratch
// makes the scan again as the labels double. O(classes).
func (a *Analysis) LearntAlike(ds *store.Dataset) bool {
	now := 0
	for _, cc := range ds.Counts() {
		if cc.Class != sample.NoLabel {
			now += cc.Count
		}
	}
	return scancache.LearntAlike(a.learnt, now)
}

// Current reports whether a still describes the window's dataset: the same dataset, not
// renumbered since (c.Resets).
func (a *Analysis) Current(c mode.Controller) bool {
	return a != nil && a.DS == c.State().DS && a.Resets == c.Resets()
}

// Row returns the scan's row of sample i, or false when the scan did not see it (deleted then,
// or added since).
func (a *Analysis) Row(i int) (int, bool) {
	k, ok := a.rows[i]
	return k, ok
}

// NothingToScan says why the CNN scan cannot run on samples of these class counts (deleted ones
// left out, store.Dataset.Counts), or returns "" when it can: the out-of-fold classifier needs
// labelled samples of two classes or more (suspect.ScanCNN's rule). O(classes).
func NothingToScan(counts []store.ClassCount, n classes.Names) string {
	var cs []int
	labelled := 0
	for _, cc := range counts {
		if cc.Class != sample.NoLabel && cc.Count > 0 {
			cs = append(cs, cc.Class)
			labelled += cc.Count
		}
	}
	switch len(cs) {
	case 0:
		return "The CNN learns from labelled samples: this dataset has none yet."
	case 1:
		return fmt.Sprintf("The CNN learns to tell classes apart: every labelled sample (%s) is of class %s. Label samples of another class first.",
			numfmt.Plural(labelled, "sample"), n.Long(cs[0]))
	}
	return ""
}
