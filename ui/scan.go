package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
)

// scanner finds the suspects the Suspects mode reviews: a quick kNN pass (a progress dialog with
// Cancel; edits wait for its snapshot), then the confident-learning scan (suspect.ScanCNN, a
// cross-validated CNN) that refines its ranking in the background, while the person already
// reviews the kNN's list: about 9 s for 10,000 samples on 2 cores (bench/suspects/README.md).
// Decisions already made stay (they live in the store).
type scanner struct {
	c      *controller
	d      *dialogs.Dialogs
	win    fyne.Window
	review *review.Mode // the Suspects mode, whose list the scans make
	models *suggester   // takes the CNN scan's model, which suggests labels afterwards
	cnn    *jobs.Job    // the CNN scan running, nil when none
	// last is the last CNN scan (see analysis); waiting are the views that asked for it while
	// it ran (analyse).
	last    *analysis
	waiting []waiter
	// watch are the views that show the CNN scan's progress beside the status bar (its note
	// and the share done), called on the UI thread about once a second.
	watch []func(note string, done float64)
}

// findSuspects scans the dataset off the UI thread (all cores, progress, Cancel), then shows the
// suspects for review and starts the CNN scan.
func (s *scanner) findSuspects() { s.findSuspectsAs(true) }

// findSuspectsAs is findSuspects; cached false makes the CNN scan anew, without reading the scan
// cache (scanAgain).
func (s *scanner) findSuspectsAs(cached bool) {
	c := s.c
	if c.jobs.EditsHeld() {
		if !c.holdAsked() { // asked for while a save runs: it waits for it (held.go)
			c.say("Busy (saving, opening or importing): find suspects when it is done")
		}
		return
	}
	if !c.ds.HasLabels() {
		s.d.Inform("Suspects", "This dataset has no labels to check.")
		return
	}
	if why := nothingToScan(c.ds.Counts(), c.classes); why != "" {
		s.d.Inform("Suspects", why) // fewer than two classes: no label can disagree with another
		return
	}
	ds := c.ds
	snap := ds.Snapshot()
	job := c.jobs.Start(jobs.Scanning, "")
	stage := widget.NewLabel("Starting…")
	bar := widget.NewProgressBar()
	prog := dialog.NewCustom(fmt.Sprintf("Finding suspects among %d samples", snap.N), "Cancel", container.NewVBox(stage, bar), s.win)
	prog.SetOnClosed(job.Cancel)
	prog.Show()
	start := time.Now()
	c.jobs.Run(func() {
		var last time.Time
		res, err := suspect.Scan(job.Ctx, snap, suspect.Options{},
			func(st string, f float64) {
				if time.Since(last) < 50*time.Millisecond && f < 1 {
					return
				}
				last = time.Now()
				text := st
				if st == "neighbours" && f > 0.02 {
					left := time.Duration(float64(time.Since(start)) * (1 - f) / f)
					text = fmt.Sprintf("neighbours — about %s left", left.Round(time.Second))
				}
				c.jobs.Schedule(func() { stage.SetText(text); bar.SetValue(f) })
			})
		c.jobs.Schedule(func() {
			defer c.jobs.Finish(job) // last: tests wait on it
			prog.SetOnClosed(func() {})
			prog.Hide()
			switch {
			case err == context.Canceled:
			case err != nil:
				s.d.ShowError(err)
			case ds != c.ds: // another dataset was opened meanwhile
			default:
				s.review.List = newSuspects(res.Suspects, res, snap, time.Since(start))
				s.review.List.Method = "kNN"
				c.enter(s.review)
				s.refine(ds, snap, res, cached)
			}
		})
	})
}

// newSuspects makes the review of a scan's ranked suspects (snapshot positions), in sample
// indices, with the neighbours of the kNN pass knn.
func newSuspects(list []suspect.Suspect, knn *suspect.Result, snap sample.Set, took time.Duration) *review.List {
	r := &review.List{Kind: review.Suspects, Of: map[int]suspect.Suspect{}, Neighbours: map[int][]int{}, Took: took}
	for _, x := range list {
		k := x.Index
		x.Index = snap.Index[k]
		r.Of[x.Index] = x
		if x.Doubted() {
			r.Order = append(r.Order, x.Index)
			var nb []int
			for _, j := range knn.Neighbours(k) {
				nb = append(nb, snap.Index[j])
			}
			r.Neighbours[x.Index] = nb
		}
	}
	return r
}

// refine trains the CNN scan on snap (the snapshot the kNN pass scanned, whose result knn gives
// the neighbours shown in the detail panel), or, when cached is true, reads it from the scan
// cache, and, when it is done, makes its ranking the review's (ranked). The review keeps the
// kNN's ranking if the dataset is renumbered (saved) or the review closed meanwhile; the scan's
// model then still suggests labels (a scan read from the cache has none: the draw window trains
// one when it opens, suggester.learn).
func (s *scanner) refine(ds *store.Dataset, snap sample.Set, knn *suspect.Result, cached bool) {
	labelled := 0
	for _, l := range snap.Labels {
		if l != sample.NoLabel {
			labelled++
		}
	}
	s.runCNN(ds, snap, cached, func(a *analysis) {
		if a.res.Model != nil { // none when read from the scan cache: the draw window trains its own when it opens
			s.models.setModel(a.res.Model, labelled) // the cross-validated model suggests labels from now on
		}
		s.ranked(a, knn, snap)
	})
}

// ranked makes the CNN scan a's ranking the review's, unless the dataset was renumbered (saved)
// or the review closed meanwhile. The new list is a new order: the cursor goes to its first
// sample not decided yet (the most suspicious left to review), shown, and the status bar says
// so; the decisions made on the kNN's list are kept. (Kept on its sample, the cursor sat in the
// middle of a list the person had not seen yet.) When every sample is decided it stays on its
// sample if listed.
func (s *scanner) ranked(a *analysis, knn *suspect.Result, snap sample.Set) {
	c := s.c
	if !a.current(c) || s.review.List == nil {
		return
	}
	s.review.List = newSuspects(a.res.Suspects, knn, snap, a.took)
	s.review.List.Method = fmt.Sprintf("CNN, out-of-fold error %.2f%%", 100*a.res.Error)
	if a.cached {
		s.review.List.Method = fmt.Sprintf("CNN, kept from a scan of these pixels, out-of-fold error %.2f%%", 100*a.res.Error)
	}
	s.review.List.Few = review.FewLabels(a.res.Model)
	if a.res.Model == nil { // read from the scan cache: its labelled samples, as Model.Labelled counts them
		s.review.List.Few = len(a.res.Suspects) < suspect.FewLabels
	}
	c.modeChanged(s.review)
	where := ""
	if c.mode == mode.Mode(s.review) {
		s.review.ToFirstUndecided(modeHost{c})
		where = "; the cursor is on the first not reviewed yet"
	}
	c.say(fmt.Sprintf("The CNN's ranking replaced the kNN's: %s to review (%s)%s", numfmt.Plural(len(s.review.List.Order), "suspect"), s.review.List.Method, where))
}

// stop cancels a CNN scan that is running (the views waiting for it are dropped, and told so:
// analyseOr); the kNN ranking stays. The caller shows the state.
func (s *scanner) stop() {
	if s.cnn != nil {
		s.c.jobs.Finish(s.cnn)
		s.cnn = nil
		s.drop(false)
	}
}
