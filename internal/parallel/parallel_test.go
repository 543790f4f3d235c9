package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestForCoversEveryIteration: every iteration of [0, n) runs once, in chunks of at most Chunk,
// whatever the workers; each goroutine makes one body; progress ends at 1 and never goes back.
func TestForCoversEveryIteration(t *testing.T) {
	for _, c := range []struct{ n, chunk, workers int }{{0, 1, 2}, {1, 1, 2}, {10, 3, 1}, {1000, 7, 3}, {5, 100, 4}} {
		seen := make([]int32, c.n)
		var bodies atomic.Int32
		var mu sync.Mutex
		last := 0.0
		err := For(context.Background(), c.n, Options{Workers: c.workers, Chunk: c.chunk, Progress: func(done float64) {
			mu.Lock()
			defer mu.Unlock()
			if done < last {
				t.Errorf("progress went back from %v to %v", last, done)
			}
			last = done
		}}, func(context.Context) func(lo, hi int) error {
			bodies.Add(1)
			return func(lo, hi int) error {
				if hi-lo > c.chunk || lo >= hi {
					t.Errorf("chunk [%d, %d) of at most %d", lo, hi, c.chunk)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
				return nil
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range seen {
			if v != 1 {
				t.Fatalf("%+v: iteration %d ran %d times", c, i, v)
			}
		}
		chunks := (c.n + c.chunk - 1) / c.chunk
		if int(bodies.Load()) > min(c.workers, chunks) || c.n > 0 && last != 1 {
			t.Errorf("%+v: %d bodies, last progress %v", c, bodies.Load(), last)
		}
	}
}

// TestForStopsAtFirstError: a failing chunk's error comes back, the loop's context is
// cancelled for the others, and no chunk begins after it.
func TestForStopsAtFirstError(t *testing.T) {
	bad := errors.New("bad chunk")
	var after atomic.Int32
	var failed atomic.Bool
	err := For(context.Background(), 1000, Options{Workers: 1}, func(ctx context.Context) func(lo, hi int) error {
		return func(lo, hi int) error {
			if failed.Load() {
				after.Add(1)
			}
			if lo == 10 {
				failed.Store(true)
				return bad
			}
			return nil
		}
	})
	if err != bad || after.Load() != 0 {
		t.Errorf("err %v, %d chunks after the failure", err, after.Load())
	}
	var cancelled atomic.Bool
	started := make(chan struct{})
	err = For(context.Background(), 2, Options{Workers: 2}, func(ctx context.Context) func(lo, hi int) error {
		return func(lo, hi int) error {
			if lo == 0 {
				<-started
				return bad
			}
			close(started)
			<-ctx.Done() // the other chunk's failure cancels the loop's context
			cancelled.Store(true)
			return ctx.Err()
		}
	})
	if err != bad || !cancelled.Load() {
		t.Errorf("err %v (want the first failure), sibling cancelled %v", err, cancelled.Load())
	}
}

// TestForCancelled: a cancelled context runs no chunk and returns its error.
func TestForCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	err := Each(ctx, 100, Options{}, func(lo, hi int) error { ran = true; return nil })
	if err != context.Canceled || ran {
		t.Errorf("err %v, ran %v", err, ran)
	}
}
