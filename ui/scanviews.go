package ui

import (
	"image"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/store"
	"idxlabel/suspect/confusion"
	"idxlabel/ui/widgets"
)

// scanViews keeps what the confusion matrix and the map show of one CNN scan (an analysis) in
// step with the dataset. Views that show the scan's findings read the store's labels as they are
// now, so every edit, undo and redo moves a sample between the matrix's cells at once (follow,
// through the store's notifications on the UI thread); a save renumbers the samples and the
// scan's rows follow them, so the views outlive a save (the analysis itself goes stale then,
// and a view opened anew asks for a new scan). The map's layout is made once per scan, in the
// background (mapper, maplayout.go).
//
// Cost: adopting a scan is O(N·C) for N samples of C classes (the matrix); an edit of k
// samples is O(k); a save or an undone append O(N) (the rows are renumbered).
type scanViews struct {
	c     *controller
	scans *scanner
	seen  *scanData // nil: no scan adopted (or it no longer applies)
	maps  *mapper   // lays out the map and places samples on it
	// The modes that show it.
	confusion *confusionMode
	mapm      *mapMode
}

// scanData is one scan as the views use it: its rows (the samples it scanned, in its order)
// mapped to the samples they are now, and the confusion matrix of the labels now.
type scanData struct {
	a      *analysis
	ds     *store.Dataset
	sample []int   // scan row → the sample it is now; -1 when a save left it out
	row    []int32 // sample → its scan row; -1 when the scan did not see it (added since, or deleted then)
	matrix *confusion.Matrix
	// edits counts the changes the matrix followed: a chart drawn at an older count redraws.
	edits int
	lay   *mapLayout // the map, nil until laid out
}

// rowOf returns sample i's scan row, or false when the scan did not see it.
func (d *scanData) rowOf(i int) (int, bool) {
	if i < 0 || i >= len(d.row) || d.row[i] < 0 {
		return 0, false
	}
	return int(d.row[i]), true
}

// predicted returns the class the scan's model predicts out of fold for sample i, with its
// probability and that of label (0 when the model has no such class); false when the scan did
// not see the sample.
func (d *scanData) predicted(i, label int) (class int, p, pLabel float64, ok bool) {
	r, ok := d.rowOf(i)
	if !ok {
		return 0, 0, 0, false
	}
	classes := d.a.res.Classes
	probs := d.a.res.Probs[r*len(classes) : (r+1)*len(classes)]
	class, _ = d.matrix.Predicted(r)
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
func newScanData(ds *store.Dataset, a *analysis) (*scanData, error) {
	n := a.snap.N
	d := &scanData{a: a, ds: ds, sample: slices.Clone(a.snap.Index), row: make([]int32, ds.Len())}
	for i := range d.row {
		d.row[i] = -1
	}
	labels := make([]int, n)
	deleted := make([]bool, n)
	for r, i := range d.sample {
		st, ok := ds.StateAt(i)
		labels[r], deleted[r] = st.Label, st.Deleted
		if ok && i < len(d.row) {
			d.row[i] = int32(r)
		}
	}
	m, err := confusion.New(labels, a.res.Probs, a.res.Classes)
	if err != nil {
		return nil, err
	}
	for r, del := range deleted {
		if del {
			m.Exclude(r, true)
		}
	}
	d.matrix = m
	return d, nil
}

// current returns the adopted scan, or nil when there is none or a newer current scan exists
// (the views adopt it when next opened).
func (v *scanViews) current() *scanData {
	if v.seen == nil || v.seen.ds != v.c.ds {
		return nil
	}
	if last := v.scans.last; last != nil && last != v.seen.a && last.current(v.c) {
		return nil
	}
	return v.seen
}

// open calls then on the UI thread with the scan the views show: the adopted one, or the
// current analysis (scanner.analyseOr runs the scan if needed, its progress on the status bar;
// a scan that a save made stale while it ran is asked for again).
func (v *scanViews) open(then func(*scanData)) {
	asked := time.Now()
	if d := v.current(); d != nil {
		then(d)
		logScanShown(asked, "adopted", len(d.sample))
		return
	}
	waited := false // analyseOr returned before handing the scan over: it came later
	v.scans.analyseOr(func(a *analysis) {
		c := v.c
		source := "memory"
		if waited {
			source = map[bool]string{true: "disk cache", false: "scan"}[a.cached]
		}
		if v.seen != nil && v.seen.a == a && v.seen.ds == c.ds {
			then(v.seen)
			logScanShown(asked, source, len(v.seen.sample))
			return
		}
		d, err := newScanData(c.ds, a)
		if err != nil {
			c.d.ShowError(err)
			return
		}
		v.drop()
		v.seen = d
		then(d)
		logScanShown(asked, source, len(d.sample))
	}, func(stale bool) {
		if stale {
			v.open(then)
		}
	})
	waited = true
}

// follow keeps the adopted scan in step with one change of the dataset (controller.follows).
func (v *scanViews) follow(ch store.Change) {
	d := v.seen
	if d == nil || d.ds != v.c.ds {
		return
	}
	ds := d.ds
	switch ch.Kind {
	case store.Relabelled, store.DeletedChanged:
		for _, i := range ch.Indices {
			st, ok := ds.StateAt(i)
			if r, in := d.rowOf(i); in && ok {
				d.matrix.Relabel(r, st.Label)
				d.matrix.Exclude(r, st.Deleted)
			}
		}
		d.edits++
		v.maps.follow(d, ch)
	case store.Appended:
		for len(d.row) < ds.Len() {
			d.row = append(d.row, -1)
		}
		v.maps.follow(d, ch)
	case store.Truncated:
		n := ds.Len()
		for i := n; i < len(d.row); i++ {
			if r := d.row[i]; r >= 0 { // a scan saw the sample whose append was undone
				d.matrix.Exclude(int(r), true)
				d.sample[r] = -1
			}
		}
		d.row = d.row[:min(n, len(d.row))]
		d.edits++
		v.maps.follow(d, ch)
	case store.Reset:
		if ch.Renumber == nil { // a replayed journal: anything may have changed
			v.drop()
			return
		}
		d.renumber(ch.Renumber, ds.Len())
		d.edits++
		v.maps.follow(d, ch)
	}
}

// renumber follows a save that renumbered the samples (to maps each old number to the new one,
// -1 for a sample left out) into a dataset of n samples. O(N).
func (d *scanData) renumber(to []int, n int) {
	d.row = make([]int32, n)
	for i := range d.row {
		d.row[i] = -1
	}
	for r, i := range d.sample {
		k := -1
		if i >= 0 && i < len(to) {
			k = to[i]
		}
		d.sample[r] = k
		if k < 0 || k >= n {
			d.sample[r] = -1
			d.matrix.Exclude(r, true)
			continue
		}
		d.row[k] = int32(r)
	}
}

// drop forgets the adopted scan and stops the work on its map (the dataset was replaced, or its
// journal replayed).
func (v *scanViews) drop() {
	v.maps.stop()
	v.seen = nil
}

// newScanViews builds the confusion matrix and map modes, each beside grid, their views
// reporting to c; scans runs the scan they show, and outliers returns the samples a health check
// flagged (the map marks them). The controller is to call follow at every change of the dataset
// and drop when it is replaced.
func newScanViews(c *controller, scans *scanner, grid fyne.CanvasObject, outliers func() []int) *scanViews {
	v := &scanViews{c: c, scans: scans}
	v.maps = &mapper{c: c, views: v}
	focus := func() { c.out.focus() }
	h := modeHost{c}

	var conf *confusionMode // the view reports to the mode built around it
	conf = newConfusionMode(v, newConfusionView(grid, confusionInput{
		onCell: func(label, class int) { c.input(func() { conf.choose(h, false, label, class) }) },
		onAll:  func() { conf.choose(h, true, 0, 0) },
		onHide: func(on bool) { conf.setHide(h, on) },
	}))

	var mm *mapMode
	mm = newMapMode(v, outliers, newMapPanel(grid, mapPanelInput{
		onColour: func(byModel bool) { mm.setColour(h, byModel) },
		onCancel: v.maps.cancelLayout,
		onRetry: func() {
			if mm.d != nil {
				v.maps.layOut(mm.d)
				c.renderCursor()
			}
		},
		onDone: focus,
	}, widgets.MapInput{
		OnPick:  func(pt int) { c.input(func() { mm.pick(h, pt) }) },
		OnLasso: func(points []int, add bool) { c.input(func() { mm.lasso(h, points, add) }) },
		OnDone:  focus,
		Tile:    func(pt int) (image.Image, string, bool) { return mm.tile(pt) },
	}))
	v.confusion, v.mapm = conf, mm
	return v
}
