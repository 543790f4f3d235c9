package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// jobKind is what a job in the background does. No job running is the idle state.
type jobKind int

const (
	jobLoading   jobKind = iota // opening a pair
	jobSaving                   // writing the files
	jobScanning                 // the kNN pass of a scan for suspects
	jobImporting                // reading and normalizing a folder of images
	jobExporting                // writing PNGs, CSV or .npz
	jobTraining                 // a CNN: the scan's refinement, or the model that suggests labels
	jobChecking                 // the health check (check.go): it reads snapshots, editing goes on
	jobMapping                  // laying out the map of the scan's features, placing added samples on it
)

// holdsEdits reports whether edits wait while a job of kind k runs: they would change the samples
// under a load, a save, an import or the scan's snapshot. Exports read a snapshot and trainings
// a copy of the samples, so editing goes on meanwhile.
func (k jobKind) holdsEdits() bool { return k <= jobImporting }

// job is one piece of background work: its kind, its progress for the status bar and its
// Cancel. Jobs start and finish on the UI thread; their work runs in a goroutine (jobs.run) and
// hands its progress and its result back to the UI thread through jobs.schedule.
type job struct {
	kind   jobKind
	note   string // its progress for the status bar ("Saving… 40% (edits wait)"); "" shows none
	ctx    context.Context
	cancel context.CancelFunc
	// What waits for the job's end (a quit asked for during a save) and its name for the status
	// bar ("quit"); nil when nothing waits.
	after     func()
	afterName string
	// released: the job no longer holds edits though it has not finished (jobs.release).
	released bool
}

// jobs is the job state: the jobs running, the context they derive from (cancelled when the
// window quits: stopThen) and the goroutines doing their work. It is the one place that says whether edits
// wait (busy) and what the status bar says about work in progress.
type jobs struct {
	mu      sync.Mutex
	running []*job
	// holding counts the running jobs that hold edits; tests poll it from their own goroutine.
	holding atomic.Int32
	// released counts those of them that let edits go on before they finish (release).
	released atomic.Int32
	// idle runs on the UI thread when the last job holding edits lets them go on: the inputs
	// that waited are applied (controller.replayHeld). nil: nothing.
	idle func()
	life context.Context
	end  context.CancelFunc
	bg   sync.WaitGroup
	// schedule runs a function on the UI thread later: fyne.Do. Tests queue the functions and run
	// them on their own goroutine, as the real driver does on the UI thread (the test driver's
	// fyne.Do would run them at once on the worker's goroutine).
	schedule func(func())
}

// newJobs makes the job state: schedule runs a function on the UI thread later (fyne.Do), idle
// runs there when the last job holding edits lets them go on (nil: nothing).
func newJobs(schedule func(func()), idle func()) *jobs {
	life, end := context.WithCancel(context.Background())
	return &jobs{life: life, end: end, schedule: schedule, idle: idle}
}

// start registers a job of kind with note as its progress; its context is cancelled by its
// cancel, or by stopAll and stopThen (the window quits).
func (j *jobs) start(kind jobKind, note string) *job {
	ctx, cancel := context.WithCancel(j.life)
	x := &job{kind: kind, note: note, ctx: ctx, cancel: cancel}
	j.mu.Lock()
	j.running = append(j.running, x)
	j.mu.Unlock()
	if kind.holdsEdits() {
		j.holding.Add(1)
	}
	return x
}

// finish takes x off the running jobs (once; later calls do nothing) and releases its context.
// It reports whether x was running.
func (j *jobs) finish(x *job) bool {
	j.mu.Lock()
	k := -1
	for n, r := range j.running {
		if r == x {
			k = n
		}
	}
	if k >= 0 {
		j.running = append(j.running[:k], j.running[k+1:]...)
	}
	j.mu.Unlock()
	if k < 0 {
		return false
	}
	x.cancel()
	if x.kind.holdsEdits() {
		if x.released {
			j.released.Add(-1)
		} else {
			j.letGo()
		}
		j.holding.Add(-1)
	}
	return true
}

// release lets edits go on while x, which held them, has still work to finish on the UI thread
// (a save's ending runs what waited for it after the inputs that waited are applied); finish
// still ends it. It does nothing for a job that holds no edits or was released already.
func (j *jobs) release(x *job) {
	if !x.kind.holdsEdits() || x.released {
		return
	}
	j.mu.Lock()
	running := slices.Contains(j.running, x)
	j.mu.Unlock()
	if !running {
		return
	}
	x.released = true
	j.letGo()
	j.released.Add(1)
}

// letGo runs idle when the job about to stop holding edits is the last that held them (on the
// UI thread, before the counts change).
func (j *jobs) letGo() {
	if j.idle != nil && j.holding.Load()-j.released.Load() == 1 {
		// The counts must already say "no edits held" while idle applies the inputs.
		j.released.Add(1)
		defer j.released.Add(-1)
		j.idle()
	}
}

// setNote makes note x's progress on the status bar ("" shows none).
func (j *jobs) setNote(x *job, note string) {
	j.mu.Lock()
	x.note = note
	j.mu.Unlock()
}

// then has f run when x ends (what waits for a save: a quit), named name on the status bar; nil
// and "" for nothing. It returns what waited before.
func (j *jobs) then(x *job, f func(), name string) func() {
	j.mu.Lock()
	defer j.mu.Unlock()
	before := x.after
	x.after, x.afterName = f, name
	return before
}

// busy reports whether a job that holds edits runs (finished: tests wait on it).
func (j *jobs) busy() bool { return j.holding.Load() > 0 }

// editsHeld reports whether edits wait now: a job that holds them runs and has not released
// them.
func (j *jobs) editsHeld() bool { return j.holding.Load()-j.released.Load() > 0 }

// status is the progress of the jobs running, for the status bar: each one's note, and what
// waits for a save ("Saving… 40% (edits wait), then quit"), joined by "   |   "; "" when none
// has a note.
func (j *jobs) status() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var notes []string
	for _, r := range j.running {
		if r.note == "" {
			continue
		}
		note := r.note
		if r.afterName != "" {
			note += ", then " + r.afterName
		}
		notes = append(notes, note)
	}
	return strings.Join(notes, "   |   ")
}

// run runs f in a goroutine the window waits for when it closes (stopAll, stopThen).
func (j *jobs) run(f func()) { j.bg.Go(f) }

// stopThen cancels every job (as stopAll) and, once every goroutine of the window has ended, runs
// then on the UI thread (schedule), after the last steps those goroutines queued there: a quit
// closes the dataset and the window only when no work of the window runs any more. Called on the
// UI thread, it returns at once.
func (j *jobs) stopThen(then func()) {
	j.end()
	go func() {
		j.bg.Wait()
		j.schedule(then)
	}()
}

// stopAll cancels every job and anything such work would start next (their contexts derive from
// life), and waits for every goroutine of the window to end. It may be called from any goroutine
// but the UI thread of a running app, where the goroutines' last steps are queued.
func (j *jobs) stopAll() {
	j.end()
	j.bg.Wait()
}
