package scan

import (
	"fmt"
	"slices"
	"time"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect/confusion"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/testhook"
)

// Views keeps what the confusion matrix and the map show of one CNN scan (an Analysis) in step
// with the dataset, as Data. Views that show the scan's findings read the store's labels as they
// are now, so every edit, undo and redo moves a sample between the matrix's cells at once
// (Follow, through the store's notifications on the UI thread); a save renumbers the samples and
// the scan's rows follow them, so the views outlive a save (the analysis itself goes stale then,
// and a view opened anew asks for a new scan). What a view keeps of the scan beyond it (the
// map's layout) follows through Watch.
//
// Cost: adopting a scan is O(N·C) for N samples of C classes (the matrix); an edit of k
// samples is O(k); a save or an undone append O(N) (the rows are renumbered).
type Views struct {
	c     mode.Controller
	scans *Scanner
	seen  *Data // nil: no scan adopted (or it no longer applies)
	// What follows the adopted scan beyond it (Watch): each change after the matrix followed it,
	// and a scan dropped.
	follows []func(d *Data, ch store.Change)
	drops   []func()
}

// Data is one scan as the views use it: its rows (the samples it scanned, in its order) mapped
// to the samples they are now, and the confusion matrix of the labels now.
type Data struct {
	A      *Analysis
	DS     *store.Dataset
	Sample []int   // scan row → the sample it is now; -1 when a save left it out
	Row    []int32 // sample → its scan row; -1 when the scan did not see it (added since, or deleted then)
	Matrix *confusion.Matrix
	// Edits counts the changes the matrix followed: a chart drawn at an older count redraws.
	Edits int
}

// NewViews makes the views' scan data of the window whose controller is c, the scans run by
// scans. The controller is to call Follow at every change of the dataset and Drop when it is
// replaced.
func NewViews(c mode.Controller, scans *Scanner) *Views { return &Views{c: c, scans: scans} }

// Watch has follow called after each change the adopted scan followed (d: the scan's data; the
// matrix follows first), and drop when the scan is dropped (another dataset, a replayed
// journal), on the UI thread.
func (v *Views) Watch(follow func(d *Data, ch store.Change), drop func()) {
	v.follows = append(v.follows, follow)
	v.drops = append(v.drops, drop)
}

// RowOf returns sample i's scan row, or false when the scan did not see it.
func (d *Data) RowOf(i int) (int, bool) {
	if i < 0 || i >= len(d.Row) || d.Row[i] < 0 {
		return 0, false
	}
	return int(d.Row[i]), true
}

// Predicted returns the class the scan's model predicts out of fold for sample i, with its
// probability and that of label (0 when the model has no such class); false when the scan did
// not see the sample.
func (d *Data) Predicted(i, label int) (class int, p, pLabel float64, ok bool) {
	r, ok := d.RowOf(i)
	if !ok {
		return 0, 0, 0, false
	}
	classes := d.A.Res.Classes
	probs := d.A.Res.Probs[r*len(classes) : (r+1)*len(classes)]
	class, _ = d.Matrix.Predicted(r)
	k, _ := slices.BinarySearch(classes, class)
	p = float64(probs[k])
	if l, found := slices.BinarySearch(classes, label); found {
		pLabel = float64(probs[l])
	}
	return class, p, pLabel, true
}

// newScanData adopts analysis a of ds, current now: the matrix of the scanned samples' labels
// as they are now (deleted samples excluded). O(N·C). Errors: the matrix's (shapes that do not
// fit: a scan of another dataset).
func newData(ds *store.Dataset, a *Analysis) (*Data, error) {
	n := a.Snap.N
	d := &Data{A: a, DS: ds, Sample: slices.Clone(a.Snap.Index), Row: make([]int32, ds.Len())}
	for i := range d.Row {
		d.Row[i] = -1
	}
	labels := make([]int, n)
	deleted := make([]bool, n)
	for r, i := range d.Sample {
		st, ok := ds.StateAt(i)
		labels[r], deleted[r] = st.Label, st.Deleted
		if ok && i < len(d.Row) {
			d.Row[i] = int32(r)
		}
	}
	m, err := confusion.New(labels, a.Res.Probs, a.Res.Classes)
	if err != nil {
		return nil, err
	}
	for r, del := range deleted {
		if del {
			m.Exclude(r, true)
		}
	}
	d.Matrix = m
	return d, nil
}

// Adopted returns the scan the views adopted (nil: none), current or not.
func (v *Views) Adopted() *Data { return v.seen }

// Current returns the adopted scan, or nil when there is none or a newer current scan exists
// (the views adopt it when next opened).
func (v *Views) Current() *Data {
	if v.seen == nil || v.seen.DS != v.c.State().DS {
		return nil
	}
	if last := v.scans.last; last != nil && last != v.seen.A && last.Current(v.c) {
		return nil
	}
	return v.seen
}

// Open calls then on the UI thread with the scan the views show: the adopted one, or the
// current analysis (Scanner.AnalyseOr runs the scan if needed, its progress on the status bar;
// a scan that a save made stale while it ran is asked for again).
func (v *Views) Open(then func(*Data)) {
	asked := time.Now()
	if d := v.Current(); d != nil {
		then(d)
		testhook.LogScanShown(asked, "adopted", len(d.Sample))
		return
	}
	waited := false // analyseOr returned before handing the scan over: it came later
	v.scans.AnalyseOr(func(a *Analysis) {
		c := v.c
		source := "memory"
		if waited {
			source = map[bool]string{true: "disk cache", false: "scan"}[a.Cached]
		}
		if v.seen != nil && v.seen.A == a && v.seen.DS == c.State().DS {
			then(v.seen)
			testhook.LogScanShown(asked, source, len(v.seen.Sample))
			return
		}
		d, err := newData(c.State().DS, a)
		if err != nil {
			v.scans.d.ShowError(err)
			return
		}
		v.Drop()
		v.seen = d
		then(d)
		testhook.LogScanShown(asked, source, len(d.Sample))
	}, func(stale bool) {
		if stale {
			v.Open(then)
		}
	})
	waited = true
}

// Follow keeps the adopted scan in step with one change of the dataset, then what Watch asked
// for (the controller calls it at every change).
func (v *Views) Follow(ch store.Change) {
	d := v.seen
	if d == nil || d.DS != v.c.State().DS {
		return
	}
	ds := d.DS
	switch ch.Kind {
	case store.Relabelled, store.DeletedChanged:
		for _, i := range ch.Indices {
			st, ok := ds.StateAt(i)
			if r, in := d.RowOf(i); in && ok {
				d.Matrix.Relabel(r, st.Label)
				d.Matrix.Exclude(r, st.Deleted)
			}
		}
		d.Edits++
		v.followed(d, ch)
	case store.Appended:
		for len(d.Row) < ds.Len() {
			d.Row = append(d.Row, -1)
		}
		v.followed(d, ch)
	case store.Truncated:
		n := ds.Len()
		for i := n; i < len(d.Row); i++ {
			if r := d.Row[i]; r >= 0 { // a scan saw the sample whose append was undone
				d.Matrix.Exclude(int(r), true)
				d.Sample[r] = -1
			}
		}
		d.Row = d.Row[:min(n, len(d.Row))]
		d.Edits++
		v.followed(d, ch)
	case store.Reset:
		if ch.Renumber == nil { // a replayed journal: anything may have changed
			v.Drop()
			return
		}
		d.renumber(ch.Renumber, ds.Len())
		d.Edits++
		v.followed(d, ch)
	}
}

// renumber follows a save that renumbered the samples (to maps each old number to the new one,
// -1 for a sample left out) into a dataset of n samples. O(N).
func (d *Data) renumber(to []int, n int) {
	d.Row = make([]int32, n)
	for i := range d.Row {
		d.Row[i] = -1
	}
	for r, i := range d.Sample {
		k := -1
		if i >= 0 && i < len(to) {
			k = to[i]
		}
		d.Sample[r] = k
		if k < 0 || k >= n {
			d.Sample[r] = -1
			d.Matrix.Exclude(r, true)
			continue
		}
		d.Row[k] = int32(r)
	}
}

// Drop forgets the adopted scan, and Watch's drops are called (the dataset was replaced, or its
// journal replayed).
func (v *Views) Drop() {
	for _, f := range v.drops {
		f()
	}
	v.seen = nil
}

// followed hands one change the matrix followed to what watches the scan.
func (v *Views) followed(d *Data, ch store.Change) {
	for _, f := range v.follows {
		f(d, ch)
	}
}

// Prediction says what the scan's model predicts out of fold for sample i labelled label, the
// classes named by n (the detail panel of the confusion matrix and the map).
func (d *Data) Prediction(n classes.Names, i, label int) string {
	pred, p, pl, ok := d.Predicted(i, label)
	switch {
	case !ok:
		return "The CNN scan did not see this sample (added or restored since)."
	case label == sample.NoLabel:
		return fmt.Sprintf("The model predicts %s (%.0f%%).", n.Long(pred), 100*p)
	case pred == label:
		return fmt.Sprintf("The model agrees out of fold: %s (%.0f%%).", n.Long(pred), 100*p)
	}
	return fmt.Sprintf("Out of fold the model predicts %s (%.0f%%); the label %s has %.0f%%.", n.Long(pred), 100*p, n.Long(label), 100*pl)
}
