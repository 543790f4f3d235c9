// Package suspects is the window's Suspects review (Tools → Find Suspects, Ctrl+K): likely label
// errors, most suspicious first, reviewed one by one (ui/review). A quick kNN pass makes the list
// (a progress dialog with Cancel, Escape too; a key typed meanwhile waits for its snapshot and
// is applied where it was typed, before the review shows), then the window's CNN scan
// (ui/scan: a cross-validated CNN, suspect.ScanCNN) refines its ranking in the background while
// the person already reviews the kNN's: about 9 s for 10,000 samples on 2 cores
// (bench/suspects/README.md). Decisions already made stay (they live in the store), and so does
// the cursor's sample: a key typed as the ranking arrives labels the sample the person sees.
package suspects

import (
	"context"
	"errors"
	"fmt"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/scan"
	"idxlabel/ui/testhook"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Finder finds the suspects its review (Mode) shows.
type Finder struct {
	c     mode.Controller
	jobs  *jobs.Jobs
	d     *dialogs.Dialogs
	win   fyne.Window
	scans *scan.Scanner
	// Mode is the Suspects review.
	Mode *review.Mode
	// onModel takes the CNN scan's model (nil: nothing), which suggests labels afterwards.
	onModel func(m *suspect.Model, labelled int)
}

// New makes the Suspects review of the window whose controller is c, its jobs j, its dialogs d
// on win, the CNN scan run by scans: why says why a sample has no suggestion, onModel takes the
// scan's model (nil: nothing).
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, scans *scan.Scanner, why func() string, onModel func(m *suspect.Model, labelled int)) *Finder {
	f := &Finder{c: c, jobs: j, d: d, win: win, scans: scans, onModel: onModel}
	f.Mode = &review.Mode{Kind: review.Suspects, Name: "Suspects", Begin: f.Find, Why: why}
	return f
}

// Find scans the dataset off the UI thread (all cores, progress, Cancel), then shows the
// suspects for review and starts the CNN scan.
func (f *Finder) Find() { f.find(true) }

// FindAgain is Tools → Scan Again in the Suspects review: the kNN pass, then the CNN scan made
// anew, without reading the scan cache.
func (f *Finder) FindAgain() { f.find(false) }

// find is Find; cached false makes the CNN scan anew, without reading the scan cache.
func (f *Finder) find(cached bool) {
	c, j := f.c, f.jobs
	if c.Held("find suspects") { // asked for while a save runs: it waits for it
		return
	}
	st := c.State()
	if !st.DS.HasLabels() {
		f.d.Inform("Suspects", "This dataset has no labels to check.")
		return
	}
	if why := scan.NothingToScan(st.DS.Counts(), st.Classes); why != "" {
		f.d.Inform("Suspects", why) // fewer than two classes: no label can disagree with another
		return
	}
	ds, resets := st.DS, c.Resets()
	snap := ds.Snapshot()
	job := j.Start(jobs.Scanning, "")
	stage := widget.NewLabel("Starting…")
	bar := widget.NewProgressBar()
	// Escape and the Cancel button cancel the pass; every other key goes on to the grid, where an
	// edit waits for the pass (its snapshot) and is then applied to the sample it was typed on.
	prog := f.d.ShowPassing("progress", fmt.Sprintf("Finding suspects among %d samples", snap.N), container.NewVBox(stage, bar), job.Cancel)
	start := time.Now()
	j.Run(func() {
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
				j.Schedule(func() { stage.SetText(text); bar.SetValue(f) })
			})
		testhook.WaitGate(job.Ctx, testhook.SuspectsGate) // a test's hook; nothing otherwise
		j.Schedule(func() { f.found(job, prog, ds, resets, snap, res, err, time.Since(start), cached) })
	})
}

// found ends the kNN pass job of ds (renumbered resets times when it began) on the UI thread:
// its progress prog is hidden and the job finished first, so the keys typed during the pass are
// applied where they were typed (browsing); then, as an input after them, the review of its
// result res (err: none) on snap, which took took, is shown and the CNN scan started (refine,
// cached as find's). A pass cancelled, even once done (its Cancel wins), shows nothing and says
// so; one whose dataset was replaced or renumbered (a save typed during it) meanwhile shows nothing.
func (f *Finder) found(job *jobs.Job, prog dialog.Dialog, ds *store.Dataset, resets int, snap sample.Set, res *suspect.Result, err error, took time.Duration, cached bool) {
	c := f.c
	if err == nil && job.Ctx.Err() != nil {
		err = job.Ctx.Err()
	}
	prog.Hide() // its job.Cancel does nothing now: err is read
	f.jobs.Finish(job)
	switch {
	case errors.Is(err, context.Canceled):
		c.Say("Find Suspects cancelled: no suspects listed")
		return
	case err != nil:
		f.d.ShowError(err)
		return
	}
	c.Input(func() {
		if ds != c.State().DS { // another dataset opened meanwhile
			return
		}
		if resets != c.Resets() { // a save typed during the pass left samples out: its numbers are gone
			c.Say("Find Suspects: a save renumbered the samples meanwhile; find them again (Ctrl+K)")
			return
		}
		f.Mode.List = newSuspects(res.Suspects, res, snap, took)
		f.Mode.List.Method = "kNN"
		c.Enter(f.Mode)
		f.refine(ds, snap, res, cached)
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
// cache, and, when it is done, makes its ranking the review's (Rank). The review keeps the kNN's
// ranking if the dataset is renumbered (saved) or the review closed meanwhile; the scan's model
// then still suggests labels (onModel; a scan read from the cache has none: the draw window
// trains one when it opens).
func (f *Finder) refine(ds *store.Dataset, snap sample.Set, knn *suspect.Result, cached bool) {
	labelled := 0
	for _, l := range snap.Labels {
		if l != sample.NoLabel {
			labelled++
		}
	}
	f.scans.Run(ds, snap, cached, func(a *scan.Analysis) {
		if a.Res.Model != nil && f.onModel != nil { // none when read from the scan cache: the draw window trains its own when it opens
			f.onModel(a.Res.Model, labelled) // the cross-validated model suggests labels from now on
			f.c.Render()                     // what depends on it shows at once, ranked or not
		}
		f.Rank(a, knn, snap)
	})
}

// Rank makes the CNN scan a's ranking the review's (knn: the kNN pass of snap, whose neighbours
// the detail panel shows), unless the dataset was renumbered (saved) or the review closed
// meanwhile. The decisions made on the kNN's list are kept, and so is the cursor's sample
// (review.Mode.Refresh: the rule of every review's new list): a digit the person types as the
// ranking arrives, having looked at the sample under the cursor, labels that sample, never one
// the new order put there. When the new list leaves the sample out, the cursor goes to the
// nearest one after it in the kNN's list that the new list has (else before it, else the top).
// The status bar says where the cursor is, and that Home goes to the top of the new list (its
// most suspicious).
func (f *Finder) Rank(a *scan.Analysis, knn *suspect.Result, snap sample.Set) {
	c, m := f.c, f.Mode
	if !a.Current(c) || m.List == nil {
		return
	}
	was := c.State().View.Current()
	r := newSuspects(a.Res.Suspects, knn, snap, a.Took)
	r.Method = fmt.Sprintf("CNN, out-of-fold error %.2f%%", 100*a.Res.Error)
	if a.Cached {
		r.Method = fmt.Sprintf("CNN, kept from a scan of these pixels, out-of-fold error %.2f%%", 100*a.Res.Error)
	}
	r.Few = review.FewLabels(a.Res.Model)
	if a.Res.Model == nil { // read from the scan cache: its labelled samples, as Model.Labelled counts them
		r.Few = len(a.Res.Suspects) < suspect.FewLabels
	}
	where := placed(m.Refresh(c, r, false), was, c.State().View)
	c.Say(fmt.Sprintf("The CNN's ranking replaced the kNN's: %s to review (%s)%s", numfmt.Plural(len(r.Order), "suspect"), r.Method, where))
}

// placed says where the new ranking left the cursor, which was on sample was (-1: none), the
// view v showing the new list: "" when the review is not shown or shows nothing.
func placed(p review.Placement, was int, v mode.View) string {
	now := v.Current()
	if p == review.NotShown || now < 0 {
		return ""
	}
	at := numfmt.Sprintf("sample %d, now %d of %d; Home goes to its most suspicious", now, v.Pos(now)+1, v.Len())
	switch p {
	case review.Kept:
		return "; the cursor stays on " + at
	case review.After, review.Before, review.Top:
		return numfmt.Sprintf("; sample %d is not in it: the cursor is on ", was) + at
	}
	return "; the cursor is on " + at // it was on no sample of the kNN's list
}
