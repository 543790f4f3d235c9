// Package jobs is the window's job state: the work running in the background (loading, saving,
// scanning, importing, exporting, training, checking, mapping), each with its progress for the
// status bar and its Cancel, the goroutines doing it, and the one answer to whether edits wait
// (EditsHeld). Jobs start and finish on the UI thread; their work runs in goroutines (Run) that
// hand progress and results back to the UI thread (Schedule, which is fyne.Do in the window). A
// quit cancels every job and closes the window once their goroutines have ended (StopThen).
package jobs

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is what a job in the background does. No job running is the idle state.
type Kind int

const (
	Loading   Kind = iota // opening a pair
	Saving                // writing the files
	Scanning              // the kNN pass of a scan for suspects
	Importing             // reading and normalizing a folder of images, or another pair's samples
	Exporting             // writing PNGs, CSV, .npz, a split, a report
	Training              // a CNN: the scan, or the model that suggests labels
	Checking              // the health check: it reads snapshots, editing goes on
	Mapping               // laying out the map of the scan's features, placing added samples on it
)

// HoldsEdits reports whether edits wait while a job of kind k runs: they would change the samples
// under a load, a save, an import or the scan's snapshot. Exports read a snapshot and trainings
// a copy of the samples, so editing goes on meanwhile.
func (k Kind) HoldsEdits() bool { return k <= Importing }

// Job is one piece of background work: its kind, its progress for the status bar and its
// Cancel. Jobs start and finish on the UI thread; their work runs in a goroutine (Jobs.Run) and
// hands its progress and its result back to the UI thread through Jobs.Schedule.
type Job struct {
	kind Kind
	note string // its progress for the status bar ("Saving… 40% (edits wait)"); "" shows none
	// Ctx is the job's context: cancelled by Cancel, by Jobs.Finish, or when the window quits.
	Ctx    context.Context
	cancel context.CancelFunc
	// What waits for the job's end (a quit asked for during a save) and its name for the status
	// bar ("quit"); nil when nothing waits.
	after     func()
	afterName string
	// released: the job no longer holds edits though it has not finished (Jobs.Release).
	released bool
}

// Cancel asks the job's work to stop (its context's cancel); Finish still ends the job.
func (x *Job) Cancel() { x.cancel() }

// Jobs is the job state: the jobs running, the context they derive from (cancelled when the
// window quits: StopThen) and the goroutines doing their work. It is the one place that says
// whether edits wait (EditsHeld) and what the status bar says about work in progress (Status).
type Jobs struct {
	mu      sync.Mutex
	running []*Job
	// holding counts the running jobs that hold edits; tests poll it from their own goroutine.
	holding atomic.Int32
	// released counts those of them that let edits go on before they finish (release).
	released atomic.Int32
	// idle runs on the UI thread when the last job holding edits lets them go on: the inputs
	// that waited are applied (the controller's replay). nil: nothing.
	idle func()
	life context.Context
	end  context.CancelFunc
	bg   sync.WaitGroup
	// Schedule runs a function on the UI thread later: fyne.Do. Tests queue the functions and run
	// them on their own goroutine, as the real driver does on the UI thread (the test driver's
	// fyne.Do would run them at once on the worker's goroutine).
	Schedule func(func())
}

// New makes the job state: schedule runs a function on the UI thread later (fyne.Do), idle runs
// there when the last job holding edits lets them go on (nil: nothing).
func New(schedule func(func()), idle func()) *Jobs {
	life, end := context.WithCancel(context.Background())
	return &Jobs{life: life, end: end, Schedule: schedule, idle: idle}
}

// Start registers a job of kind with note as its progress; its context is cancelled by its
// cancel, or by StopAll and StopThen (the window quits).
func (j *Jobs) Start(kind Kind, note string) *Job {
	ctx, cancel := context.WithCancel(j.life)
	x := &Job{kind: kind, note: note, Ctx: ctx, cancel: cancel}
	j.mu.Lock()
	j.running = append(j.running, x)
	j.mu.Unlock()
	if kind.HoldsEdits() {
		j.holding.Add(1)
	}
	return x
}

// Finish takes x off the running jobs (once; later calls do nothing) and releases its context.
// It reports whether x was running.
func (j *Jobs) Finish(x *Job) bool {
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
	if x.kind.HoldsEdits() {
		if x.released {
			j.released.Add(-1)
		} else {
			j.letGo()
		}
		j.holding.Add(-1)
	}
	return true
}

// Release lets edits go on while x, which held them, has still work to finish on the UI thread
// (a save's ending runs what waited for it after the inputs that waited are applied); finish
// still ends it. It does nothing for a job that holds no edits or was released already.
func (j *Jobs) Release(x *Job) {
	if !x.kind.HoldsEdits() || x.released {
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
func (j *Jobs) letGo() {
	if j.idle != nil && j.holding.Load()-j.released.Load() == 1 {
		// The counts must already say "no edits held" while idle applies the inputs.
		j.released.Add(1)
		defer j.released.Add(-1)
		j.idle()
	}
}

// SetNote makes note x's progress on the status bar ("" shows none).
func (j *Jobs) SetNote(x *Job, note string) {
	j.mu.Lock()
	x.note = note
	j.mu.Unlock()
}

// Then has f run when x ends (what waits for a save: a quit), named name on the status bar; nil
// and "" for nothing. It returns what waited before.
func (j *Jobs) Then(x *Job, f func(), name string) func() {
	j.mu.Lock()
	defer j.mu.Unlock()
	before := x.after
	x.after, x.afterName = f, name
	return before
}

// Busy reports whether a job that holds edits runs (finished: tests wait on it).
func (j *Jobs) Busy() bool { return j.holding.Load() > 0 }

// EditsHeld reports whether edits wait now: a job that holds them runs and has not released
// them.
func (j *Jobs) EditsHeld() bool { return j.holding.Load()-j.released.Load() > 0 }

// Status is the progress of the jobs running, for the status bar: each one's note, and what
// waits for a save ("Saving… 40% (edits wait), then quit"), joined by "   |   "; "" when none
// has a note.
func (j *Jobs) Status() string {
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

// Run runs f in a goroutine the window waits for when it closes (StopAll, StopThen).
func (j *Jobs) Run(f func()) { j.bg.Go(f) }

// StopThen cancels every job (as StopAll) and, once every goroutine of the window has ended, runs
// then on the UI thread (schedule), after the last steps those goroutines queued there: a quit
// closes the dataset and the window only when no work of the window runs any more. Called on the
// UI thread, it returns at once.
func (j *Jobs) StopThen(then func()) {
	j.end()
	go func() {
		j.bg.Wait()
		j.Schedule(then)
	}()
}

// StopAll cancels every job and anything such work would start next (their contexts derive from
// life), and waits for every goroutine of the window to end. It may be called from any goroutine
// but the UI thread of a running app, where the goroutines' last steps are queued.
func (j *Jobs) StopAll() {
	j.end()
	j.bg.Wait()
}

// Running counts the jobs running, whether they hold edits or not (tests wait on it).
func (j *Jobs) Running() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.running)
}
