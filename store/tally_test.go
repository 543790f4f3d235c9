package store

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"idxlabel/sample"
)

// recount computes Counters, Counts and the classes present from every sample, as they were
// computed before the tally kept them (d.mu not held by the caller).
func recount(d *Dataset) (Counters, []ClassCount, []int) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	c := Counters{Samples: len(d.labels), Added: len(d.labels) - len(d.opened), Appended: len(d.labels) - d.baseN}
	live := map[int]int{}
	for i, l := range d.labels {
		if d.deleted[i] {
			c.Deleted++
		} else {
			live[int(l)]++
		}
		if i < len(d.opened) && l != d.opened[i] {
			c.Edited++
		}
		if i < d.baseN && l != d.orig[i] {
			c.Relabelled++
		}
	}
	present := d.presentClasses()
	set := map[int]bool{}
	for _, k := range slices.Concat(d.declared, present, slices.Collect(maps.Keys(d.names))) {
		set[k] = true
	}
	var counts []ClassCount
	if n := live[sample.NoLabel]; n > 0 {
		counts = append(counts, ClassCount{Class: sample.NoLabel, Count: n})
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		counts = append(counts, ClassCount{Class: k, Name: d.names[k], Count: live[k]})
	}
	return c, counts, slices.Sorted(maps.Keys(set))
}

// The counts kept as edits happen agree with a recount of every sample after each of random
// relabels, deletions, restores, appends, review decisions, undos and redos, a save (which
// renumbers the samples) and a replayed journal, on a labelled pair and on images alone.
func TestTallyFollowsEveryChange(t *testing.T) {
	skipShort(t)
	check := func(t *testing.T, d *Dataset, what string) {
		t.Helper()
		wantC, wantCounts, wantClasses := recount(d)
		if got := d.Counters(); got != wantC {
			t.Fatalf("%s: Counters %+v, recount %+v", what, got, wantC)
		}
		if got := d.Counts(); !slices.Equal(got, wantCounts) {
			t.Fatalf("%s: Counts %v, recount %v", what, got, wantCounts)
		}
		if got := d.Classes(); !slices.Equal(got, wantClasses) {
			t.Fatalf("%s: Classes %v, recount %v", what, got, wantClasses)
		}
	}
	for _, labelled := range []bool{true, false} {
		for seed := range uint64(8) {
			rng := rand.New(rand.NewPCG(seed, 7))
			ip, lp := writeTestPair(t, 40, 2, 2)
			if !labelled {
				lp = ""
			}
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, d, "opened")
			pick := func() []int {
				var s []int
				for range 1 + rng.IntN(4) {
					s = append(s, rng.IntN(d.Len()))
				}
				return s
			}
			for step := range 80 {
				switch rng.IntN(8) {
				case 0, 1:
					err = d.Relabel(pick(), rng.IntN(12)) // 10 and 11: classes the files lack
				case 2:
					err = d.Delete(pick())
				case 3:
					err = d.Restore(pick())
				case 4:
					_, err = d.Append([]Sample{{Pixels: make([]byte, 4), Label: rng.IntN(10)}})
				case 5:
					err = decideManual(d, rng.IntN(d.Len()), rng.IntN(10))
				case 6:
					_, _, err = d.Undo()
				case 7:
					_, _, err = d.Redo()
				}
				if err != nil {
					t.Fatal(err)
				}
				if step == 40 && labelled {
					// A save renumbers the samples and makes the files' labels the current ones.
					dir := t.TempDir()
					ip, lp = filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
					if err := saveAs(d, ip, lp, nil); err != nil {
						t.Fatal(err)
					}
					check(t, d, "saved")
				}
				check(t, d, "after a step")
			}
			d.Close()
			e, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, e, "reopened")
			if e.Recovery() != nil {
				if _, err := e.ReplayJournal(); err != nil {
					t.Fatal(err)
				}
				check(t, e, "replayed")
			}
			e.Abandon()
			e.Close()
		}
	}
}
