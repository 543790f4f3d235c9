package mnisttest

import (
	"runtime/metrics"
	"time"
)

// PeakHeap runs f and returns the peak of the live heap while it ran, above the live heap when
// it started (sampled every 5 ms; bytes), and f's error: the memory a step needs beyond the data
// it was given.
func PeakHeap(f func() error) (uint64, error) {
	base := heapBytes()
	peak := base
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				peak = max(peak, heapBytes())
			}
		}
	}()
	err := f()
	close(stop)
	<-stopped
	return max(peak, heapBytes()) - base, err
}

// heapBytes returns the heap's live bytes as marked by the last garbage collection.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
