package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/check"
	"idxlabel/suspect/neardup"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
)

// checkTop bounds the findings the check keeps of each kind (check.Options.Top): the lists the
// view shows stay a few thousand tiles, whatever the number of samples.
const checkTop = 5000

// outliersListed is how many of the most unusual samples the outlier kind lists at least,
// beyond its flagged ones (check.FlagOutlier is a bar for "surely not a digit"; the ranking is
// what finds the rest).
const outliersListed = 100

// checker runs the dataset health check (Tools → Check Dataset…) and hands its findings to the
// check's mode (checkmode.go). Two passes in one job (jobs.Checking, which lets editing go on):
// the quick kinds on a snapshot taken at the start (duplicates, then leaks against the other
// set; outliers from the pixels when nothing is labelled), shown as each is found; then, once
// the window's one CNN scan is ready (scanner.analyseOr, which runs it if needed), label errors
// and outliers from that scan. Both passes are check.Run. Its progress is on the view and the
// status bar; the view's Cancel stops it (and the CNN scan when the check started it). A save
// meanwhile renumbers what is found later as it renumbers the lists (follow).
type checker struct {
	c     *controller
	d     *dialogs.Dialogs
	win   fyne.Window
	prefs fyne.Preferences
	scans *scan.Scanner
	mode  *checkMode
	run   *checkRun // the check running, or the last one (nil: none, or the dataset replaced)
	// after are what wait for the check running to end (the report): each gets it, or nil when
	// it ended incomplete or the samples were renumbered meanwhile.
	after []func(*checkRun)
	rep   *reportJob // the health report being written (report.go), nil when none
}

// checkRun is one health check: what it checked and what it found, kept for the report while
// the samples keep its numbering.
type checkRun struct {
	ds       *store.Dataset
	resets   int       // controller.resets when it began
	gen      uint64    // the dataset's generation when it began
	job      *jobs.Job // nil once it ended
	began    time.Time
	took     time.Duration // the whole check
	quickOK  time.Duration // its first pass (the duplicates, leaks)
	against  []string      // the other set's image and label files (nil: leakage not checked)
	other    *otherSet     // opened by the first pass
	labelled bool          // some sample had a label: the second pass runs
	snap     sample.Set
	quick    *check.Result  // the first pass (nil until done)
	scan     *scan.Analysis // the CNN scan the second pass used
	slow     *check.Result  // the second pass (nil until done)
	// startedScan: the CNN scan running was asked for by this check (Cancel stops it).
	startedScan bool
	waitingScan bool // between the passes
	// renums are the renumberings (saves) since the check began, in order: a pass maps the
	// samples of its snapshot through those made after it.
	renums [][]int
	// removed counts the samples saves have left out since the check began (deleted, then saved).
	removed int
	stage   string  // the progress line
	done    float64 // its share done
	why     string  // why it ended before finding every kind ("" when it did)
}

// complete reports whether every pass of r ended with its findings.
func (r *checkRun) complete() bool {
	return r.job == nil && r.why == "" && r.quick != nil && (!r.labelled || r.slow != nil)
}

// current reports whether r is a complete check of c's samples as they are numbered now.
func (r *checkRun) current(c *controller) bool {
	return r != nil && r.ds == c.ds && r.resets == c.resets && r.complete()
}

// ask is Tools → Check Dataset…: it asks for the other set to check leakage against (optional)
// and runs the check.
func (k *checker) ask() {
	if k.c.ds.Len() == 0 {
		k.d.Inform("Check Dataset", "There are no samples to check.")
		return
	}
	k.dialog("Check Dataset", "Check", false, func(against []string, _ string) { k.start(against) })
}

// start runs a check of the dataset as it is now, against the other set's files (nil: no
// leakage), replacing a check running; the window shows the check's view at once. It reports
// whether the check started (not when every sample is deleted).
func (k *checker) start(against []string) bool {
	c := k.c
	ds := c.ds
	snap := ds.Snapshot()
	if snap.N == 0 {
		k.d.Inform("Check Dataset", "There are no samples to check: every sample is deleted.")
		return false
	}
	k.stop("replaced by a new check")
	run := &checkRun{ds: ds, resets: c.resets, gen: ds.Gen(), began: time.Now(), against: against, snap: snap,
		labelled: slices.ContainsFunc(snap.Labels, func(l int) bool { return l != sample.NoLabel })}
	run.job = c.jobs.Start(jobs.Checking, "Health check: starting")
	k.run = run
	kinds := []check.Kind{check.Outlier, check.Duplicate}
	quick := []check.Kind{check.Duplicate}
	if run.labelled {
		kinds = append([]check.Kind{check.Label}, kinds...)
	} else {
		quick = append(quick, check.Outlier)
	}
	if against != nil {
		kinds = append(kinds, check.Leak)
		quick = append(quick, check.Leak)
	}
	k.mode.f = newCheckFindings(kinds, neardup.DefaultThreshold)
	k.mode.kind, k.mode.picked = check.Duplicate, false
	run.stage = "finding duplicates"
	if against != nil {
		run.stage = "opening " + filepath.Base(against[0])
	}
	c.enter(k.mode)
	k.show()
	data := snap
	ctx := run.job.Ctx
	c.jobs.Run(func() {
		var other *otherSet
		var od *sample.Set
		if against != nil {
			var err error
			if other, err = openOther(against, ds); err != nil {
				c.jobs.Schedule(func() { k.passDone(run, nil, err) })
				return
			}
			d := other.snap
			od = &d
			c.jobs.Schedule(func() {
				if k.run != run || k.mode.f == nil {
					other.ds.Close() // replaced meanwhile
					return
				}
				run.other, k.mode.f.other = other, other
			})
		}
		res, err := check.Run(ctx, data, od, check.Options{Kinds: quick, Top: checkTop}, k.progress(run),
			func(kind check.Kind, list []check.Finding) {
				c.jobs.Schedule(func() { k.deliver(run, kind, list, snap, 0, nil) })
			})
		c.jobs.Schedule(func() { k.passDone(run, res, err) })
	})
	return true
}

// openOther opens the other set read-only (never locked, never written) and checks that its
// samples are of the dataset's size. Errors: store.Open's (naming the file), or another size.
func openOther(files []string, ds *store.Dataset) (*otherSet, error) {
	o, err := store.Open(files[0], files[1], store.Options{ReadOnly: true})
	debug.FreeOSMemory() // decoding leaves garbage as large as the files
	if err != nil {
		return nil, err
	}
	h, w := ds.Size()
	if oh, ow := o.Size(); oh != h || ow != w {
		o.Close()
		return nil, fmt.Errorf("%s has %d×%d images and this dataset %d×%d: leakage compares images of one size", files[0], oh, ow, h, w)
	}
	return &otherSet{ds: o, snap: o.Snapshot(), name: filepath.Base(files[0])}, nil
}

// progress returns check.Run's progress callback for run: at most ten updates a second reach the
// view and the status bar.
func (k *checker) progress(run *checkRun) func(check.Progress) {
	var last time.Time
	return func(p check.Progress) {
		if time.Since(last) < 100*time.Millisecond && p.Done < 1 {
			return
		}
		last = time.Now()
		stage := checkKindTitle(p.Kind) + ": " + p.Stage
		k.c.jobs.Schedule(func() {
			if k.run != run || run.job == nil {
				return
			}
			run.stage, run.done = stage, p.Done
			k.c.jobs.SetNote(run.job, "Health check: "+stage)
			k.show()
			k.c.showProgress()
		})
	}
}

// deliver hands kind's findings to the view: list's samples are positions in snap, renumbered
// through the saves made from run.renums[since] on; scan (nil: none) is the CNN scan of snap,
// whose probabilities give a label error's confidence.
func (k *checker) deliver(run *checkRun, kind check.Kind, list []check.Finding, snap sample.Set, since int, scan *suspect.CNNResult) {
	if k.run != run || k.mode.f == nil {
		return
	}
	l := k.mode.f.lists[kind]
	if l == nil {
		return
	}
	sample := func(row int) int {
		i := snap.Index[row]
		for _, to := range run.renums[since:] {
			if i < 0 || i >= len(to) {
				return -1
			}
			i = to[i]
		}
		return i
	}
	var conf func(f check.Finding) float64
	if kind == check.Label && scan != nil {
		nc := len(scan.Classes)
		conf = func(f check.Finding) float64 {
			if c, ok := slices.BinarySearch(scan.Classes, f.Suggested); ok {
				return float64(scan.Probs[f.Index*nc+c])
			}
			return 0
		}
	}
	*l = checkList{state: checkFound, of: map[int]checkItem{}, found: len(list)}
	for m, f := range list {
		switch {
		case kind == check.Label && !f.Flagged():
			continue
		case kind == check.Outlier && f.Score < check.FlagOutlier && m >= outliersListed:
			continue
		}
		i := sample(f.Index)
		if i < 0 {
			continue // deleted and saved away since
		}
		x, seen := l.of[i]
		switch {
		case kind == check.Duplicate:
			if o := sample(f.Other); o >= 0 {
				x.others = append(x.others, o)
			}
		case kind == check.Leak:
			x.others = append(x.others, f.Other)
		}
		if !seen {
			x.label, x.suggested, x.score = f.Label, f.Suggested, f.Score
			if conf != nil {
				x.confidence = conf(f)
			}
			l.order = append(l.order, i)
		}
		l.of[i] = x
	}
	l.flagged = len(l.order) // until the pass ends with the kind's count (passDone)
	if !k.mode.picked && len(k.mode.list().order) == 0 && len(l.order) > 0 {
		k.mode.kind = kind // the first kind with findings, until the person picks one
	}
	k.c.modeChanged(k.mode)
	k.show()
}

// passDone ends a pass of run on the UI thread: its kinds' counts, then the next pass (the CNN
// scan's kinds, once the scan is ready) or the end.
func (k *checker) passDone(run *checkRun, res *check.Result, err error) {
	if k.run != run || run.job == nil {
		return
	}
	switch {
	case errors.Is(err, context.Canceled):
		k.end(run, "cancelled")
		return
	case err != nil:
		k.end(run, "failed")
		k.d.ShowError(err)
		return
	}
	if f := k.mode.f; f != nil {
		for kind, n := range res.Flagged {
			if l := f.lists[kind]; l != nil {
				l.flagged = n
			}
		}
	}
	if run.quick == nil {
		run.quick, run.quickOK = res, time.Since(run.began)
		if run.labelled {
			k.askScan(run)
			return
		}
	} else {
		run.slow = res
	}
	k.end(run, "")
}

// askScan waits for the window's CNN scan (starting it when none runs) and then runs the second
// pass with it.
func (k *checker) askScan(run *checkRun) {
	s := k.scans
	run.waitingScan = true
	run.startedScan = run.startedScan || !s.Running() && !s.Ready()
	run.stage, run.done = "label errors and outliers wait for the CNN scan", 0
	k.c.jobs.SetNote(run.job, "Health check: waiting for the CNN scan")
	k.show()
	s.AnalyseOr(func(a *scan.Analysis) { k.scanned(run, a) }, func(stale bool) {
		switch {
		case k.run != run || run.job == nil:
		case stale:
			k.askScan(run) // saved while it ran: a scan of the samples as they are now
		default:
			k.end(run, "the CNN scan was stopped")
		}
	})
}

// scanProgress shows the CNN scan's progress (its note, the share done) while the check waits
// for it.
func (k *checker) scanProgress(note string, done float64) {
	if run := k.run; run != nil && run.job != nil && run.waitingScan {
		run.stage, run.done = note, done // the about line says what waits for it
		k.show()
	}
}

// scanned runs the second pass of run with the CNN scan a: label errors and outliers.
func (k *checker) scanned(run *checkRun, a *scan.Analysis) {
	if k.run != run || run.job == nil {
		return
	}
	c := k.c
	run.waitingScan, run.scan = false, a
	run.stage, run.done = "label errors and outliers", 0
	since := len(run.renums) // the scan is of the samples as they are numbered now
	data := a.Snap
	ctx := run.job.Ctx
	c.jobs.Run(func() {
		res, err := check.Run(ctx, data, nil, check.Options{Kinds: []check.Kind{check.Label, check.Outlier}, Scan: a.Res, Top: checkTop},
			k.progress(run), func(kind check.Kind, list []check.Finding) {
				c.jobs.Schedule(func() { k.deliver(run, kind, list, a.Snap, since, a.Res) })
			})
		c.jobs.Schedule(func() { k.passDone(run, res, err) })
	})
}

// end ends run's job: why says why it ended early ("" when every kind was found), and the kinds
// not found say so; what waited for it gets it (or nil when it is incomplete).
func (k *checker) end(run *checkRun, why string) {
	c := k.c
	c.jobs.Finish(run.job)
	run.job, run.why, run.took, run.renums, run.waitingScan = nil, why, time.Since(run.began), nil, false
	if f := k.mode.f; f != nil && k.run == run {
		for _, l := range f.lists {
			if l.state == checkWaiting {
				l.state = checkStopped
			}
		}
	}
	k.show()
	c.renderCursor()
	after := k.after
	k.after = nil
	for _, f := range after {
		if run.current(c) {
			f(run)
		} else {
			f(nil)
		}
	}
}

// cancel is the view's Cancel: the health report being written stops; otherwise the check
// stops, and the CNN scan with it when the check asked for it (a scan another view asked for
// goes on).
func (k *checker) cancel() {
	if k.rep != nil {
		k.rep.job.Cancel() // the report's goroutine returns context.Canceled: reportDone ends it
		return
	}
	if run := k.run; run != nil && run.job != nil && !run.waitingScan {
		run.job.Cancel() // the pass running returns context.Canceled: passDone ends it
		return
	}
	k.stop("cancelled")
}

// stop ends a check running, for why, at once (what its pass still finds is dropped), and the
// CNN scan it waits for when it asked for it.
func (k *checker) stop(why string) {
	run := k.run
	if run == nil || run.job == nil {
		return
	}
	scan := run.waitingScan && run.startedScan
	k.end(run, why)
	if scan {
		k.scans.Stop() // its waiting views are told (analyseOr); this check has ended
		k.c.renderCursor()
	}
}

// drop forgets the check when the dataset is replaced: it stops, and its other set closes.
func (k *checker) drop() {
	k.stop("the dataset was replaced")
	if k.run != nil && k.run.other != nil {
		k.run.other.ds.Close()
	}
	k.run = nil
}

// followed keeps a check in step with the samples: a save's renumbering is applied to what a
// check running finds later, and the view shows the findings as they are now; a replayed
// journal ends a check running (what it found no longer applies).
func (k *checker) followed(renumber []int) {
	run := k.run
	if run == nil {
		return
	}
	for _, to := range renumber {
		if to < 0 {
			run.removed++ // said beside "Checked N samples"
		}
	}
	defer k.show() // the kinds' counts follow the findings (renumbered, without the samples saved away)
	if run.job == nil {
		return
	}
	if renumber == nil {
		k.stop("the samples changed (a journal was replayed)")
		return
	}
	run.renums = append(run.renums, renumber)
}

// show hands the check's view what it shows.
func (k *checker) show() {
	m, run := k.mode, k.run
	if m.f == nil || run == nil {
		return
	}
	s := checkViewState{kinds: m.f.kinds, counts: map[check.Kind]string{}, kind: m.kind, running: run.job != nil || k.rep != nil}
	for _, kind := range m.f.kinds {
		l := m.f.lists[kind]
		switch {
		case l.state == checkWaiting:
			s.counts[kind] = "…"
		case l.state == checkStopped:
			s.counts[kind] = "—"
		case kind == check.Outlier:
			s.counts[kind] = numfmt.Sprintf("%d flagged", l.flagged)
		default:
			s.counts[kind] = numfmt.Sprintf("%d", l.flagged)
		}
	}
	s.about = checkAbout(m.kind, m.listOf(m.kind), m.f, run)
	switch {
	case run.job != nil:
		s.note, s.done = "Checking: "+run.stage, run.done
	case k.rep != nil:
		s.note, s.done = "Writing the health report to "+k.rep.dir+": "+k.rep.stage, k.rep.done
	default:
		s.note = numfmt.Sprintf("Checked %d samples", run.snap.N)
		if o := m.f.other; o != nil {
			s.note += " against " + o.name + numfmt.Sprintf(" (%d)", o.snap.N)
		}
		s.note += fmt.Sprintf(" in %.1f s", run.took.Seconds())
		if run.removed > 0 {
			s.note += numfmt.Sprintf("; saves since removed %d", run.removed) + numfmt.Sprintf(" (%d samples now)", k.c.ds.Len())
		}
		if run.slow != nil {
			s.note += fmt.Sprintf(" (the pixel kinds in %.1f s)", run.quickOK.Seconds())
		}
		if run.why != "" {
			s.note += "; stopped: " + run.why
		}
	}
	m.view.show(s)
	k.c.writeTestState() // a test's hook (the kinds' counts); nothing otherwise
}

// checkAbout says what kind's list l holds (the view's line under the kinds).
func checkAbout(kind check.Kind, l *checkList, f *checkFindings, run *checkRun) string {
	switch l.state {
	case checkWaiting:
		if (kind == check.Label || kind == check.Outlier) && run.waitingScan {
			return checkKindTitle(kind) + " wait for the CNN scan (a cross-validated CNN: its out-of-fold probabilities and features serve both)."
		}
		return checkKindTitle(kind) + ": not found yet."
	case checkStopped:
		return checkKindTitle(kind) + ": not checked (" + run.why + ")."
	}
	shown := len(l.order)
	var text string
	switch kind {
	case check.Label:
		text = numfmt.Sprintf("%d samples whose given label the cross-validated CNN doubts (below 50%% out of fold), most doubtful first. Enter accepts the suggestion, a digit sets another label, → keeps it.", l.flagged)
	case check.Outlier:
		text = numfmt.Sprintf("%d flagged as surely not a digit; ", l.flagged) + numfmt.Sprintf("the %d most unusual samples are listed, most unusual first. Delete removes one, a digit relabels it, → keeps it.", shown)
	case check.Duplicate:
		text = numfmt.Sprintf("%d pairs of samples that are the same image up to small changes", l.flagged) + fmt.Sprintf(" (similarity ≥ %.2f). ", f.threshold) +
			"Each tile is the first of its pair; its copy is beside it in the detail panel. Delete removes the tile's sample, → keeps both."
	case check.Leak:
		name := "the other set"
		if f.other != nil {
			name = f.other.name
		}
		text = numfmt.Sprintf("%d samples that are also in ", l.flagged) + name + fmt.Sprintf(" (similarity ≥ %.2f): leakage, which inflates any accuracy measured on this set. ", f.threshold) +
			"Delete removes this set's copy (the other set is read-only), → keeps it."
	}
	if shown == 0 {
		return checkKindTitle(kind) + ": none found."
	}
	if l.flagged > l.found {
		text += numfmt.Sprintf(" The check kept the first %d.", l.found)
	}
	return text
}

// pick is the view's kind buttons: the grid shows kind k's findings, the cursor on the first
// not decided yet.
func (k *checker) pick(kind check.Kind) {
	c, m := k.c, k.mode
	m.kind, m.picked = kind, true
	c.modeChanged(m)
	if c.mode == mode.Mode(m) && c.v.done != nil {
		for p := range c.v.Len() {
			if !c.v.done[c.v.At(p)] {
				c.moveCursor(p, false)
				break
			}
		}
	}
	k.show()
	c.out.focus()
}
