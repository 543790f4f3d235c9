package ui

import (
	"testing"

	"idxlabel/ui/jobs"
)

// Inputs that waited behind one that starts a second save (Ctrl+S typed after a key, both
// during a save) go on waiting for it, as if typed during that save on the sample the cursor is
// on when it starts: a digit typed there on a sample the second save removes is left out, as
// every key typed on a deleted sample during a save is, instead of landing on the sample after
// it once that save ends. Before, only the first input of the queue noted its sample, and the
// digit then relabelled the next sample, the keys after it each one sample too far.
func TestInputsBehindASecondSaveKeepTheirSample(t *testing.T) {
	j := jobs.New(func(f func()) { f() }, func() {})
	cursor := 5
	q := &inputs{jobs: j, cursor: func() int { return cursor }, covered: func() bool { return false }, changed: func() {}}
	first := j.Start(jobs.Saving, "")
	var second *jobs.Job
	ran := false
	q.hold(heldInput{run: func() { second = j.Start(jobs.Saving, "") }}) // Ctrl+S, on sample 5
	q.hold(heldInput{run: func() { ran = true }})                        // a digit after it
	j.Finish(first)
	if applied, _ := q.replay(); applied != 1 || second == nil {
		t.Fatalf("the first save's end applied %d inputs (want 1: the Ctrl+S that starts the second)", applied)
	}
	if len(q.held) != 1 {
		t.Fatalf("%d inputs wait for the second save, want 1", len(q.held))
	}
	// The second save removes sample 5 (the one the cursor is on): the samples after it move up.
	renumber := make([]int, 10)
	for i := range renumber {
		renumber[i] = i - 1
		if i < 5 {
			renumber[i] = i
		}
	}
	renumber[5] = -1
	q.renumber(renumber)
	cursor = 5 // the cursor followed to the next sample kept (now numbered 5)
	j.Finish(second)
	applied, lost := q.replay()
	if ran || applied != 0 || lost != 1 {
		t.Errorf("after the second save: the digit ran %v, %d applied, %d left out; want it left out (typed on the removed sample)", ran, applied, lost)
	}
}
