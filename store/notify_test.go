package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"idxlabel/pairfile"
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
	d.Append([]Sample{{Pixels: make([]byte, 4), Label: 1}})
	d.Delete([]int{5})
	d.Undo()
	d.Undo()
	d.Save(nil)
	cancel()
	d.Relabel([]int{1}, 9)
	want := []Change{
		{Kind: Relabelled, Indices: []int{3, 4}, Gen: 1}, {Kind: Appended, Indices: []int{30}, Gen: 2},
		{Kind: DeletedChanged, Indices: []int{5}, Gen: 3}, {Kind: DeletedChanged, Indices: []int{5}, Gen: 4},
		{Kind: Truncated, Indices: []int{30}, Gen: 5}, {Kind: Reset, Gen: 6},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes: %v", len(got), got)
	}
	for k := range want {
		if got[k].Kind != want[k].Kind || !slices.Equal(got[k].Indices, want[k].Indices) || got[k].Gen != want[k].Gen {
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
		d.Append([]Sample{{Pixels: bytes.Repeat([]byte{byte(k + 1)}, 16), Label: k % 10}})
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

// SampleAt refuses a read from an older generation, so an index computed before a change made
// elsewhere (a save that drops deleted samples) is never used against the new numbering.
func TestSampleAtRefusesOlderGeneration(t *testing.T) {
	ip, lp := writeTestPair(t, 30, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	g := d.Gen()
	if st, px, ok := d.SampleAt(g, 29); !ok || len(px) != 4 || st.Label != d.Label(29) {
		t.Fatalf("current read refused: %v %v %v", st, px, ok)
	}
	d.Delete([]int{0})
	if _, _, ok := d.SampleAt(g, 29); ok {
		t.Fatal("a read from before the delete was accepted")
	}
	g = d.Gen()
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := d.SampleAt(g, 28); ok || d.Len() != 29 {
		t.Fatal("a read from before the save was accepted")
	}
	if _, _, ok := d.SampleAt(d.Gen(), 29); ok {
		t.Fatal("a read past Len was accepted")
	}
}

// While a save writes the files, readers do not wait for it (no lock is held: a read from the
// middle of the save returns) and edits are refused with ErrSaving, not queued behind the disk.
func TestSaveHoldsNoLockWhileWriting(t *testing.T) {
	ip, lp := writeTestPair(t, 30, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	d.Relabel([]int{1}, 7)
	var editErr error
	var label int
	pairfile.AfterRename = func(k int) {
		if k == 0 {
			label = d.Label(1) // would deadlock if the save held d.mu
			editErr = d.Relabel([]int{2}, 7)
		}
	}
	defer func() { pairfile.AfterRename = nil }()
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if label != 7 || !errors.Is(editErr, ErrSaving) {
		t.Fatalf("during the save: label %d, edit %v", label, editErr)
	}
	if err := d.Relabel([]int{2}, 7); err != nil {
		t.Fatalf("edit after the save: %v", err)
	}
}

// TestHasLabelsDuringASave is for the race detector: HasLabels is read (the window asks it for
// its menus) while a save of images opened alone gives them a label file, which sets the label
// header in rebase. It read it without the lock.
func TestHasLabelsDuringASave(t *testing.T) {
	ip, _ := writeTestPair(t, 6, 2, 2)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel(span(0, 6), 3))
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				d.HasLabels()
			}
		}
	}()
	err = saveAs(d, ip, ip+"-labels", nil)
	close(stop)
	<-done
	if err != nil || !d.HasLabels() {
		t.Fatalf("save: %v; has labels %v", err, d.HasLabels())
	}
}
