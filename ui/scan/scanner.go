package scan

import (
	"context"
	"fmt"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/testhook"
)

// Scanner runs the window's CNN scan (a cross-validated CNN, suspect.ScanCNN: out-of-fold
// probabilities and features of every labelled sample), one at a time, and keeps the last one
// (Last). The views that show what the scan found ask for it (Analyse, AnalyseOr); it runs only
// when the last one no longer describes the samples. Its progress is on the status bar (a
// jobs.Training job: editing goes on meanwhile) and Stop cancels it. Everything runs on the UI
// thread but the scan itself.
type Scanner struct {
	c    mode.Controller
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	// Opts is how the CNNs train (zero: the recipe's defaults; OptionsFromEnv shortens it for
	// the real-window tests); the model that suggests labels trains with them too.
	Opts suspect.CNNOptions
	cnn  *jobs.Job // the CNN scan running, nil when none
	// last is the last CNN scan; waiting are the views that asked for it while it ran.
	last    *Analysis
	waiting []waiter
	// watch are the views that show the CNN scan's progress (its note and the share done),
	// called on the UI thread about once a second.
	watch []func(note string, done float64)
}

// New makes the scanner of the window whose controller is c, its jobs j, its errors and
// messages shown by d, the CNNs trained with opts.
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, opts suspect.CNNOptions) *Scanner {
	return &Scanner{c: c, jobs: j, d: d, Opts: opts}
}

// waiter is a view waiting for a scan (AnalyseOr).
type waiter struct {
	then    func(*Analysis)
	dropped func(stale bool) // nil: nothing to tell
}

// Watch has f shown each progress of a CNN scan (its note and the share done, 0–1), on the UI
// thread (the health check's view shows it while it waits).
func (s *Scanner) Watch(f func(note string, done float64)) { s.watch = append(s.watch, f) }

// Running reports whether a CNN scan runs.
func (s *Scanner) Running() bool { return s.cnn != nil }

// Waiting counts the views waiting for the scan running.
func (s *Scanner) Waiting() int { return len(s.waiting) }

// Last is the last scan (nil: none, or the dataset was replaced since); it may no longer be
// current (Analysis.Current).
func (s *Scanner) Last() *Analysis { return s.last }

// Adopt makes a the last scan, as a scan that ends makes its own (a scan made elsewhere: the
// tests' scans of planted cases).
func (s *Scanner) Adopt(a *Analysis) { s.last = a }

// Ready reports whether the last scan is current and learnt from about as many labels as there
// are now: Analyse then hands it over at once.
func (s *Scanner) Ready() bool {
	return s.last.Current(s.c) && s.last.LearntAlike(s.c.State().DS)
}

// Analyse calls then on the UI thread with a current analysis of the dataset: at once when the
// last scan is Ready, otherwise when the CNN scan that it starts (or that is running) is done,
// its progress on the status bar (Stop cancels it, and then is not called). Views that show what
// the scan found call it.
func (s *Scanner) Analyse(then func(*Analysis)) { s.AnalyseOr(then, nil) }

// AnalyseOr is Analyse for views that must learn when no analysis will come: dropped (may be
// nil) is called on the UI thread instead of then when the scan is cancelled or fails, the
// dataset is replaced or has too few labelled samples to scan (NothingToScan: said in a prompt),
// or (stale true) the samples were renumbered (saved) while it ran, so that its result describes
// them no longer: ask again for a scan of the samples as they are now.
func (s *Scanner) AnalyseOr(then func(*Analysis), dropped func(stale bool)) {
	if s.Ready() {
		then(s.last)
		return
	}
	s.waiting = append(s.waiting, waiter{then, dropped})
	if s.cnn != nil {
		return // the scan running hands its result to the waiting views too
	}
	st := s.c.State()
	if why := NothingToScan(st.DS.Counts(), st.Classes); why != "" {
		s.drop(false)
		s.d.Inform("Scan", why)
		return
	}
	s.Run(st.DS, st.DS.Snapshot(), true, nil)
}

// Again is Tools → Scan Again: the CNN scan made anew of the samples as they are now, its
// progress on the status bar (Stop cancels it), without reading the scan kept beside the image
// file (a scan that ran replaces it there); then (nil: nothing) gets it when it is done.
func (s *Scanner) Again(then func(*Analysis)) {
	st := s.c.State()
	if why := NothingToScan(st.DS.Counts(), st.Classes); why != "" {
		s.d.Inform("Scan", why)
		return
	}
	if then != nil {
		s.waiting = append(s.waiting, waiter{then: then})
	}
	s.Run(st.DS, st.DS.Snapshot(), false, nil)
}

// drop lets the waiting views go, telling those that asked (AnalyseOr) whether the scan went
// stale.
func (s *Scanner) drop(stale bool) {
	waiting := s.waiting
	s.waiting = nil
	for _, w := range waiting {
		if w.dropped != nil {
			w.dropped(stale)
		}
	}
}

// Stop cancels a CNN scan that is running (the views waiting for it are dropped, and told so:
// AnalyseOr). The caller shows the state.
func (s *Scanner) Stop() {
	if s.cnn != nil {
		s.jobs.Finish(s.cnn)
		s.cnn = nil
		s.drop(false)
	}
}

// Forget stops the scan running and forgets the last one (the dataset is replaced).
func (s *Scanner) Forget() {
	s.Stop()
	s.last = nil
}

// Run trains the cross-validated CNN scan on snap in the background (a jobs.Training job with
// its progress on the status bar, an estimate of its time first: estimate), or, when cached is
// true, reads it from the scan cache beside the image file when that holds a scan of these
// pixels with these settings (cacheFor: scored against snap's labels, without a model), and,
// when it is done and the dataset is still ds, not renumbered, makes its result the last
// analysis and hands it to the views waiting (AnalyseOr). When the dataset is still ds, done (may
// be nil) gets it last, renumbered or not (Analysis.Current tells), once what depends on the
// cursor is shown again: a message it says stays on the status bar. A scan that ran is stored
// in the cache (a failure to store it is said on the status bar). A failure is shown; a cancel
// drops the waiting views.
func (s *Scanner) Run(ds *store.Dataset, snap sample.Set, cached bool, done func(*Analysis)) {
	waiting := s.waiting
	s.waiting = nil
	s.Stop() // a newer scan replaces it; the views waiting for it wait for this one
	s.waiting = waiting
	c, j := s.c, s.jobs
	job := j.Start(jobs.Training, "CNN scan starting")
	s.cnn = job
	resets := c.Resets()
	start := time.Now()
	data, opts := snap, s.Opts
	cache := cacheFor(ds)
	cache.Read = cached
	j.Run(func() {
		tell := func(note string, done float64) {
			j.Schedule(func() {
				if s.cnn == job {
					j.SetNote(job, note)
					for _, f := range s.watch {
						f(note, done)
					}
					c.Progress()
				}
			})
		}
		var est string // the estimate made before the scan, said until its first 5% are done
		cache.Starting = func(ctx context.Context, d sample.Set, opts suspect.CNNOptions) {
			if est = estimate(ctx, d, opts); est != "" {
				tell(fmt.Sprintf("CNN scan of %s: %s", numfmt.Plural(d.N, "sample"), est), 0)
			}
		}
		cache.Note = func(text string) { j.Schedule(func() { c.Note(text) }) }
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
		testhook.WaitGate(job.Ctx, testhook.RankGate) // a test's hook; nothing otherwise
		j.Schedule(func() {
			if s.cnn != job {
				return // stopped, or replaced by a newer scan
			}
			s.cnn = nil
			j.Finish(job)
			switch {
			case err == context.Canceled:
				s.drop(false)
				c.Render()
				return
			case err != nil:
				s.drop(false)
				s.d.ShowError(fmt.Errorf("the CNN scan failed: %w", err))
				c.Render()
				return
			case ds != c.State().DS:
				s.drop(false)
				return
			}
			a := NewAnalysis(ds, resets, snap, res, time.Since(start), out.Cached)
			if out.Cached {
				c.Note(fmt.Sprintf("CNN scan of %s read from the disk cache in %s (the pixels have not changed since it ran)",
					numfmt.Plural(snap.N, "sample"), a.Took.Round(10*time.Millisecond)))
			}
			if a.Current(c) {
				s.last = a
				waiting := s.waiting
				s.waiting = nil
				for _, w := range waiting {
					w.then(a)
				}
			} else {
				s.drop(true) // renumbered meanwhile (a save): its rows no longer name the samples
			}
			c.Render()
			if done != nil {
				done(a) // last: what it says (the Suspects' new ranking) stays on the status bar
			}
		})
	})
}
