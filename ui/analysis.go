package ui

import (
	"context"
	"fmt"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/scancache"
	"idxlabel/ui/classes"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
)

// analysis is the last CNN scan of the dataset and what it scanned: one scan serves the Suspects
// review, the health check, the confusion matrix and the map (its out-of-fold probabilities and
// its features). Its rows are snapshot positions: snap.Index[k] is the sample of row k. It
// describes the samples as they were when scanned; edits since then change labels (the views
// read those from the store), a save renumbers the samples and makes it stale (current), and
// labelled samples doubled or halved since have a new scan made when one is asked for
// (learntAlike).
type analysis struct {
	ds     *store.Dataset
	resets int // controller.resets when the scan began
	snap   sample.Set
	res    *suspect.CNNResult
	took   time.Duration
	// cached: res was read from the scan cache (scancache.Scanner) and scored against snap's
	// labels: it has no Model (no networks to predict samples it did not see).
	cached bool
	rows   map[int]int // sample index → row; O(N) memory, made once per scan
	// learnt is how many of the scanned samples were labelled: the scan serves while the
	// labelled samples stay in the same power of two (scancache.LearntAlike).
	learnt int
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

// learntAlike reports whether the dataset's labelled samples (deleted ones left out) are still
// as many as the scan learnt from, within a power of two (scancache.LearntAlike): labelling from
// scratch makes the scan again as the labels double. O(classes).
func (a *analysis) learntAlike(c *controller) bool {
	now := 0
	for _, cc := range c.ds.Counts() {
		if cc.Class != sample.NoLabel {
			now += cc.Count
		}
	}
	return scancache.LearntAlike(a.learnt, now)
}

// current reports whether a still describes c's dataset: the same dataset, not renumbered since.
func (a *analysis) current(c *controller) bool {
	return a != nil && a.ds == c.ds && a.resets == c.resets
}

// row returns the scan's row of sample i, or false when the scan did not see it (deleted then,
// or added since).
func (a *analysis) row(i int) (int, bool) {
	k, ok := a.rows[i]
	return k, ok
}

// analyse calls then on the UI thread with a current analysis of the dataset: at once when the
// last scan is still current and learnt from about as many labels as there are now
// (learntAlike), otherwise when the CNN scan that it starts (or that is running)
// is done, its progress on the status bar (Tools → Stop Training the CNN cancels it, and then is
// not called). Views that show what the scan found call it.
func (s *scanner) analyse(then func(*analysis)) { s.analyseOr(then, nil) }

// analyseOr is analyse for views that must learn when no analysis will come: dropped (may be
// nil) is called on the UI thread instead of then when the scan is cancelled or fails, the
// dataset is replaced or has too few labelled samples to scan (nothingToScan: said in a
// prompt), or (stale true) the samples were renumbered (saved) while it ran, so that its result
// describes them no longer: ask again for a scan of the samples as they are now.
func (s *scanner) analyseOr(then func(*analysis), dropped func(stale bool)) {
	if s.last.current(s.c) && s.last.learntAlike(s.c) {
		then(s.last)
		return
	}
	s.waiting = append(s.waiting, waiter{then, dropped})
	if s.cnn != nil {
		return // the scan running hands its result to the waiting views too
	}
	c := s.c
	if why := nothingToScan(c.ds.Counts(), c.classes); why != "" {
		s.drop(false)
		s.d.Inform("Scan", why)
		return
	}
	s.runCNN(c.ds, c.ds.Snapshot(), true, nil)
}

// scanAgain is Tools → Scan Again: the CNN scan made anew of the samples as they are now, its
// progress on the status bar (Tools → Stop Training the CNN cancels it), without reading the
// scan kept beside the image file (a scan that ran replaces it there): in the Suspects review,
// the kNN pass first as Find Suspects makes it; elsewhere the scan alone, after which the
// view of the scan shown (the confusion matrix, the map: a mode that is no longer ready once a
// newer scan exists) is made again from it (a view opened later takes it).
func (s *scanner) scanAgain() {
	c := s.c
	if c.mode == mode.Mode(s.review) {
		s.findSuspectsAs(false)
		return
	}
	if why := nothingToScan(c.ds.Counts(), c.classes); why != "" {
		s.d.Inform("Scan", why)
		return
	}
	s.waiting = append(s.waiting, waiter{then: func(*analysis) {
		if !mode.Ready(c.mode) {
			c.choose(c.mode, store.Live)
		}
	}})
	s.runCNN(c.ds, c.ds.Snapshot(), false, nil)
}

// nothingToScan says why the CNN scan cannot run on samples of these class counts (deleted ones
// left out, store.Dataset.Counts), or returns "" when it can: the out-of-fold classifier needs
// labelled samples of two classes or more (suspect.ScanCNN's rule). O(classes).
func nothingToScan(counts []store.ClassCount, n classes.Names) string {
	var classes []int
	labelled := 0
	for _, cc := range counts {
		if cc.Class != sample.NoLabel && cc.Count > 0 {
			classes = append(classes, cc.Class)
			labelled += cc.Count
		}
	}
	switch len(classes) {
	case 0:
		return "The CNN learns from labelled samples: this dataset has none yet."
	case 1:
		return fmt.Sprintf("The CNN learns to tell classes apart: every labelled sample (%s) is of class %s. Label samples of another class first.",
			numfmt.Plural(labelled, "sample"), n.Long(classes[0]))
	}
	return ""
}

// waiter is a view waiting for a scan (analyseOr).
type waiter struct {
	then    func(*analysis)
	dropped func(stale bool) // nil: nothing to tell
}

// drop lets the waiting views go, telling those that asked (analyseOr) whether the scan went
// stale.
func (s *scanner) drop(stale bool) {
	waiting := s.waiting
	s.waiting = nil
	for _, w := range waiting {
		if w.dropped != nil {
			w.dropped(stale)
		}
	}
}

// runCNN trains the cross-validated CNN scan on snap in the background (a jobs.Training job with
// its progress on the status bar, an estimate of its time first: estimate), or, when cached is
// true, reads it from the scan cache beside the image file when that holds a scan of these
// pixels with these settings (scanCache: scored against snap's labels, without a model), and,
// when it is done and
// the dataset is still ds, not renumbered, makes its result the current analysis, hands it to
// done (may be nil) and to the views waiting (analyse). A scan that ran is stored in the cache
// (a failure to store it is said on the status bar). A failure is shown; a cancel drops the
// waiting views.
func (s *scanner) runCNN(ds *store.Dataset, snap sample.Set, cached bool, done func(*analysis)) {
	waiting := s.waiting
	s.waiting = nil
	s.stop() // a newer scan replaces it; the views waiting for it wait for this one
	s.waiting = waiting
	c := s.c
	job := c.jobs.Start(jobs.Training, "CNN scan starting")
	s.cnn = job
	resets := c.resets
	start := time.Now()
	data, opts := snap, s.models.opts
	cache := scanCache(ds)
	cache.Read = cached
	c.jobs.Run(func() {
		tell := func(note string, done float64) {
			c.jobs.Schedule(func() {
				if s.cnn == job {
					c.jobs.SetNote(job, note)
					for _, f := range s.watch {
						f(note, done)
					}
					c.showProgress()
				}
			})
		}
		var est string // the estimate made before the scan, said until its first 5% are done
		cache.Starting = func(ctx context.Context, d sample.Set, opts suspect.CNNOptions) {
			if est = estimate(ctx, d, opts); est != "" {
				tell(fmt.Sprintf("CNN scan of %s: %s", numfmt.Plural(d.N, "sample"), est), 0)
			}
		}
		cache.Note = func(text string) { c.jobs.Schedule(func() { c.say(text) }) }
		var last time.Time
		res, out, err := cache.Scan(job.Ctx, data, opts, func(p suspect.Progress) {
			if time.Since(last) < time.Second {
				return
			}
			last = time.Now()
			left := fmt.Sprintf("about %s left", p.Left.Round(time.Second))
			if p.Done < 0.05 && est != "" { // too little done yet to time the rest by
				left = est
			}
			tell(fmt.Sprintf("CNN scan: model %d/%d, epoch %d/%d, %s", p.Fold, p.Folds, p.Epoch, p.Epochs, left), p.Done)
		})
		waitGate(job.Ctx, testRankGateEnv) // a test's hook; nothing otherwise
		c.jobs.Schedule(func() {
			if s.cnn != job {
				return // stopped, or replaced by a newer scan
			}
			s.cnn = nil
			c.jobs.Finish(job)
			switch {
			case err == context.Canceled:
				s.drop(false)
				c.renderCursor()
				return
			case err != nil:
				s.drop(false)
				s.d.ShowError(fmt.Errorf("the CNN scan failed: %w", err))
				c.renderCursor()
				return
			case ds != c.ds:
				s.drop(false)
				return
			}
			a := &analysis{ds: ds, resets: resets, snap: snap, res: res, took: time.Since(start), cached: out.Cached, rows: make(map[int]int, snap.N)}
			for k, i := range snap.Index {
				a.rows[i] = k
			}
			a.learnt = labelledIn(snap)
			if out.Cached {
				c.say(fmt.Sprintf("CNN scan of %s read from the disk cache in %s (the pixels have not changed since it ran)",
					numfmt.Plural(snap.N, "sample"), a.took.Round(10*time.Millisecond)))
			}
			if done != nil {
				done(a)
			}
			if !a.current(c) {
				s.drop(true)
				c.renderCursor()
				return // renumbered meanwhile (a save): its rows no longer name the samples
			}
			s.last = a
			waiting := s.waiting
			s.waiting = nil
			for _, w := range waiting {
				w.then(a)
			}
			c.renderCursor()
		})
	})
}
