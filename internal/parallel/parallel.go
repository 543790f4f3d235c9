// Package parallel runs a loop's iterations on several goroutines: the one way the project's
// numeric code (the scans, the neighbour searches, the networks, the map) spreads work over the
// cores. The loop is cut into chunks taken in order by whichever goroutine is free, so uneven
// chunks balance; each goroutine makes its own body once (its own buffers); the first error, or
// the context's cancellation, stops the chunks not yet begun (golang.org/x/sync/errgroup does
// the waiting and the first error).
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Options tune For. The zero value takes the defaults.
type Options struct {
	// Workers is the most goroutines run (default runtime.NumCPU()); never more than the chunks.
	Workers int
	// Chunk is how many iterations a goroutine takes at a time (default 1).
	Chunk int
	// Progress (may be nil) is called after each chunk with the share of chunks done (0–1), one
	// call at a time, from the goroutine that finished it.
	Progress func(done float64)
}

// For runs the iterations [0, n) in chunks [lo, hi) of at most o.Chunk, on at most o.Workers
// goroutines. Each goroutine calls worker once, with the loop's context (cancelled once a
// chunk fails or ctx is), for the body it then calls on every chunk it takes. A body that
// returns an error stops every chunk not yet begun; For returns the first such error, else
// ctx's error when ctx was cancelled (chunks not begun are then skipped), else nil. Chunks
// run concurrently: their bodies must write apart. For returns once every body has returned.
func For(ctx context.Context, n int, o Options, worker func(ctx context.Context) func(lo, hi int) error) error {
	if o.Chunk <= 0 {
		o.Chunk = 1
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	chunks := (n + o.Chunk - 1) / o.Chunk
	if n <= 0 {
		return ctx.Err()
	}
	g, gctx := errgroup.WithContext(ctx)
	var next, done atomic.Int64
	var mu sync.Mutex
	for range min(o.Workers, chunks) {
		g.Go(func() error {
			body := worker(gctx)
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := body(c*o.Chunk, min(n, (c+1)*o.Chunk)); err != nil {
					return err
				}
				if o.Progress != nil {
					k := done.Add(1)
					mu.Lock()
					o.Progress(float64(k) / float64(chunks))
					mu.Unlock()
				}
			}
		})
	}
	err := g.Wait()
	if cerr := ctx.Err(); cerr != nil && (err == nil || err == context.Canceled) {
		return cerr
	}
	return err
}

// Each is For with a body that needs no buffers of its own: f is called on every chunk.
func Each(ctx context.Context, n int, o Options, f func(lo, hi int) error) error {
	return For(ctx, n, o, func(context.Context) func(lo, hi int) error { return f })
}
