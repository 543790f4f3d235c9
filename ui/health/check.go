// Package health is the window's dataset health check (Tools → Check Dataset…): likely label
// errors, outliers, near-duplicates and, against another set, leakage, found by suspect/health and
// reviewed one kind at a time in the check's mode (Mode: its view above the grid, the keys that
// fit the kind), and the health report written from it (File → Export Health Report…).
package health

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	suspecthealth "idxlabel/suspect/health"
	"idxlabel/suspect/neardup"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
)

// checkTop bounds the findings the check keeps of each kind (suspecthealth.Options.Top): the lists the
// view shows stay a few thousand tiles, whatever the number of samples.
const checkTop = 5000

// OutliersListed is how many of the most unusual samples the outlier kind lists at least,
// beyond its flagged ones (suspecthealth.FlagOutlier is a bar for "surely not a digit"; the ranking is
// what finds the rest).
const OutliersListed = 100

// Checker runs the dataset health check and hands its findings to the check's mode (Mode). Two
// passes in one job (jobs.Checking, which lets editing go on): the quick kinds on a snapshot
// taken at the start (duplicates, then leaks against the other set; outliers from the pixels
// when nothing is labelled), shown as each is found; then, once the window's one CNN scan is
// ready (scan.Scanner.AnalyseOr, which runs it if needed), label errors and outliers from that
// scan. Both passes are suspecthealth.Run. Its progress is on the view and the status bar; the view's
// Cancel stops it (and the CNN scan when the check started it). A save meanwhile renumbers what
// is found later as it renumbers the lists (followed).
type Checker struct {
	c     mode.Controller
	jobs  *jobs.Jobs
	d     *dialogs.Dialogs
	win   fyne.Window
	prefs fyne.Preferences
	scans *scan.Scanner
	// Mode is the check's mode: its findings and its view.
	Mode *Mode
	run  *Run // the check running, or the last one (nil: none, or the dataset replaced)
	// after are what wait for the check running to end (the report): each gets it, or nil when
	// it ended incomplete or the samples were renumbered meanwhile.
	after []func(*Run)
	rep   *reportJob // the health report being written (report.go), nil when none
}

// New makes the health check of the window whose controller is c, its jobs j, its dialogs d on
// win (the other set remembered in prefs), the CNN scan run by scans; its view holds grid. It
// shows the scan's progress while it waits for it.
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, prefs fyne.Preferences, scans *scan.Scanner, grid fyne.CanvasObject) *Checker {
	k := &Checker{c: c, jobs: j, d: d, win: win, prefs: prefs, scans: scans}
	k.Mode = &Mode{View: newView(grid, viewInput{onKind: k.Pick, onCancel: k.Cancel}), begin: k.Ask, followed: k.followed}
	scans.Watch(k.scanProgress)
	return k
}

// Check is the check running, or the last one (nil: none, or the dataset was replaced).
func (k *Checker) Check() *Run { return k.run }

// Reporting reports whether a health report is being written.
func (k *Checker) Reporting() bool { return k.rep != nil }

// Waiting counts what waits for the check running to end (a report to write).
func (k *Checker) Waiting() int { return len(k.after) }

// Run is one health check: what it checked and what it found, kept for the report while
// the samples keep its numbering.
type Run struct {
	ds       *store.Dataset
	resets   int       // the controller's Resets when it began
	gen      uint64    // the dataset's generation when it began
	Job      *jobs.Job // nil once it ended
	began    time.Time
	took     time.Duration // the whole check
	quickOK  time.Duration // its first pass (the duplicates, leaks)
	Against  []string      // the other set's image and label files (nil: leakage not checked)
	other    *OtherSet     // opened by the first pass
	labelled bool          // some sample had a label: the second pass runs
	snap     sample.Set
	quick    *suspecthealth.Result // the first pass (nil until done)
	Scan     *scan.Analysis        // the CNN scan the second pass used
	slow     *suspecthealth.Result // the second pass (nil until done)
	// StartedScan: the CNN scan running was asked for by this check (Cancel stops it).
	StartedScan bool
	WaitingScan bool // between the passes
	// renums are the renumberings (saves) since the check began, in order: a pass maps the
	// samples of its snapshot through those made after it.
	renums [][]int
	// removed counts the samples saves have left out since the check began (deleted, then saved).
	removed int
	stage   string  // the progress line
	done    float64 // its share done
	Why     string  // why it ended before finding every kind ("" when it did)
}

// Complete reports whether every pass of r ended with its findings.
func (r *Run) Complete() bool {
	return r.Job == nil && r.Why == "" && r.quick != nil && (!r.labelled || r.slow != nil)
}

// Current reports whether r is a complete check of the window's samples as they are numbered
// now.
func (r *Run) Current(c mode.Controller) bool {
	return r != nil && r.ds == c.State().DS && r.resets == c.Resets() && r.Complete()
}

// Ask is Tools → Check Dataset…: it asks for the other set to check leakage against (optional)
// and runs the check.
func (k *Checker) Ask() {
	if k.c.State().DS.Len() == 0 {
		k.d.Inform("Check Dataset", "There are no samples to check.")
		return
	}
	k.dialog("Check Dataset", "Check", false, func(against []string, _ string) { k.Start(against) })
}

// Start runs a check of the dataset as it is now, against the other set's files (nil: no
// leakage), replacing a check running; the window shows the check's view at once. It reports
// whether the check started (not when every sample is deleted).
func (k *Checker) Start(against []string) bool {
	c := k.c
	ds := c.State().DS
	snap := ds.Snapshot()
	if snap.N == 0 {
		k.d.Inform("Check Dataset", "There are no samples to check: every sample is deleted.")
		return false
	}
	k.stop("replaced by a new check")
	run := &Run{ds: ds, resets: c.Resets(), gen: ds.Gen(), began: time.Now(), Against: against, snap: snap,
		labelled: slices.ContainsFunc(snap.Labels, func(l int) bool { return l != sample.NoLabel })}
	run.Job = k.jobs.Start(jobs.Checking, "Health check: starting")
	k.run = run
	kinds := []suspecthealth.Kind{suspecthealth.Outlier, suspecthealth.Duplicate}
	quick := []suspecthealth.Kind{suspecthealth.Duplicate}
	if run.labelled {
		kinds = append([]suspecthealth.Kind{suspecthealth.Label}, kinds...)
	} else {
		quick = append(quick, suspecthealth.Outlier)
	}
	if against != nil {
		kinds = append(kinds, suspecthealth.Leak)
		quick = append(quick, suspecthealth.Leak)
	}
	k.Mode.F = newFindings(kinds, neardup.DefaultThreshold)
	k.Mode.kind, k.Mode.picked = suspecthealth.Duplicate, false
	run.stage = "finding duplicates"
	if against != nil {
		run.stage = "opening " + clip.Name(against[0])
	}
	c.Enter(k.Mode)
	k.show()
	data := snap
	ctx := run.Job.Ctx
	k.jobs.Run(func() {
		var other *OtherSet
		var od *sample.Set
		if against != nil {
			var err error
			if other, err = openOther(against, ds); err != nil {
				k.jobs.Schedule(func() { k.passDone(run, nil, err) })
				return
			}
			d := other.Snap
			od = &d
			k.jobs.Schedule(func() {
				if k.run != run || k.Mode.F == nil {
					other.ds.Close() // replaced meanwhile
					return
				}
				run.other, k.Mode.F.Other = other, other
			})
		}
		res, err := suspecthealth.Run(ctx, data, od, suspecthealth.Options{Kinds: quick, Top: checkTop}, k.progress(run),
			func(kind suspecthealth.Kind, list []suspecthealth.Finding) {
				k.jobs.Schedule(func() { k.deliver(run, kind, list, snap, 0, nil) })
			})
		k.jobs.Schedule(func() { k.passDone(run, res, err) })
	})
	return true
}

// openOther opens the other set read-only (never locked, never written) and checks that its
// samples are of the dataset's size. Errors: store.Open's (naming the file), or another size.
func openOther(files []string, ds *store.Dataset) (*OtherSet, error) {
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
	return &OtherSet{ds: o, Snap: o.Snapshot(), name: clip.Name(files[0])}, nil
}

// progress returns suspecthealth.Run's progress callback for run: at most ten updates a second reach the
// view and the status bar.
func (k *Checker) progress(run *Run) func(suspecthealth.Progress) {
	var last time.Time
	return func(p suspecthealth.Progress) {
		if time.Since(last) < 100*time.Millisecond && p.Done < 1 {
			return
		}
		last = time.Now()
		stage := KindTitle(p.Kind) + ": " + p.Stage
		k.jobs.Schedule(func() {
			if k.run != run || run.Job == nil {
				return
			}
			run.stage, run.done = stage, p.Done
			k.jobs.SetNote(run.Job, "Health check: "+stage)
			k.show()
			k.c.Progress()
		})
	}
}

// deliver hands kind's findings to the view: list's samples are positions in snap, renumbered
// through the saves made from run.renums[since] on; scan (nil: none) is the CNN scan of snap,
// whose probabilities give a label error's confidence.
func (k *Checker) deliver(run *Run, kind suspecthealth.Kind, list []suspecthealth.Finding, snap sample.Set, since int, scan *suspect.CNNResult) {
	if k.run != run || k.Mode.F == nil {
		return
	}
	l := k.Mode.F.Lists[kind]
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
	var conf func(f suspecthealth.Finding) float64
	if kind == suspecthealth.Label && scan != nil {
		nc := len(scan.Classes)
		conf = func(f suspecthealth.Finding) float64 {
			if c, ok := slices.BinarySearch(scan.Classes, f.Suggested); ok {
				return float64(scan.Probs[f.Index*nc+c])
			}
			return 0
		}
	}
	*l = List{State: Found, Of: map[int]Item{}, Found: len(list)}
	for m, f := range list {
		switch {
		case kind == suspecthealth.Label && !f.Flagged():
			continue
		case kind == suspecthealth.Outlier && f.Score < suspecthealth.FlagOutlier && m >= OutliersListed:
			continue
		}
		i := sample(f.Index)
		if i < 0 {
			continue // deleted and saved away since
		}
		x, seen := l.Of[i]
		switch {
		case kind == suspecthealth.Duplicate:
			if o := sample(f.Other); o >= 0 {
				x.Others = append(x.Others, o)
			}
		case kind == suspecthealth.Leak:
			x.Others = append(x.Others, f.Other)
		}
		if !seen {
			x.Label, x.Suggested, x.score = f.Label, f.Suggested, f.Score
			if conf != nil {
				x.confidence = conf(f)
			}
			l.Order = append(l.Order, i)
		}
		l.Of[i] = x
	}
	l.Flagged = len(l.Order) // until the pass ends with the kind's count (passDone)
	if !k.Mode.picked && len(k.Mode.list().Order) == 0 && len(l.Order) > 0 {
		k.Mode.kind = kind // the first kind with findings, until the person picks one
	}
	k.c.Changed(k.Mode)
	k.show()
}

// passDone ends a pass of run on the UI thread: its kinds' counts, then the next pass (the CNN
// scan's kinds, once the scan is ready) or the end.
func (k *Checker) passDone(run *Run, res *suspecthealth.Result, err error) {
	if k.run != run || run.Job == nil {
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
	if f := k.Mode.F; f != nil {
		for kind, n := range res.Flagged {
			if l := f.Lists[kind]; l != nil {
				l.Flagged = n
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
func (k *Checker) askScan(run *Run) {
	s := k.scans
	run.WaitingScan = true
	run.StartedScan = run.StartedScan || !s.Running() && !s.Ready()
	run.stage, run.done = "label errors and outliers wait for the CNN scan", 0
	k.jobs.SetNote(run.Job, "Health check: waiting for the CNN scan")
	k.show()
	s.AnalyseOr(func(a *scan.Analysis) { k.scanned(run, a) }, func(stale bool) {
		switch {
		case k.run != run || run.Job == nil:
		case stale:
			k.askScan(run) // saved while it ran: a scan of the samples as they are now
		default:
			k.end(run, "the CNN scan was stopped")
		}
	})
}

// scanProgress shows the CNN scan's progress (its note, the share done) while the check waits
// for it.
func (k *Checker) scanProgress(note string, done float64) {
	if run := k.run; run != nil && run.Job != nil && run.WaitingScan {
		run.stage, run.done = note, done // the about line says what waits for it
		k.show()
	}
}

// scanned runs the second pass of run with the CNN scan a: label errors and outliers.
func (k *Checker) scanned(run *Run, a *scan.Analysis) {
	if k.run != run || run.Job == nil {
		return
	}
	run.WaitingScan, run.Scan = false, a
	run.stage, run.done = "label errors and outliers", 0
	since := len(run.renums) // the scan is of the samples as they are numbered now
	data := a.Snap
	ctx := run.Job.Ctx
	k.jobs.Run(func() {
		res, err := suspecthealth.Run(ctx, data, nil, suspecthealth.Options{Kinds: []suspecthealth.Kind{suspecthealth.Label, suspecthealth.Outlier}, Scan: a.Res, Top: checkTop},
			k.progress(run), func(kind suspecthealth.Kind, list []suspecthealth.Finding) {
				k.jobs.Schedule(func() { k.deliver(run, kind, list, a.Snap, since, a.Res) })
			})
		k.jobs.Schedule(func() { k.passDone(run, res, err) })
	})
}

// end ends run's job: why says why it ended early ("" when every kind was found), and the kinds
// not found say so; what waited for it gets it (or nil when it is incomplete).
func (k *Checker) end(run *Run, why string) {
	c := k.c
	k.jobs.Finish(run.Job)
	run.Job, run.Why, run.took, run.renums, run.WaitingScan = nil, why, time.Since(run.began), nil, false
	if f := k.Mode.F; f != nil && k.run == run {
		for _, l := range f.Lists {
			if l.State == Waiting {
				l.State = Stopped
			}
		}
	}
	k.show()
	c.Render()
	after := k.after
	k.after = nil
	for _, f := range after {
		if run.Current(c) {
			f(run)
		} else {
			f(nil)
		}
	}
}

// Cancel is the view's Cancel: the health report being written stops; otherwise the check
// stops, and the CNN scan with it when the check asked for it (a scan another view asked for
// goes on).
func (k *Checker) Cancel() {
	if k.rep != nil {
		k.rep.job.Cancel() // the report's goroutine returns context.Canceled: reportDone ends it
		return
	}
	if run := k.run; run != nil && run.Job != nil && !run.WaitingScan {
		run.Job.Cancel() // the pass running returns context.Canceled: passDone ends it
		return
	}
	k.stop("cancelled")
}

// stop ends a check running, for why, at once (what its pass still finds is dropped), and the
// CNN scan it waits for when it asked for it.
func (k *Checker) stop(why string) {
	run := k.run
	if run == nil || run.Job == nil {
		return
	}
	scan := run.WaitingScan && run.StartedScan
	k.end(run, why)
	if scan {
		k.scans.Stop() // its waiting views are told (analyseOr); this check has ended
		k.c.Render()
	}
}

// Drop forgets the check when the dataset is replaced: it stops, and its other set closes.
func (k *Checker) Drop() {
	k.stop("the dataset was replaced")
	if k.run != nil && k.run.other != nil {
		k.run.other.ds.Close()
	}
	k.run = nil
}

// followed keeps a check in step with the samples: a save's renumbering is applied to what a
// check running finds later, and the view shows the findings as they are now; a replayed
// journal ends a check running (what it found no longer applies).
func (k *Checker) followed(renumber []int) {
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
	if run.Job == nil {
		return
	}
	if renumber == nil {
		k.stop("the samples changed (a journal was replayed)")
		return
	}
	run.renums = append(run.renums, renumber)
}

// show hands the check's view what it shows.
func (k *Checker) show() {
	m, run := k.Mode, k.run
	if m.F == nil || run == nil {
		return
	}
	s := viewState{kinds: m.F.Kinds, counts: map[suspecthealth.Kind]string{}, kind: m.kind, running: run.Job != nil || k.rep != nil}
	for _, kind := range m.F.Kinds {
		l := m.F.Lists[kind]
		switch {
		case l.State == Waiting:
			s.counts[kind] = "…"
		case l.State == Stopped:
			s.counts[kind] = "—"
		case kind == suspecthealth.Outlier:
			s.counts[kind] = numfmt.Sprintf("%d flagged", l.Flagged)
		default:
			s.counts[kind] = numfmt.Sprintf("%d", l.Flagged)
		}
	}
	s.about = about(m.kind, m.listOf(m.kind), m.F, run)
	switch {
	case run.Job != nil:
		s.note, s.done = "Checking: "+run.stage, run.done
	case k.rep != nil:
		s.note, s.done = "Writing the health report to "+k.rep.dir+": "+k.rep.stage, k.rep.done
	default:
		s.note = numfmt.Sprintf("Checked %d samples", run.snap.N)
		if o := m.F.Other; o != nil {
			s.note += " against " + o.name + numfmt.Sprintf(" (%d)", o.Snap.N)
		}
		s.note += fmt.Sprintf(" in %.1f s", run.took.Seconds())
		if run.removed > 0 {
			s.note += numfmt.Sprintf("; saves since removed %d", run.removed) + numfmt.Sprintf(" (%d samples now)", k.c.State().DS.Len())
		}
		if run.slow != nil {
			s.note += fmt.Sprintf(" (the pixel kinds in %.1f s)", run.quickOK.Seconds())
		}
		if run.Why != "" {
			s.note += "; stopped: " + run.Why
		}
	}
	m.View.show(s)
	k.c.Render() // the real-window tests' state line reads the kinds' counts
}

// about says what kind's list l holds (the view's line under the kinds).
func about(kind suspecthealth.Kind, l *List, f *Findings, run *Run) string {
	switch l.State {
	case Waiting:
		if (kind == suspecthealth.Label || kind == suspecthealth.Outlier) && run.WaitingScan {
			return KindTitle(kind) + " wait for the CNN scan (a cross-validated CNN: its out-of-fold probabilities and features serve both)."
		}
		return KindTitle(kind) + ": not found yet."
	case Stopped:
		return KindTitle(kind) + ": not checked (" + run.Why + ")."
	}
	shown := len(l.Order)
	var text string
	switch kind {
	case suspecthealth.Label:
		text = numfmt.Sprintf("%d samples whose given label the cross-validated CNN doubts (below 50%% out of fold), most doubtful first. Enter accepts the suggestion, a digit sets another label, → keeps it.", l.Flagged)
	case suspecthealth.Outlier:
		text = numfmt.Sprintf("%d flagged as surely not a digit; ", l.Flagged) + numfmt.Sprintf("the %d most unusual samples are listed, most unusual first. Delete removes one, a digit relabels it, → keeps it.", shown)
	case suspecthealth.Duplicate:
		text = numfmt.Sprintf("%d pairs of samples that are the same image up to small changes", l.Flagged) + fmt.Sprintf(" (similarity ≥ %.2f). ", f.threshold) +
			"Each tile is the first of its pair; its copy is beside it in the detail panel. Delete removes the tile's sample, → keeps both."
	case suspecthealth.Leak:
		name := "the other set"
		if f.Other != nil {
			name = f.Other.name
		}
		text = numfmt.Sprintf("%d samples that are also in ", l.Flagged) + name + fmt.Sprintf(" (similarity ≥ %.2f): leakage, which inflates any accuracy measured on this set. ", f.threshold) +
			"Delete removes this set's copy (the other set is read-only), → keeps it."
	}
	if shown == 0 {
		return KindTitle(kind) + ": none found."
	}
	if l.Flagged > l.Found {
		text += numfmt.Sprintf(" The check kept the first %d.", l.Found)
	}
	return text
}

// Pick is the view's kind buttons: the grid shows kind k's findings, the cursor on the first
// not decided yet.
func (k *Checker) Pick(kind suspecthealth.Kind) {
	c, m := k.c, k.Mode
	m.kind, m.picked = kind, true
	c.Changed(m)
	if c.Showing() == mode.Mode(m) {
		v := c.State().View
		for p := range v.Len() {
			if !v.DoneAt(v.At(p)) {
				c.MoveCursor(p)
				break
			}
		}
	}
	k.show()
	c.Focus()
}
