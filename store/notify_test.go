package store

import (
	"bytes"
	"fmt"
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
// edits, appends and undone appends happen. A reader's length is old as soon as it has it, so
// it reads with the checked forms and stops where the dataset now ends (indexing with a stale
// Len made this test fail now and then). Each reader keeps the appended samples' pixels it was
// handed and reads them again later: they must never be written again (an undone append once
// let the next append write over them).
func TestConcurrentReadsDuringEdits(t *testing.T) {
	ip, lp := writeTestPair(t, 200, 4, 4)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 2)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			type held struct {
				px    []byte
				first byte
			}
			var kept []held
			for range 50 {
				for i := range d.Len() {
					px, ok := d.PixelsAt(i)
					s, ok2 := d.StateAt(i)
					if !ok || !ok2 {
						break // removed by an undo since Len
					}
					if i >= 200 {
						if len(px) != 16 || !s.Added {
							errs <- fmt.Sprintf("appended sample %d: pixels %v, state %+v", i, px, s)
							return
						}
						kept = append(kept, held{px, px[0]})
					}
				}
				for _, h := range kept {
					if !bytes.Equal(h.px, bytes.Repeat([]byte{h.first}, 16)) {
						errs <- fmt.Sprintf("pixels held since they were %d changed to %v", h.first, h.px)
						return
					}
				}
				_ = d.Counts()
				_ = d.Select(Filter{Subset: Edited})
			}
		}()
	}
	for k := range 100 {
		d.Relabel([]int{k}, (k+1)%10)
		d.Append([]Sample{{bytes.Repeat([]byte{byte(k + 1)}, 16), k % 10}})
		if k%3 == 0 {
			d.Undo()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
