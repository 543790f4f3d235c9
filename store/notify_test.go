package store

import (
	"slices"
	"sync"
	"testing"
)

func TestSubscribeReportsEveryChange(t *testing.T) {
	ip, lp := writeTestPair(t, 30, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	var got []Change
	cancel := d.Subscribe(func(c Change) {
		got = append(got, c)
		_ = d.Label(0) // callbacks may call back into the dataset
	})
	d.Relabel([]int{3, 4}, 9)
	d.Append([]Sample{{make([]byte, 4), 1}})
	d.Delete([]int{5})
	d.Undo()
	d.Undo()
	d.Save(nil)
	cancel()
	d.Relabel([]int{1}, 9)
	want := []Change{
		{Relabelled, []int{3, 4}}, {Appended, []int{30}}, {DeletedChanged, []int{5}},
		{DeletedChanged, []int{5}}, {Truncated, []int{30}}, {Reset, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes: %v", len(got), got)
	}
	for k := range want {
		if got[k].Kind != want[k].Kind || !slices.Equal(got[k].Indices, want[k].Indices) {
			t.Fatalf("change %d: %v, want %v", k, got[k], want[k])
		}
	}
}

// TestConcurrentReadsDuringEdits is for the race detector: readers (a scan, a grid) run while
// edits and appends happen.
func TestConcurrentReadsDuringEdits(t *testing.T) {
	ip, lp := writeTestPair(t, 200, 4, 4)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for i := range d.Len() {
					_ = d.Pixels(i)
					_ = d.State(i)
				}
				_ = d.Counts()
				_ = d.Select(Filter{Subset: Edited})
			}
		}()
	}
	for k := range 100 {
		d.Relabel([]int{k}, (k+1)%10)
		d.Append([]Sample{{make([]byte, 16), k % 10}})
		if k%3 == 0 {
			d.Undo()
		}
	}
	wg.Wait()
}
