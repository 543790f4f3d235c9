package jobs

import (
	"sync"
	"testing"
)

// A job that holds edits holds them until it is released or finished; idle runs, once, when the
// last one lets them go, with the counts already saying so; a job that holds none (an export)
// never holds edits; the status joins the notes and what waits; StopThen cancels every job and
// runs its function once the goroutines have ended.
func TestJobsHoldEditsAndStop(t *testing.T) {
	var mu sync.Mutex
	var queued []func()
	schedule := func(f func()) { mu.Lock(); queued = append(queued, f); mu.Unlock() }
	idles, heldAtIdle := 0, true
	var j *Jobs
	j = New(schedule, func() { idles++; heldAtIdle = j.EditsHeld() })
	save := j.Start(Saving, "Saving… 40% (edits wait)")
	export := j.Start(Exporting, "Exporting")
	if !j.EditsHeld() || !j.Busy() || j.Running() != 2 {
		t.Fatalf("held %v, busy %v, running %d", j.EditsHeld(), j.Busy(), j.Running())
	}
	j.Then(save, func() {}, "quit")
	if got := j.Status(); got != "Saving… 40% (edits wait), then quit   |   Exporting" {
		t.Fatalf("status %q", got)
	}
	j.Release(save)
	if j.EditsHeld() || !j.Busy() || idles != 1 || heldAtIdle {
		t.Fatalf("after Release: held %v, busy %v, %d idles (edits held then: %v)", j.EditsHeld(), j.Busy(), idles, heldAtIdle)
	}
	if !j.Finish(save) || j.Finish(save) || idles != 1 || j.Busy() || save.Ctx.Err() == nil {
		t.Fatalf("Finish: busy %v, %d idles, context %v", j.Busy(), idles, save.Ctx.Err())
	}
	if export.Ctx.Err() != nil || idles != 1 {
		t.Fatal("finishing the save touched the export")
	}
	ended := make(chan struct{})
	j.Run(func() { <-export.Ctx.Done(); close(ended) })
	stopped := false
	j.StopThen(func() { stopped = true })
	<-ended
	for !stopped {
		mu.Lock()
		fs := queued
		queued = nil
		mu.Unlock()
		for _, f := range fs {
			f()
		}
	}
}
